/// When a scenario's incident happens in a given run, and how far the new app version has spread.
public struct IncidentSchedule: Sendable, Hashable {
    private static let hour: Int64 = .millisPerHour
    private static let day: Int64 = .millisPerDay
    /// Phased-release shares of 4.12.0, one per phase.
    private static let rolloutShares = [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0]

    /// The scenario scheduled.
    public let scenario: Scenario
    /// When the incident is active, in milliseconds since the epoch; nil for ``Scenario/steady``.
    /// Open-ended incidents (retry-409, slow-burn, rollout) last to the end of the run.
    public let window: Range<Int64>?
    /// Length of one phase of the phased release (rollout only).
    public let phaseMillis: Int64?

    /// Places the scenario's incident in the run described by `parameters`, following ``Scenario/timingRule``.
    public init(_ parameters: SimulationParameters) {
        let start = parameters.startMillis
        let length = parameters.durationMillis
        scenario = parameters.scenario
        /// The onset, moved to the same fraction of the run as in a 3-day run when the run is too short.
        func onset(nominal: Int64, needs span: Int64) -> Int64 {
            nominal + span <= length ? nominal : nominal * length / (3 * Self.day)
        }
        func bounded(nominal: Int64, duration: Int64) -> Range<Int64> {
            let begin = start + onset(nominal: nominal, needs: duration)
            return begin..<min(begin + duration, start + length)
        }
        func openEnded(nominal: Int64) -> Range<Int64> {
            let begin = start + onset(nominal: nominal, needs: Self.day)
            return begin..<max(begin, start + length)
        }
        phaseMillis = parameters.scenario == .rollout ? (parameters.days >= 5 ? Self.day : max(length / 5, 1)) : nil
        switch parameters.scenario {
        case .steady: window = nil
        case .outage: window = bounded(nominal: 42 * Self.hour, duration: 40 * .millisPerMinute)
        case .retryConflicts: window = openEnded(nominal: 24 * Self.hour)
        case .cancelSpike: window = bounded(nominal: 40 * Self.hour, duration: 6 * Self.hour)
        case .renewalBatch: window = bounded(nominal: 30 * Self.hour, duration: 10 * Self.hour)
        case .slowBurn: window = openEnded(nominal: 24 * Self.hour)
        case .rollout: window = start..<max(start, start + length)
        case .paymentDetour: window = bounded(nominal: 40 * Self.hour, duration: 3 * Self.hour)
        case .appCrash: window = bounded(nominal: 42 * Self.hour, duration: 2 * Self.hour)
        case .doubleGrant: window = bounded(nominal: 40 * Self.hour, duration: 4 * Self.hour)
        case .replayedReceipt: window = bounded(nominal: 42 * Self.hour, duration: 2 * Self.hour)
        case .slowGrantQueue: window = bounded(nominal: 40 * Self.hour, duration: 3 * Self.hour)
        }
    }

    /// Whether the incident is active at `millis`.
    public func isActive(at millis: Int64) -> Bool {
        window?.contains(millis) ?? false
    }

    /// The share of traffic on app version 4.12.0 at `millis`, from 0 to 1.
    ///
    /// Zero except in retry-409 (adoption from the onset: 15 % after a day, 30 % after two, then 10 points a
    /// day up to 50 %) and rollout (the phased-release share of the current phase).
    public func newVersionShare(at millis: Int64) -> Double {
        guard let window, millis >= window.lowerBound else { return 0 }
        let elapsed = millis - window.lowerBound
        switch scenario {
        case .retryConflicts:
            let days = Double(elapsed) / Double(Self.day)
            return days <= 2 ? 0.15 * days : min(0.50, 0.30 + 0.10 * (days - 2))
        case .rollout:
            let phase = Int(elapsed / (phaseMillis ?? Self.day))
            return Self.rolloutShares[min(phase, Self.rolloutShares.count - 1)]
        default:
            return 0
        }
    }
}
