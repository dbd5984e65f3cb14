import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIApplication

/// Evaluation reads minute by minute only the slices a rule may need
/// (``PurchaseSLIAnalysis/AlertRule/readsSlice(_:totals:)``); what it finds at every minute is what it
/// finds reading every slice.
@Suite struct SliceReachTests {
    private static let start: Int64 = 1_794_614_400  // 2026-11-14T00:00:00Z
    private static let end = start + 4 * 86_400
    /// The day of the incidents, after the three days a spike's baseline reads.
    private static let lastDay = start + 3 * 86_400
    private let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Four days of a wide catalog, an attempt every 20 s: two busy products (p7, p11) and 400 of 3 plans
    /// each sold a few dozen times, one failure in 197 and one cancel in 20 throughout; on the last day p7
    /// fails half its purchases for two hours, p11's attempts are all cancelled for those two hours, and
    /// app version 2.0's retries answer 409.
    private func store() async throws -> SQLiteBucketStore {
        let store = try SQLiteBucketStore(path: directory.file("wide.sqlite"))
        var events: [PurchaseEvent] = []
        var index = 0
        var time = Self.start
        while time < Self.end {
            defer {
                index += 1
                time += 20
            }
            let lastDay = time >= Self.lastDay
            let incident = lastDay && time >= Self.lastDay + 3600 && time < Self.lastDay + 3 * 3600
            let product = index % 4 == 0 ? (index % 8 == 0 ? 7 : 11) : (index * 37) % 400
            let version = index % 3 == 0 ? "2.0" : "1.9"
            let action: ActionType = index % 5 == 3 ? .retry : .purchase
            var result = ResultType.success
            var status: Int? = 200
            if incident && product == 7 && index % 16 == 0 {
                (result, status) = (.failure, 503)
            } else if incident && product == 11 {
                (result, status) = (.cancel, nil)
            } else if action == .retry && version == "2.0" && lastDay {
                (result, status) = (.alreadyGranted, 409)
            } else if index % 197 == 3 {
                (result, status) = (.failure, 500)
            } else if index % 20 == 4 {
                (result, status) = (.cancel, nil)
            }
            events.append(
                PurchaseEvent(
                    eventID: "e\(index)", timestampMillis: time * 1000, productID: "p\(product)", planID: "p\(product)-\(index % 3)",
                    actionType: action, resultType: result, statusCode: status, appVersion: version))
        }
        _ = try await store.record(events, receivedAtMillis: Self.end * 1000)
        return store
    }

    @Test func findingsAtEveryMinuteAreThoseOfEverySlice() async throws {
        let context = try await AlertContext(store: store(), policy: .default)
        let evaluator = context.evaluator
        let from = Self.lastDay
        let readFrom = from - evaluator.firingHistorySeconds
        let pruned = try await context.inputs(from: readFrom, to: Self.end, grantsEvaluatedFrom: nil, everySlice: false)
        let every = try await context.inputs(from: readFrom, to: Self.end, grantsEvaluatedFrom: nil, everySlice: true)
        let (read, all) = (pruned.slices.values.reduce(0) { $0 + $1.count }, every.slices.values.reduce(0) { $0 + $1.count })
        #expect(read * 2 < all, "most slices cannot alert and are not read: \(read) of \(all)")
        func episodes(_ inputs: AlertInputs) -> [String] {
            evaluator.episodes(from: from, to: Self.end, stepSeconds: 60, inputs: inputs).map { episode in
                let labels = episode.first.labels
                return
                    "\(episode.first.kind.rawValue) \(labels.actionType) \(labels.slice.map { "\($0.dimension.rawValue)=\($0.value ?? "")" } ?? "")"
                    + " \(episode.startsAt) \(episode.endsAt.map(String.init) ?? "-") \(episode.peak.severity)"
            }
        }
        let found = episodes(pruned)
        #expect(found == episodes(every))
        // Not vacuous: the failing product burns, the other's cancels and the new version's 409s spike.
        #expect(found.contains { $0.contains("PurchaseSuccessRateBurn purchase productID=p7") }, "\(found)")
        #expect(found.contains { $0.contains("CancelRateSpike") && $0.contains("productID=p11") }, "\(found)")
        #expect(found.contains { $0.contains("AlreadyGrantedSpike") && $0.contains("appVersion=2.0") }, "\(found)")
        for minute in stride(from: from, to: Self.end, by: 3600) {
            #expect(evaluator.findings(at: minute, inputs: pruned).map(\.identity) == evaluator.findings(at: minute, inputs: every).map(\.identity))
        }
    }

    @Test(arguments: [
        (EventDimension.appVersion, OutcomeCounts(), true),
        (.planID, OutcomeCounts(success: 90, cancel: 40), false),
        (.planID, OutcomeCounts(success: 90, failure: 4), false),
        (.planID, OutcomeCounts(success: 90, failure: 5), true),
        (.productID, OutcomeCounts(success: 90, cancel: 9), false),
        (.productID, OutcomeCounts(success: 90, cancel: 10), true),
    ])
    func theStandardRulesNeedASliceWithEnoughFailuresOrCancels(dimension: EventDimension, counts: OutcomeCounts, needed: Bool) {
        #expect(AlertRules.standard(for: .default).contains { $0.readsSlice(dimension, totals: counts) } == needed)
    }

    /// A rule that does not say which slices it reads gets every one.
    @Test func aRuleOfItsOwnReadsEverySlice() async throws {
        let standard = try await AlertContext(store: store(), policy: .default)
        let own = try await AlertContext(store: store(), policy: .default, rules: AlertRules.standard(for: .default) + [PlanCounter()])
        let from = Self.lastDay - standard.evaluator.firingHistorySeconds
        let (fewer, every) = (
            try await standard.inputs(from: from, to: Self.end), try await own.inputs(from: from, to: Self.end)
        )
        let count = { (inputs: AlertInputs) in inputs.slices.values.reduce(0) { $0 + $1.count { $0.labels.slice?.dimension == .planID } } }
        #expect(count(fewer) < count(every))
        #expect(count(every) == count(try await standard.inputs(from: from, to: Self.end, grantsEvaluatedFrom: nil, everySlice: true)))
    }
}

/// A rule of a team's own that reads every plan's series and finds nothing.
private struct PlanCounter: AlertRule {
    var kind: AlertFinding.Kind { AlertFinding.Kind(rawValue: "PlanCounter") }
    var shortName: String { "plans" }
    var holdSeconds: Int64 { 0 }
    var reachSeconds: Int64 { 3600 }
    func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome { AlertRuleOutcome() }
    func causes(of finding: AlertFinding) -> Set<IncidentCause> { [] }
}
