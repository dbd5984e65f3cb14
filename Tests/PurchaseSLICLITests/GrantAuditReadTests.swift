import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStorage
import Testing

/// A grant audit read from a store: of the 7 days before its span it reads only the grants a repeat can
/// repeat, and finds every repeat the whole history holds; without charges, from the grants'
/// fingerprints, the same repeats and the same grants around them as the complete audit.
@Suite struct GrantAuditReadTests {
    @Test(
        "the grants before the span: every repeat found at the edges of the 7 days, none beyond; without charges, the grants around repeats alone",
        arguments: [true, false])
    func repeatsAcrossTheSpansStart(complete: Bool) async throws {
        let store = InMemoryBucketStore()
        let from = RFC3339.parseMillis("2026-11-20T00:00:00Z")!
        let (hour, day): (Int64, Int64) = (3_600_000, 86_400_000)
        func grant(_ id: String, _ transaction: String, at millis: Int64) -> PurchaseEvent {
            var event = PurchaseEvent(
                eventID: id, timestampMillis: millis, productID: "coins_100", planID: nil, actionType: .purchase, resultType: .success,
                statusCode: 200, appVersion: "4.12.0")
            event.transactionID = transaction
            return event
        }
        _ = try await store.record(
            [
                // Granted an hour before the span, again within 7 days of it: repeats.
                grant("a1", "2000000000000001", at: from - hour), grant("a2", "2000000000000001", at: from + 7 * day - 2 * hour),
                // Granted an hour before the span, again 7 days and an hour later: not a repeat.
                grant("b1", "2000000000000002", at: from - hour), grant("b2", "2000000000000002", at: from + 7 * day),
                // Granted in the span and again within 7 days, after the span's first 7 days: repeats.
                grant("c1", "2000000000000003", at: from + 6 * day), grant("c2", "2000000000000003", at: from + 8 * day),
                // Granted 6 days before the span, again at its first millisecond: repeats.
                grant("d1", "2000000000000004", at: from - 6 * day), grant("d2", "2000000000000004", at: from),
                // Granted once, 3 days from any repeat: only the complete audit holds it.
                grant("e1", "2000000000000005", at: from + 3 * day),
            ], receivedAtMillis: from + 9 * day)
        let audit = try await store.grantAudit(
            fromMillis: from, toMillis: from + 9 * day, ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule(), complete: complete)
        #expect(audit.repeats.map { "\($0.grant.record.eventID) of \($0.first.eventID)" } == ["d2 of d1", "a2 of a1", "c2 of c1"])
        // c1 repeats none but is repeated; b2 lies within the ticket lookback after a2.
        #expect(audit.grants.map(\.record.eventID) == (complete ? ["d2", "e1", "c1", "a2", "b2", "c2"] : ["d2", "c1", "a2", "b2", "c2"]))
    }

    @Test("without charges: the repeats, what they repeat and every grant of the windows around them, as the complete audit has them")
    func repeatAuditMatchesTheCompleteOne() async throws {
        let store = InMemoryBucketStore()
        let from = RFC3339.parseMillis("2026-11-20T00:00:00Z")!
        let (minute, day): (Int64, Int64) = (60_000, 86_400_000)
        var generator = SimulationRandom(seed: 37)
        func grant(_ id: String, _ transaction: Int, at millis: Int64) -> PurchaseEvent {
            var event = PurchaseEvent(
                eventID: id, timestampMillis: millis, productID: ["coins_100", "coins_500"][transaction % 2], planID: nil,
                actionType: .purchase, resultType: .success, statusCode: 200, appVersion: "4.12.0")
            event.transactionID = String(2_000_000_000_000_000 + transaction)
            return event
        }
        // 3,000 grants of their own transactions over 20 days (7 before the span), then 12 granted again:
        // in the same millisecond, minutes, hours or days later, or beyond 7 days.
        var events = (0..<3000).map {
            grant("g\($0)", $0, at: from - 7 * day + Int64.random(in: 0..<(20 * day / minute), using: &generator) * minute)
        }
        let delays: [Int64] = [0, 5 * minute, 3 * 60 * minute, 2 * day, 6 * day + 23 * 60 * minute, 7 * day + 60 * minute]
        for index in 0..<12 {
            let first = Int.random(in: 0..<3000, using: &generator)
            events.append(grant("r\(index)", first, at: events[first].timestampMillis + delays[index % delays.count]))
        }
        _ = try await store.record(events, receivedAtMillis: from + 14 * day)
        let rule = SLOPolicy.ReconciliationRule()
        func audit(complete: Bool) async throws -> GrantAudit {
            try await store.grantAudit(fromMillis: from, toMillis: from + 13 * day, ledger: .empty, activity: .empty, rule: rule, complete: complete)
        }
        let (whole, repeatsAlone) = (try await audit(complete: true), try await audit(complete: false))
        #expect(whole.repeats.count >= 6)
        #expect(repeatsAlone.repeats == whole.repeats)
        #expect(repeatsAlone.grants.count < whole.grants.count)
        for found in whole.repeats {
            let millis = found.grant.record.millis
            let (start, end) = (millis - rule.pageWindowSeconds * 1000, millis + rule.ticketLookbackSeconds * 1000 - 1)
            #expect(
                repeatsAlone.grants(from: start, through: end).map(\.record.eventID) == whole.grants(from: start, through: end).map(\.record.eventID))
        }
    }
}
