import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// An incident is a stored record that `serve` keeps minute by minute and `incidents --rebuild` takes
/// again from the events, equal at the same time; its figures are facts that only events change, and a
/// week counts the part of its losses that happened in it.
@Suite(.sampleLogs, .serialized) struct IncidentRecordTests {
    /// The payment-info detour of 2026-11-19 (CancelRateSpike, then ChargedNotGranted of coins_500).
    static let detour = "20261119-1641-b5ce28"
    /// The purchase success-rate burn of 2026-11-02, 18:02 to 18:55.
    static let burn = "20261102-1802-fef488"
    /// The double grants of 2026-10-25, 16:00 to 19:40, which went on as a ticket into W44.
    static let doubleGrant = "20261025-1601-cbf2d5"

    @Test("what serve keeps, minute by minute, is what a rebuild takes from the events at the same time")
    func theStoredRecordEqualsItsRebuild() async throws {
        let logs = try SampleLogs.get()
        let sender = RecordingSender()
        let notifier = AlertNotifier(context: logs.context, intervalSeconds: 60, sender: sender, logger: Logger(label: "test"), nowMillis: { 0 })
        var state = notifier.initialState
        let book = IncidentBook(context: logs.context)
        // The purchase burn of 2026-11-02, 18:02 to 18:55: firing, just over, and past the 3 hours in which
        // it could have fired again as the same incident.
        let steps: [(time: String, status: IncidentRecord.Status)] = [
            ("2026-11-02T18:05:00Z", .open), ("2026-11-02T18:30:00Z", .open), ("2026-11-02T19:00:00Z", .resolved),
            ("2026-11-02T22:00:00Z", .settled),
        ]
        for step in steps {
            await notifier.notify(at: seconds(step.time), state: &state)
            let kept = try await onDedicatedThread { try await book.record(id: Self.burn) }
            #expect(kept?.status == step.status, "\(step.time)")
            #expect(kept?.readAtSeconds == seconds(step.time) || step.status == .settled, "updated each round until settled")
            if step.status == .open, kept?.acknowledgement == nil {
                // A person takes it on while it fires: kept through every later round, and in the notifications.
                _ = try await onDedicatedThread {
                    try await book.acknowledge(id: Self.burn, owner: "ana", note: "grant server restarted", at: seconds("2026-11-02T18:10:00Z"))
                }
            }
        }
        // The resolved notification carries the final figures and who took it on.
        let resolved = try #require(await sender.sent.last { $0.endsAt != nil }, "no resolved notification")
        #expect(resolved.incidentRecord?.status == .resolved && resolved.incidentRecord?.acknowledgement?.owner == "ana")
        let text = AlertOutput.text([resolved], now: seconds("2026-11-02T19:00:00Z"))
        #expect(text.contains("incident cost: ≈ ") && text.contains("acknowledged by ana at 2026-11-02T18:10:00Z: grant server restarted"), "\(text)")
        let end = seconds(steps.last!.time)
        let kept = try await onDedicatedThread { try await book.records(from: seconds("2026-11-02T00:00:00Z"), to: end + 60) }
        let rebuilt = try await onDedicatedThread { try await book.rebuild(from: seconds("2026-11-02T00:00:00Z"), at: end).records }
        #expect(rebuilt.map(\.id) == [Self.burn] && kept.map(\.id) == [Self.burn])
        let documents = (try kept.map { try $0.stored().document }, try rebuilt.map { try $0.stored().document })
        #expect(kept == rebuilt, "\(documents.0) \(documents.1)")
    }

