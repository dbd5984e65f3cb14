import Foundation

/// An anytime-valid test of how many times more often bad events (failures, 409s, cancels, unfinished
/// attempts) happen on a candidate app version than on its baseline: its p-values and bounds hold at
/// every look, so a release may be checked every hour for a week without the repeated looks inflating the
/// chance of a false verdict (Lindon, Sanden, Shirikian, "Rapid Regression Detection in Software
/// Deployments through Sequential Testing", 2022; Johari, Pekelis, Walsh, "Always Valid Inference").
///
/// Each hour, given both sides' trials and the bad events of both together, the candidate's share of
/// those bad events is binomial with probability π(r) = s·r / (s·r + 1 − s), where s is the candidate's
/// share of the hour's trials and r the ratio of the candidate's bad rate to the baseline's. Conditioning
/// on each hour's totals makes the test indifferent to the phased release's changing share and to the
/// hour's own rate (time of day, an outage that hits both versions). The binomial is exact in the limit
/// of rare bad events; among a fixed number of trials the true law is hypergeometric, which is less
/// spread (Hoeffding), so the test is only more cautious there.
///
/// The likelihood ratio of an alternative ratio against the null ratio, multiplied over the hours and
/// averaged over a grid of alternatives, is a nonnegative martingale while the null holds, so by Ville's
/// inequality it ever reaches 1/α with probability at most α: p = 1 / its largest value so far.
public enum SequentialRateTest {
    /// One hour's counts: bad events and trials of each side.
    public struct Hour: Sendable, Hashable {
        /// The candidate's bad events.
        public var candidateBad: Int64
        /// The candidate's trials.
        public var candidateTrials: Int64
        /// The baseline's bad events.
        public var baselineBad: Int64
        /// The baseline's trials.
        public var baselineTrials: Int64

        /// Creates an hour's counts.
        public init(candidateBad: Int64, candidateTrials: Int64, baselineBad: Int64, baselineTrials: Int64) {
            self.candidateBad = candidateBad
            self.candidateTrials = candidateTrials
            self.baselineBad = baselineBad
            self.baselineTrials = baselineTrials
        }
    }

    /// Which side of the null ratio the test looks for evidence on.
    public enum Direction: Sendable {
        /// Null: the ratio is at most the null ratio; evidence that the candidate is worse than that.
        case worse
        /// Null: the ratio is at least the null ratio; evidence that the candidate is better than that
        /// (that a regression of that size is ruled out).
        case better
    }

    /// The alternative ratios mixed, as multiples of the null ratio, each with the same weight.
    static func alternatives(to nullRatio: Double, _ direction: Direction) -> [Double] {
        switch direction {
        case .worse:
            return [1.25, 1.5, 2, 3, 5, 10, 30].map { nullRatio * $0 }
        case .better:
            // An identical candidate (ratio 1) is the case a release manager most needs settled quickly.
            let multiples = [0.85, 0.7, 0.5, 0.35, 0.2, 0.05].map { nullRatio * $0 }
            return nullRatio > 1 ? multiples + [1] : multiples
        }
    }

    /// What an hour tells the test: the candidate's share of its trials, its bad events and both sides'
    /// bad events together; nil for an hour without trials on a side or without bad events, which says
    /// nothing.
    struct Informative {
        let share: Double
        let candidateBad: Double
        let bad: Double

        init?(_ hour: Hour) {
            let bad = hour.candidateBad + hour.baselineBad
            guard hour.candidateTrials > 0, hour.baselineTrials > 0, bad > 0 else { return nil }
            share = Double(hour.candidateTrials) / Double(hour.candidateTrials + hour.baselineTrials)
            candidateBad = Double(hour.candidateBad)
            self.bad = Double(bad)
        }
    }

    /// The evidence against one null ratio in one direction, gathered hour by hour: the mixture
    /// martingale's largest value so far. Adding an hour costs a logarithm per alternative.
    public struct Evidence: Sendable {
        /// The null ratio tested.
        public let nullRatio: Double
        private let ratios: [Double]
        /// log(alternative / null ratio) of each alternative.
        private let logMultiples: [Double]
        private var logLikelihoods: [Double]
        /// The log of the martingale's largest value so far (0 before any evidence).
        public private(set) var peakLog = 0.0

        /// Evidence against `nullRatio` in `direction`, none yet.
        public init(nullRatio: Double, direction: Direction) {
            self.nullRatio = nullRatio
            ratios = SequentialRateTest.alternatives(to: nullRatio, direction)
            logMultiples = ratios.map { log($0 / nullRatio) }
            logLikelihoods = [Double](repeating: 0, count: ratios.count)
        }

        /// Adds an hour's counts; an hour without trials on a side or without bad events says nothing.
        public mutating func add(_ hour: Hour) {
            if let informative = Informative(hour) { add(informative) }
        }

