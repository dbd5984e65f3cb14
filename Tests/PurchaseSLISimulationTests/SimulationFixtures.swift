import PurchaseSLICore
import PurchaseSLISimulation

/// Simulated runs shared by the tests, each generated once (static lets are initialised once, thread-safely).
enum Fixtures {
    /// 2026-11-02T00:00:00Z, a Monday.
    static let start = Int64(RFC3339.daysSinceEpoch(year: 2026, month: 11, day: 2)) * 86_400_000

    static let hour: Int64 = 3_600_000

    /// One day of healthy traffic at the default rate, duplicates included, in delivery order.
    static let steady = run(.steady, rate: 30, seed: 7)
    static let outage = run(.outage, rate: 6, seed: 11)
    static let retryConflicts = run(.retryConflicts, rate: 10, seed: 12)
    static let cancelSpike = run(.cancelSpike, rate: 6, seed: 13)
    static let renewalBatch = run(.renewalBatch, rate: 5, seed: 14)
    static let slowBurn = run(.slowBurn, rate: 15, seed: 15)
    static let rollout = run(.rollout, rate: 15, seed: 16)

    static func parameters(_ scenario: Scenario, days: Int = 1, rate: Double, seed: UInt64) -> SimulationParameters {
        SimulationParameters(scenario: scenario, startMillis: start, days: days, seed: seed, attemptsPerMinute: rate)
    }

    static func run(_ scenario: Scenario, days: Int = 1, rate: Double, seed: UInt64) -> Run {
        let parameters = parameters(scenario, days: days, rate: rate, seed: seed)
        return Run(parameters: parameters, events: Array(TrafficSimulator(parameters)))
    }
}

/// A generated run and helpers to measure it.
struct Run: Sendable {
    let parameters: SimulationParameters
    /// Every event in delivery order, duplicates included.
    let events: [PurchaseEvent]
    /// The events with duplicate deliveries removed (first delivery kept).
    let unique: [PurchaseEvent]

    init(parameters: SimulationParameters, events: [PurchaseEvent]) {
        self.parameters = parameters
        self.events = events
        var seen = Set<String>()
        unique = events.filter { seen.insert($0.eventID).inserted }
    }

    var schedule: IncidentSchedule { IncidentSchedule(parameters) }
}

extension Sequence<PurchaseEvent> {
    func count(of result: ResultType) -> Int { count { $0.resultType == result } }

    /// (success + alreadyGranted) / valid.
    var successRate: Double {
        var good = 0
        var valid = 0
        for event in self where event.resultType.isValid {
            valid += 1
            if event.resultType != .failure { good += 1 }
        }
        return valid == 0 ? .nan : Double(good) / Double(valid)
    }

    /// failure / valid.
    var failureRate: Double { 1 - successRate }

    /// cancel / (valid + cancel).
    var cancelRate: Double {
        let cancels = count(of: .cancel)
        let valid = count { $0.resultType.isValid }
        return Double(cancels) / Double(valid + cancels)
    }

    /// 409s per purchase attempt.
    var conflictsPerPurchase: Double {
        let conflicts = count { $0.isConflict }
        let purchases = count { $0.actionType == .purchase && $0.resultType == .start }
        return Double(conflicts) / Double(purchases)
    }
}