    @Test("the detour's record: 20 charges not granted in time, 99.80 USD; 15 still owed, 74.85 USD (5 refunded)")
    func theDetourOwesWhatWasNotRefunded() async throws {
        let logs = try SampleLogs.get()
        let incident = try await logs.incident(.cancelRateSpike, from: "2026-11-19T16:00:00Z", to: "2026-11-20T00:01:00Z")
        let record = try await onDedicatedThread { try await logs.context.record(of: incident, at: seconds("2026-11-20T00:00:00Z")) }
        #expect(record.id == Self.detour)
        #expect(record.cost.ungranted?.count == 20 && record.cost.ungranted?.worth["USD"].map { abs($0 - 99.80) < 0.005 } == true)
        #expect(record.owed?.count == 15 && record.owed?.worth["USD"].map { abs($0 - 74.85) < 0.005 } == true)
        #expect(record.costText?.rendered(.terminal).hasSuffix("; 15 charges still owed, 74.85 USD") == true)
        // The charges happened from 16:25 on: every one in the loss timeline, at its quarter hour.
        #expect(record.losses.total.counted == 20)
        #expect(record.losses.steps.first.map { $0.startSeconds >= seconds("2026-11-19T16:15:00Z") } == true)
    }

    @Test("a week counts the losses that happened in it: the double grants of 10-25 cost 487.42 USD in W43, none in W44")
    func aLossCountsInTheWeekItHappened() async throws {
        let logs = try SampleLogs.get()
        func review(_ week: String) async throws -> WeeklyReport {
            try await onDedicatedThread {
                try await WeeklyReport(
                    week: try #require(ISOWeek(parsing: week)), context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy))
            }
        }
        let (w43, w44) = (try await review("2026-W43"), try await review("2026-W44"))
        let record = try #require(w43.incidentRecords[Self.doubleGrant])
        #expect(record.cost.givenAway?.count == 58)
        #expect(w43.costShare(ofIncident: Self.doubleGrant)?.worth["USD"].map { abs($0 - 487.42) < 0.005 } == true)
        #expect(w44.incidentRecords[Self.doubleGrant] != nil, "it went on into W44")
        let w44Share = try #require(w44.costShare(ofIncident: Self.doubleGrant))
        #expect(w44Share.counted == 0 && w44Share.worth.isEmpty)
        #expect(w44.markdown.contains("(none of it this week)"), "\(w44.markdown)")
    }

    @Test("one incident, one cost: the purchase burn of 11-02 costs the same on every surface")
    func oneIncidentHasOneCostOnEverySurface() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        func run(_ arguments: [String]) async throws -> String {
            let (termination, output) = try await ChildProcess.run(executable, arguments + ["--db", logs.database])
            #expect(termination == .exit(0), "\(arguments): \(output)")
            return output
        }
        let record = try await onDedicatedThread {
            try await logs.context.record(
                of: try await logs.context.incident(id: Self.burn, at: seconds("2026-11-03T00:00:00Z")), at: seconds("2026-11-03T00:00:00Z"))
        }
        let cost = try #require(record.costText).rendered(.terminal)
        #expect(cost.hasPrefix("incident cost: ≈ 92 purchases (84–100) that would have succeeded, ≈ 979.41 USD"), "\(cost)")
        // The backtest's alert text, the incident report, the list of records and the weekly review.
        let alerts = try await run(["alerts", "--from", "2026-11-02T18:00:00Z", "--to", "2026-11-02T20:00:00Z"])
        #expect(alerts.contains(cost), "\(alerts)")
        let report = try await run(["incident", Self.burn, "--at", "2026-11-03T00:00:00Z"])
        #expect(report.contains("- **cost**: " + cost.dropFirst("incident cost: ".count)), "\(report)")
        // Rebuilt in a copy: the records kept in the suite's database are the notifier's.
        let directory = try TemporaryDirectory()
        let copy = try logs.copiedDatabase(in: directory)
        let (termination, listed) = try await ChildProcess.run(
            executable,
            ["incidents", "--rebuild", "--from", "2026-11-02T00:00:00Z", "--at", "2026-11-03T00:00:00Z", "--format", "json", "--db", copy])
        #expect(termination == .exit(0), "\(listed)")
        // After the line that says what was rebuilt.
        let json = try #require(listed.split(separator: "\n").last { $0.hasPrefix("{") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listedCost = try #require((object["incidents"] as? [[String: Any]])?.first?["cost"] as? [String: Any])
        #expect((listedCost["worth"] as? [String: Double])?["USD"] == 979.41, "\(listedCost)")
        let review = try await run(["report", "--week", "2026-W45", "--format", "markdown"])
        #expect(review.contains("incident 20261102-1802-fef488: PurchaseSuccessRateBurn actionType=purchase: bad from") && review.contains(cost))
    }