        /// Adds an informative hour. With π(x) = s·x / D(x), D(x) = 1 − s + s·x, the log-likelihood ratio
        /// of alternative a against null r for c of the hour's k bad events on the candidate is
        /// c·log(a/r) + k·(log D(r) − log D(a)).
        mutating func add(_ hour: Informative) {
            let share = hour.share
            let nullLog = log(1 - share + share * nullRatio)
            // Plain buffer loops: this runs for every hour of every comparison at every look.
            var largest = -Double.infinity
            ratios.withUnsafeBufferPointer { ratios in
                logMultiples.withUnsafeBufferPointer { logMultiples in
                    logLikelihoods.withUnsafeMutableBufferPointer { sums in
                        var index = 0
                        while index < ratios.count {
                            sums[index] +=
                                hour.candidateBad * logMultiples[index] + hour.bad * (nullLog - log(1 - share + share * ratios[index]))
                            largest = max(largest, sums[index])
                            index += 1
                        }
                    }
                }
            }
            // The mixture's log is at most its largest term: the peak cannot rise when that term does not.
            guard largest > peakLog else { return }
            var sum = 0.0
            for value in logLikelihoods { sum += exp(value - largest) }
            peakLog = max(peakLog, largest + log(sum / Double(ratios.count)))
        }

        /// The always-valid p-value: 1 / the martingale's largest value so far, at most 1.
        public var pValue: Double { min(1, exp(-peakLog)) }
    }

    /// The always-valid one-sided p-value of `hours` against the null ratio.
    public static func pValue(_ hours: [Hour], nullRatio: Double, direction: Direction) -> Double {
        evidence(hours, nullRatio: nullRatio, direction: direction).pValue
    }

    /// The evidence of `hours`, in order, against the null ratio.
    static func evidence(_ hours: [Hour], nullRatio: Double, direction: Direction) -> Evidence {
        var evidence = Evidence(nullRatio: nullRatio, direction: direction)
        for hour in hours { evidence.add(hour) }
        return evidence
    }

    /// The anytime-valid bound on the ratio at level α: for `.worse` the largest ratio the candidate's is
    /// shown to exceed (below 1 when it is not shown worse; nil when not even 1/1,000 is), for `.better`
    /// the smallest ratio it is shown to stay below (nil when no ratio up to 1,000 is).
    public static func bound(_ hours: [Hour], direction: Direction, alpha: Double) -> Double? {
        let target = log(1 / alpha)
        // Each of the bisection's 16 walks reads only the hours that say something.
        let informative = hours.compactMap(Informative.init)
        func rejected(_ logRatio: Double) -> Bool {
            // The peak only grows: the first hour that reaches the target decides (most of a bisection's
            // rejected ratios are rejected well before the last hour).
            var evidence = Evidence(nullRatio: exp(logRatio), direction: direction)
            for hour in informative {
                evidence.add(hour)
                if evidence.peakLog >= target { return true }
            }
            return false
        }
        // Rejection holds below the bound for `.worse` and above it for `.better`.
        var (low, high) = (log(1e-3), log(1e3))
        switch direction {
        case .worse:
            guard rejected(low) else { return nil }
            if rejected(high) { return exp(high) }
        case .better:
            guard rejected(high) else { return nil }
            if rejected(low) { return exp(low) }
        }
        // 14 halvings of a factor of a million: within 0.1 % of the bound.
        for _ in 0..<14 {
            let middle = (low + high) / 2
            if rejected(middle) == (direction == .worse) { low = middle } else { high = middle }
        }
        return exp(direction == .worse ? low : high)
    }

    /// About how many more candidate trials settle `.better` against `nullRatio` at level α if the
    /// candidate goes on as well as the baseline, whose bad rate is `baselineRate`, at `share` of the
    /// trials: each hour's k bad events add k × KL(s ‖ π(r)) to the evidence of an identical candidate,
    /// which is `baselineRate / s × KL(s ‖ π(r))` per candidate trial (`baselineRate × (r − 1 − ln r)`
    /// while the share is small); nil when it cannot grow (no bad events on the baseline, a null ratio of
    /// 1 or less, or no share).
    public static func trialsToSettle(
        _ hours: [Hour], nullRatio: Double, baselineRate: Double, share: Double, alpha: Double
    ) -> Int64? {
        guard nullRatio > 1, baselineRate > 0, share > 0, share < 1 else { return nil }
        let null = badShare(share, nullRatio)
        let divergence = share * log(share / null) + (1 - share) * log((1 - share) / (1 - null))
        let perTrial = baselineRate / share * divergence
        guard perTrial > 0 else { return nil }  // a divergence lost in rounding: no number of trials is known
        let ratios = alternatives(to: nullRatio, .better)
        // The identical candidate's own term, which the weight of one alternative among the grid dilutes.
        let needed = log(1 / alpha) + log(Double(ratios.count))
        var logLikelihood = 0.0
        for hour in hours where hour.candidateTrials > 0 && hour.baselineTrials > 0 && hour.candidateBad + hour.baselineBad > 0 {
            let share = Double(hour.candidateTrials) / Double(hour.candidateTrials + hour.baselineTrials)
            let (alternative, null) = (badShare(share, 1), badShare(share, nullRatio))
            logLikelihood +=
                Double(hour.candidateBad) * log(alternative / null)
                + Double(hour.baselineBad) * log((1 - alternative) / (1 - null))
        }
        // A vanishing divergence (a tiny regression allowed) asks for more trials than any app makes: unknown.
        let trials = max(0, (needed - logLikelihood) / perTrial).rounded(.up)
        return trials.isFinite && trials < 1e15 ? Int64(trials) : nil
    }

    /// π(r): the share of an hour's bad events expected on the candidate when its trials are `share` of
    /// the hour's and its bad rate is `ratio` times the baseline's.
    private static func badShare(_ share: Double, _ ratio: Double) -> Double {
        share * ratio / (share * ratio + 1 - share)
    }

}
