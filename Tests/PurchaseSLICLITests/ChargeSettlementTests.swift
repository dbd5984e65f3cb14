import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// A charge's state changes only by an event: on the sample logs, the payment-info detour's 20 charges of
/// 2026-11-19 that nothing granted, 5 of which the App Store refunded that evening. Those 5 are settled
/// (never owed again, whatever range is read), so make-whole, `charges --ungranted` and the
/// ChargedNotGranted alert count 15.
@Suite(.sampleLogs) struct ChargeSettlementTests {
    /// The detour's charges the App Store refunded (REFUND notifications of 19:21 to 23:25).
    static let refunded = ["2403865470134336", "2403865470134727", "2403865470135445", "2403865470135870", "2403865470139760"]

    @Test("make-whole of the detour posts 15 of its 20 charges: the 5 the App Store refunded are settled")
    func makeWholeLeavesRefundedChargesOut() async throws {
        let logs = try SampleLogs.get()
        let (termination, output) = try await ChildProcess.run(
            try #require(builtExecutable),
            [
                "make-whole", "--db", logs.database, "--from", "2026-11-19T00:00:00Z", "--to", "2026-11-20T00:00:00Z", "--at",
                "2026-11-22T00:00:00Z", "--url", "https://grants.example.com/make-whole", "--dry-run",
            ])
        #expect(termination == .exit(0), "\(output)")
        #expect(output.hasSuffix("15 charges owed; posted 0 now, 0 taken (dry run)\n"), "\(output)")
        #expect(output.components(separatedBy: "would post").count - 1 == 15)
        for id in Self.refunded { #expect(!output.contains(id), "\(id) was refunded") }
    }

    @Test(
        "charges: a refunded charge is settled, not owed, whatever range is read (its refund inside it or not)",
        arguments: [
            // The detour's whole day and after, with the refunds in range; its first two hours, before any refund.
            ("2026-11-19T00:00:00Z", "2026-11-21T00:00:00Z", 15, 5), ("2026-11-19T16:00:00Z", "2026-11-19T18:00:00Z", 9, 4),
        ])
    func chargesListSettledCharges(from: String, to: String, owed: Int, settled: Int) async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let range = ["--db", logs.database, "--from", from, "--to", to, "--at", "2026-11-22T00:00:00Z", "--product", "coins_500"]
        let (termination, owedOutput) = try await ChildProcess.run(executable, ["charges"] + range + ["--ungranted", "--format", "json"])
        #expect(termination == .exit(0), "\(owedOutput)")
        let owedLines = owedOutput.split(separator: "\n")
        #expect(owedLines.count == owed && owedLines.allSatisfy { $0.contains(#""owed":true"#) }, "\(owedOutput)")
        for id in Self.refunded { #expect(!owedOutput.contains(id)) }
        let (_, all) = try await ChildProcess.run(executable, ["charges"] + range + ["--format", "json"])
        let refundedLines = all.split(separator: "\n").filter { $0.contains(#""settlement":{"kind":"refunded""#) }
        #expect(refundedLines.count == settled, "\(all)")
        #expect(refundedLines.allSatisfy { line in line.contains(#""owed":false"#) && Self.refunded.contains { line.contains($0) } })
        let (_, table) = try await ChildProcess.run(executable, ["charges"] + range)
        #expect(table.contains("refunded 2026-11-19T19:22:10Z, never granted"), "\(table)")
        #expect(table.contains("\(owed) owed (not granted past the grace time), \(settled) settled without a grant"), "\(table)")
    }

    @Test(
        "the ChargedNotGranted alert counts what is owed (19 at its last minute, the first refund out); it resolves an hour after the last new charge went ungranted; the incident's record holds the 15 still owed, 74.85 USD, once the refunds came"
    )
    func chargedNotGrantedCountsWhatIsOwed() async throws {
        let logs = try SampleLogs.get()
        let last = try await onDedicatedThread { try await logs.context.firingReports(at: RFC3339.parseMillis("2026-11-19T20:15:00Z")! / 1000) }
        let evidence = try #require(
            last.first { $0.finding.kind == .chargedNotGranted }?.finding.evidence as? ChargeEvidence, "ChargedNotGranted fires")
        #expect(evidence.ungranted == 19)
        #expect(evidence.amounts.map { "\(NumberText.money($0.amount, currency: $0.currency)) \($0.charges)" } == ["94.81 USD 19"])
        #expect(!evidence.oldest.contains { $0.notification.transactionID == Self.refunded[0] })
        // The last charge went ungranted at 19:00 (its grace ended 19:15): the cause stopped, the charges stay owed.
        let after = try await onDedicatedThread { try await logs.context.firingReports(at: RFC3339.parseMillis("2026-11-19T20:16:00Z")! / 1000) }
        #expect(!after.contains { $0.finding.kind == .chargedNotGranted })
        let midnight = RFC3339.parseMillis("2026-11-20T00:00:00Z")! / 1000
        let record = try await onDedicatedThread {
            try await logs.context.record(of: try await logs.context.incident(id: "20261119-1641-b5ce28", at: midnight), at: midnight)
        }
        #expect(record.status == .resolved && record.endsAt == RFC3339.parseMillis("2026-11-19T20:16:00Z")! / 1000)
        #expect(record.owedText?.rendered(.terminal) == "15 charges still owed, 74.85 USD")
    }

    @Test(
        "the refund spike of 11-20 counts its window's refunds, from a day before it fires: the 5 of the detour's charges never granted, which the detour counts already, are named, not counted twice"
    )
    func aRefundOfAChargeNeverGrantedIsCountedOnce() async throws {
        let logs = try SampleLogs.get()
        let time = RFC3339.parseMillis("2026-11-22T00:00:00Z")! / 1000
        let record = try await onDedicatedThread {
            try await logs.context.record(of: try await logs.context.incident(id: "20261120-1800-1366dc", at: time), at: time)
        }
        #expect(record.alerts.map(\.kind) == [.refundSpike])
        #expect(record.cost.refunded == ChargeTally(count: 0, worth: [:]) && record.cost.refundsOfChargesNeverGranted == 5)
        #expect(record.cost.worth.isEmpty && record.losses.steps.allSatisfy { $0.worth.isEmpty })
        #expect(
            record.cost.summary().rendered(.terminal)
                == "5 refunds, all of charges never granted (counted as charges taken and not granted, not twice)")
    }
}

/// `charges write-off`: a person settles a charge, with who and why; what is granted or settled already
/// cannot be; make-whole and `charges --ungranted` leave a written-off charge out.
@Suite struct ChargeWriteOffTests {
    let directory: TemporaryDirectory
    let db: String