    @Test("the rollout of 4.12.0 names the incidents its alerts had, each with its record's cost")
    func theRolloutNamesTheIncidentsOfItsCandidate() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let copy = try logs.copiedDatabase(in: directory)
        let at = ["--at", "2026-11-20T00:00:00Z", "--db", copy]
        let (rebuilt, _) = try await ChildProcess.run(executable, ["incidents", "--rebuild", "--from", "2026-11-10T00:00:00Z"] + at)
        #expect(rebuilt == .exit(0))
        let (termination, text) = try await ChildProcess.run(executable, ["rollout"] + at)
        #expect(termination == .exit(0), "\(text)")
        let records = try await onDedicatedThread {
            try await IncidentBook(context: AlertContext(store: try SQLiteBucketStore(path: copy), storedMaintenance: [], policy: logs.policy))
                .records(
                    naming: "4.12.0", from: seconds("2026-11-10T00:00:00Z"), to: seconds("2026-11-20T00:01:00Z"))
        }
        #expect(records.map(\.id) == ["20261111-0941-6d6271", "20261117-1726-086dbf"])
        for record in records {
            let line = "  - incident \(record.id) (\(record.status.rawValue)): " + (record.costText?.rendered(.terminal) ?? "")
            #expect(text.contains(line), "\(line)\n\(text)")
        }
        let (_, json) = try await ChildProcess.run(executable, ["rollout", "--format", "json"] + at)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["incidents"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == records.map(\.id))
    }

    @Test("an open record the alerts no longer find (joined to another incident, its events pruned) is removed, not looked up every round")
    func anOpenRecordNoLongerFoundIsRemoved() async throws {
        let logs = try SampleLogs.get()
        let book = IncidentBook(context: logs.context)
        let time = seconds("2026-11-02T20:00:00Z")
        try await onDedicatedThread {
            let incident = try await logs.context.incident(id: Self.burn, at: time)
            var orphan = try await logs.context.record(of: incident, at: seconds("2026-11-02T18:30:00Z"))
            #expect(orphan.status == .resolved || orphan.status == .open)
            orphan.id = "20261102-1802-000000"
            orphan.endsAt = nil
            orphan.status = .open
            try await IncidentRepository(logs.store.sql).save([try orphan.stored()])
            await #expect(try book.record(id: orphan.id) != nil)
            let updated = try await book.update(with: [], at: time)
            #expect(!updated.contains { $0.id == orphan.id })
            await #expect(try book.record(id: orphan.id) == nil, "removed")
        }
    }

    @Test("a rebuild keeps a settled record it no longer finds (its events past their retention) and removes an unsettled one")
    func aRebuildKeepsSettledRecords() async throws {
        let logs = try SampleLogs.get()
        let book = IncidentBook(context: logs.context)
        let time = seconds("2026-11-03T00:00:00Z")
        try await onDedicatedThread {
            let found = try await logs.context.record(of: try logs.context.incident(id: Self.burn, at: time), at: time)
            #expect(found.status == .settled)
            var settled = found
            settled.id = "20261102-1802-aaaaaa"
            var resolved = found
            resolved.id = "20261102-1802-bbbbbb"
            resolved.status = .resolved
            try await IncidentRepository(logs.store.sql).save([try settled.stored(), try resolved.stored()])
            let rebuilt = try await book.rebuild(from: seconds("2026-11-02T12:00:00Z"), at: time)
            #expect(rebuilt.removed == 1 && rebuilt.records.map(\.id) == [Self.burn])
            await #expect(try book.record(id: settled.id) != nil, "a settled record is final")
            await #expect(try book.record(id: resolved.id) == nil)
            #expect(
                try await IncidentRepository(logs.store.sql).remove(
                    app: "", startingFrom: found.startsAt, to: found.startsAt + 1, keeping: [Self.burn]) == 1)
        }
    }
}

/// A sender that keeps every report it is given, in order.
private actor RecordingSender: AlertNotificationSender {
    private(set) var sent: [AlertReport] = []
    nonisolated var resendsFiring: Bool { false }
    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws { sent += reports }
}
