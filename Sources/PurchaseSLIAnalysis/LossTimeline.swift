import PurchaseSLICore

/// When an incident's losses happened, by quarter hour (every time zone's weeks start on a quarter
/// hour): each charge not granted at its charge, each refund at its refund, each grant given away at its
/// grant, and the purchases its failures lost spread over the quarter hours as their failures were.
/// What a week's share of an incident's cost is read from, so that an incident spanning two weeks is
/// counted once, each week with its part.
public struct LossTimeline: Sendable, Hashable, Codable {
    /// A quarter hour's losses.
    public struct Step: Sendable, Hashable, Codable {
        /// Its start (seconds since the epoch, a multiple of ``LossTimeline/stepSeconds``).
        public var startSeconds: Int64
        /// Money lost per currency.
        public var worth: [String: Double]
        /// Successes lost, estimated (purchases, restores and retries).
        public var lostSuccesses: Double
        /// Those of ``lostSuccesses`` that no price is known for (restores, retries, products never priced):
        /// not in ``worth``, and said so wherever the worth is summed.
        public var unpriced: Double
        /// Charges not granted, refunds and grants given away, counted in full.
        public var counted: Int

        /// A step of these losses.
        public init(startSeconds: Int64, worth: [String: Double] = [:], lostSuccesses: Double = 0, unpriced: Double = 0, counted: Int = 0) {
            self.startSeconds = startSeconds
            self.worth = worth
            self.lostSuccesses = lostSuccesses
            self.unpriced = unpriced
            self.counted = counted
        }

        /// Whether it holds no loss at all.
        var isEmpty: Bool { worth.values.allSatisfy { abs($0) < 0.000_5 } && abs(lostSuccesses) < 0.000_5 && abs(unpriced) < 0.000_5 && counted == 0 }
    }

    /// A quarter hour.
    public static let stepSeconds: Int64 = 900

    /// The quarter hours with a loss, by start.
    public private(set) var steps: [Step]

    /// A timeline without loss.
    public init() { steps = [] }

    /// Adds a loss counted in full (a charge, a refund, a grant, a transaction retried and never granted)
    /// that happened at `millis`, worth `worth`, or unpriced when it has no known price and `isPriced` is
    /// false (counted among ``Step/unpriced``).
    public mutating func addCounted(atMillis millis: Int64, worth: [String: Double], isPriced: Bool = true) {
        add(Step(startSeconds: millis.floorDividedBy(1000).quotient, worth: worth, unpriced: isPriced ? 0 : 1, counted: 1))
    }

    /// Spreads an estimate of `lostSuccesses` worth `worth` (`unpriced` of them of no known price) over
    /// quarter hours in proportion to `weights` (each quarter hour's failures, by start); nothing is added
    /// when the weights sum to zero.
    public mutating func spread(
        lostSuccesses: Double, worth: [String: Double], unpriced: Double, by weights: [(startSeconds: Int64, weight: Double)]
    ) {
        let total = weights.reduce(0) { $0 + max(0, $1.weight) }
        guard total > 0 else { return }
        for (start, weight) in weights where weight > 0 {
            let share = weight / total
            add(Step(startSeconds: start, worth: worth.mapValues { $0 * share }, lostSuccesses: lostSuccesses * share, unpriced: unpriced * share))
        }
    }

    /// The losses of `[fromSeconds, toSeconds)`, summed into one step starting at `fromSeconds`.
    public func share(from fromSeconds: Int64, to toSeconds: Int64) -> Step {
        var sum = Step(startSeconds: fromSeconds)
        for step in steps where step.startSeconds >= fromSeconds && step.startSeconds < toSeconds {
            sum.worth.merge(step.worth, uniquingKeysWith: +)
            sum.lostSuccesses += step.lostSuccesses
            sum.unpriced += step.unpriced
            sum.counted += step.counted
        }
        sum.worth = sum.worth.filter { abs($0.value) >= 0.005 }
        return sum
    }

    /// Every loss, summed.
    public var total: Step { share(from: .min, to: .max) }

    /// Adds `step`'s losses to the quarter hour it falls in.
    private mutating func add(_ step: Step) {
        let start = step.startSeconds - step.startSeconds.floorDividedBy(Self.stepSeconds).remainder
        guard !step.isEmpty else { return }
        // Losses mostly arrive in time order: the search starts from the end.
        let index = (steps.lastIndex { $0.startSeconds <= start }).map { $0 + 1 } ?? 0
        if index > 0, steps[index - 1].startSeconds == start {
            merge(step, into: index - 1)
        } else {
            steps.insert(Step(startSeconds: start), at: index)
            merge(step, into: index)
        }
    }

    /// Adds `step`'s losses to those of the step at `index`.
    private mutating func merge(_ step: Step, into index: Int) {
        steps[index].worth.merge(step.worth, uniquingKeysWith: +)
        steps[index].lostSuccesses += step.lostSuccesses
        steps[index].unpriced += step.unpriced
        steps[index].counted += step.counted
    }
}