    /// Three App Store charges two hours ago that nothing granted; the third refunded since.
    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.file("write-off.sqlite")
        let charged = Int64(Date().timeIntervalSince1970) * 1000 - 2 * 3_600_000
        let store = try SQLiteBucketStore(path: db)
        func notification(_ id: String, _ kind: StoreEventKind, at millis: Int64) -> StoreNotification {
            StoreNotification(
                store: .apple, notificationID: "\(kind.rawValue)-\(id)", environment: "Production", appID: "com.example.app",
                type: kind == .charge ? "ONE_TIME_CHARGE" : "REFUND", kind: kind, signedMillis: millis, transactionID: id, productID: "coins_500",
                purchaseMillis: charged, price: 4.99, currency: "USD")
        }
        _ = try await store.record(
            ["2000000000000001", "2000000000000002", "2000000000000003"].map { notification($0, .charge, at: charged) }, receivedAtMillis: charged)
        _ = try await store.record([notification("2000000000000003", .refund, at: charged + 600_000)], receivedAtMillis: charged + 600_000)
    }

    private func run(_ arguments: [String]) async throws -> (ChildProcess.Termination, String) {
        try await ChildProcess.run(try #require(builtExecutable), arguments)
    }

    @Test("a write-off is kept with who and why; the charge is no longer owed, listed as written off, never posted")
    func writtenOffChargeIsSettled() async throws {
        let (wrote, output) = try await run([
            "charges", "write-off", "2000000000000001", "--db", db, "--store", "apple", "--reason", "coins credited by support, ticket 4411",
            "--by", "Ana",
        ])
        #expect(wrote == .exit(0) && output == "wrote off App Store transaction 2000000000000001 by Ana: coins credited by support, ticket 4411\n")
        let kept = try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(naming: ["2000000000000001"])
        #expect(kept.map { "\($0.outcome.rawValue) \($0.detail)" } == ["written-off by Ana: coins credited by support, ticket 4411"])

        let range = ["--db", db, "--from", "now-3h", "--to", "now"]
        let (_, owed) = try await run(["charges"] + range + ["--ungranted", "--format", "json"])
        #expect(owed.split(separator: "\n").count == 1 && owed.contains("2000000000000002"), "\(owed)")
        let (_, all) = try await run(["charges"] + range + ["--format", "json"])
        #expect(all.contains(#""settlement":{"kind":"written off","#) && all.contains(#""detail":"by Ana: coins credited by support, ticket 4411""#))
        let (posted, plan) = try await run(["make-whole"] + range + ["--url", "https://grants.example.com/make-whole", "--dry-run"])
        #expect(posted == .exit(0) && plan.contains("1 charge owed;") && plan.contains("2000000000000002"), "\(plan)")
        #expect(!plan.contains("2000000000000001") && !plan.contains("2000000000000003"), "\(plan)")
    }

    @Test(
        "what cannot be written off: a charge settled already, refunded, unknown, or with a reason that is not printable text",
        arguments: [
            (["2000000000000003", "--reason", "gone"], "transaction 2000000000000003 is settled already: refunded at"),
            (["2000000000000404", "--reason", "gone"], "no App Store charge of transaction 2000000000000404 is stored"),
            (["2000000000000002", "--reason", " \t"], "--reason: expected why, in 1 to 300 printable characters"),
            (["2000000000000002", "--reason", "ok\u{202E}evil"], "--reason: expected why"),
            (["2000000000000002", "--reason", String(repeating: "x", count: 301)], "--reason: expected why"),
            (["2000000000000002", "--reason", "ok", "--by", "line\nbreak"], "--by: expected a person's name"),
        ])
    func refusedWriteOffs(arguments: [String], message: String) async throws {
        let (termination, output) = try await run(["charges", "write-off", "--db", db, "--store", "apple"] + arguments)
        #expect(termination == .exit(1) && output.contains("error: " + message), "\(output)")
        #expect(
            try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(naming: [
                "2000000000000002", "2000000000000003", "2000000000000404",
            ]).isEmpty)
    }

    @Test("a charge written off once cannot be written off again; the first record stays")
    func writeOffOnce() async throws {
        let arguments = ["charges", "write-off", "2000000000000002", "--db", db, "--store", "apple", "--by", "Ana"]
        #expect(try await run(arguments + ["--reason", "first"]).0 == .exit(0))
        let (again, output) = try await run(arguments + ["--reason", "second"])
        #expect(again == .exit(1) && output.contains("is settled already: written off at") && output.contains("(by Ana: first)"), "\(output)")
        #expect(
            try await MakeWholeDeliveryRepository(try SQLiteBucketStore(path: db).sql).deliveries(naming: ["2000000000000002"]).map(\.detail) == [
                "by Ana: first"
            ])
    }
}
