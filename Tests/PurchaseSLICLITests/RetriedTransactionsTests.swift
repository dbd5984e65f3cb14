import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// The renewal outage of the sample logs (20261108-0642-84c597): its retries are not priced, each
/// transaction retried and never granted is, once, at its product's price; a grant of one changes it,
/// the window read does not.
@Suite(.sampleLogs, .serialized) struct RetriedTransactionsTests {
    static let outage = "20261108-0642-84c597"

    /// A transaction of premium_monthly whose retries failed in the outage and that nothing granted.
    static let renewal = "2804392127875525"

    @Test("42 transactions retried and never granted, 419.58 USD (40 premium_monthly renewals, 2 coins_1200), in the incident and its week")
    func theRenewalOutageIsPricedPerTransaction() async throws {
        let logs = try SampleLogs.get()
        let time = seconds("2026-11-20T00:00:00Z")
        let record = try await onDedicatedThread {
            try await logs.context.record(of: try await logs.context.incident(id: Self.outage, at: time), at: time)
        }
        #expect(described(record.cost.retriedNotGranted) == "42: 419.58 USD", "\(record.cost)")
        #expect(record.cost.lost["retry"] != nil)
        #expect(
            record.cost.summary().rendered(.terminal).hasSuffix("; 42 transactions retried and never granted, 419.58 USD (in full)"),
            "\(record.cost.summary().rendered(.terminal))")
        // The lost retries are not priced, their transactions are: nothing of it is left unpriced.
        let total = record.losses.share(from: record.startsAt - 86_400, to: time)
        #expect(total.unpriced == 0 && total.counted == 42 && abs((total.worth["USD"] ?? 0) - 419.58) < 0.005, "\(total)")
        // The same record read a day later: a fact, not a window.
        let later = try await onDedicatedThread {
            try await logs.context.record(of: try await logs.context.incident(id: Self.outage, at: time), at: time + 86_400)
        }
        #expect(later.cost.retriedNotGranted == record.cost.retriedNotGranted)
    }

    @Test("a grant of one of them, and only that, makes it 41: the first grant after the outage settles the transaction")
    func aGrantSettlesARetriedTransaction() async throws {
        let logs = try SampleLogs.get()
        let directory = try TemporaryDirectory()
        let copy = try logs.copiedDatabase(in: directory)
        let granted = RFC3339.parseMillis("2026-11-09T10:00:00Z")!
        let tallies = try await onDedicatedThread {
            let store = try SQLiteBucketStore(path: copy)
            var grant = PurchaseEvent(
                eventID: "retry-grant-after-the-outage", timestampMillis: granted, productID: "premium_monthly", planID: "pro-monthly",
                actionType: .retry, resultType: .success, statusCode: 200)
            grant.transactionID = Self.renewal
            _ = try await store.record([grant], receivedAtMillis: granted)
            let context = AlertContext(store: store, storedMaintenance: [], policy: logs.policy)
            let incident = try await context.incident(id: Self.outage, at: seconds("2026-11-20T00:00:00Z"))
            return try await [seconds("2026-11-09T09:00:00Z"), seconds("2026-11-20T00:00:00Z")].asyncMap {
                try await context.record(of: incident, at: $0).cost.retriedNotGranted
            }
        }
        #expect(tallies.map(described) == ["42: 419.58 USD", "41: 409.59 USD"], "\(tallies)")
    }
}

/// "42: 419.58 USD": a tally's count and amounts to the cent.
private func described(_ tally: ChargeTally?) -> String {
    guard let tally else { return "none" }
    return "\(tally.count): " + tally.worth.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ")
}
