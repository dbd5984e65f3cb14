import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// What every ``StoreRecordStore`` must do, run on each backend with the same fixtures and expectations.
@Suite("Store record contract: notifications and the app's reports")
struct StoreRecordContractTests {
    private func notification(
        _ id: String, kind: StoreEventKind = .charge, at time: String, transaction: String?, product: String? = "coins_100",
        price: Double? = 0.5, type: String? = nil
    ) -> StoreNotification {
        StoreNotification(
            store: .apple, notificationID: id, environment: "Production", appID: "com.example.app",
            type: type ?? (kind == .charge ? "ONE_TIME_CHARGE" : kind == .refund ? "REFUND" : "TEST"), kind: kind,
            signedMillis: RFC3339.parseMillis(time)!, transactionID: transaction, productID: product, purchaseMillis: RFC3339.parseMillis(time)!,
            price: price, currency: price == nil ? nil : "USD", appAccountToken: "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60",
            revocationMillis: kind == .refund ? RFC3339.parseMillis(time)! : nil)
    }

    private let day = (RFC3339.parseMillis("2026-11-20T00:00:00Z")!, RFC3339.parseMillis("2026-11-21T00:00:00Z")!)

    @Test("a notification is stored once, within a call and across calls, and read back whole by kind and time", arguments: Backend.all)
    func storedOnce(_ backend: Backend) async throws {
        let store = try await backend.store()
        let first = notification("n1", at: "2026-11-20T10:02:40Z", transaction: "t1")
        let refund = notification("n2", kind: .refund, at: "2026-11-20T12:00:00Z", transaction: "t1")
        let outcome = try await store.record(
            [first, first, refund, notification("n3", at: "2026-11-21T10:00:00Z", transaction: "t3")],
            receivedAtMillis: receivedAt)
        #expect(outcome.accepted == 3 && outcome.duplicateIndexes == [1])
        await #expect(try store.record([first], receivedAtMillis: receivedAt + 1).duplicateIndexes == [0])
        let read = try await store.notifications(kinds: [.charge], fromMillis: day.0, toMillis: day.1)
        #expect(read == [ReceivedNotification(first, receivedMillis: receivedAt)])
        await #expect(try store.notifications(kinds: [.refund], fromMillis: day.0, toMillis: day.1).map(\.notification) == [refund])
        await #expect(
            try store.notifications(kinds: [.charge, .refund], fromMillis: day.0, toMillis: day.1).map(\.notification.notificationID)
                == ["n1", "n2"])
        await #expect(try store.notifications(kinds: [], fromMillis: day.0, toMillis: day.1).isEmpty)
        // A family member's share is kept as such, and left out of the store activity (no money moved).
        var shared = notification("n4", at: "2026-11-20T11:00:00Z", transaction: "t4")
        shared.isFamilyShared = true
        _ = try await store.record([shared], receivedAtMillis: receivedAt)
        await #expect(try store.notifications(of: .charge, naming: ["t4"]).map(\.notification) == [shared])
        let activity = try await store.storeActivity(fromMillis: day.0, toMillis: day.1, stepSeconds: 86_400)
        #expect(activity.filter { $0.kind == .charge }.map(\.count).reduce(0, +) == 1, "\(activity)")
    }

    @Test(
        "per transaction id and account token: one report per event in time order, whatever order they were written in",
        arguments: Backend.all)
    func clientReportsPerEvent(_ backend: Backend) async throws {
        let store = try await backend.store()
        let token = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"
        func attempt(_ id: String, _ result: ResultType, at time: String, transaction: String? = "t1") -> PurchaseEvent {
            var made = event(
                id, at: time, result: result, status: result == .failure ? 500 : nil, error: result == .failure ? "grant timed out" : nil)
            made.transactionID = transaction
            made.appAccountToken = token
            return made
        }
        _ = try await store.record([attempt("e4", .alreadyGranted, at: "2026-11-20T10:30:00Z")], receivedAtMillis: receivedAt)
        _ = try await store.record(
            [attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e2", .failure, at: "2026-11-20T10:03:00Z")],
            receivedAtMillis: receivedAt)
        _ = try await store.record(
            [
                attempt("e6", .cancel, at: "2026-11-20T10:41:00Z", transaction: nil),
                attempt("e5", .start, at: "2026-11-20T10:40:00Z", transaction: nil),
            ], receivedAtMillis: receivedAt)
        // A resend (e1) beside a new event: only the new one reports.
        _ = try await store.record(
            [attempt("e1", .start, at: "2026-11-20T10:02:00Z"), attempt("e3", .success, at: "2026-11-20T10:20:00Z")],
            receivedAtMillis: receivedAt)
        let reports = try await store.clientReports(
            [.transactionID("t1"), .appAccountToken(token), .transactionID("t9")], fromMillis: day.0, toMillis: day.1)
        // One report per event (the resend of e1 not again), in time order; merging is the ledger's.
        #expect(
            reports.map { "\($0.key.text) \($0.lastResult.rawValue) \(RFC3339.format(millis: $0.lastMillis))" } == [
                "transactionID t1 start 2026-11-20T10:02:00Z", "transactionID t1 failure 2026-11-20T10:03:00Z",
                "transactionID t1 success 2026-11-20T10:20:00Z", "transactionID t1 alreadyGranted 2026-11-20T10:30:00Z",
                "appAccountToken \(token) start 2026-11-20T10:40:00Z", "appAccountToken \(token) cancel 2026-11-20T10:41:00Z",
            ])
        #expect(reports[2].firstGrantMillis == RFC3339.parseMillis("2026-11-20T10:20:00Z") && reports[1].firstGrantMillis == nil)
        #expect(reports[1].lastErrorDescription == "grant timed out" && reports[1].lastStatusCode == 500 && reports[0].productID == "coins_100")
        // The range is of the events' times, to the millisecond.
        await #expect(
            try store.clientReports(
                [.transactionID("t1")], fromMillis: RFC3339.parseMillis("2026-11-20T10:02:00.001Z")!,
                toMillis: RFC3339.parseMillis("2026-11-20T10:20:00Z")!
            ).map(\.lastResult) == [.failure])
        await #expect(try store.clientReports([.transactionID("t1")], fromMillis: day.1, toMillis: day.1 + 86_400_000).isEmpty)
        var failed = event("f1", at: "2026-11-20T11:00:00Z", result: .failure, status: 503, error: "verification failed: 503")
        (failed.transactionID, failed.planID) = ("t-failed", "coins-small")
        _ = try await store.record([failed], receivedAtMillis: receivedAt)
        await #expect(
            try store.clientReports([.transactionID("t-failed")], fromMillis: day.0, toMillis: day.1)
                == [ClientReport(key: .transactionID("t-failed"), event: failed)])
        // Every event's outcome, by its key's hash, whoever asks: what retried transactions are counted from.
        let outcomes = try await store.reportedOutcomes(fromMillis: day.0, toMillis: day.1, keyHashes: nil)
        let t1 = ClientReportBlob.hash(of: .transactionID("t1"))
        #expect(
            outcomes.sorted { $0.millis < $1.millis }.map { "\($0.keyHash == t1 ? "t1" : "other") \($0.result.rawValue)" } == [
                "t1 start", "t1 failure", "t1 success", "t1 alreadyGranted", "other start", "other cancel", "other failure",
            ])
        #expect(
            outcomes.first { $0.keyHash == ClientReportBlob.hash(of: .transactionID("t-failed")) }
                == ReportedOutcome(
                    keyHash: ClientReportBlob.hash(of: .transactionID("t-failed")), productID: "coins_100", planID: "coins-small",
                    actionType: "purchase", result: .failure, millis: RFC3339.parseMillis("2026-11-20T11:00:00Z")!, firstGrantMillis: nil))
        #expect(outcomes.first { $0.result == .success }?.firstGrantMillis == RFC3339.parseMillis("2026-11-20T10:20:00Z"))
        await #expect(try store.reportedOutcomes(fromMillis: day.1, toMillis: day.1 + 86_400_000, keyHashes: nil).isEmpty)
        // Only the keys asked for, when asked.
        await #expect(try store.reportedOutcomes(fromMillis: day.0, toMillis: day.1, keyHashes: [t1]).count == 4)
        await #expect(try store.reportedOutcomes(fromMillis: day.0, toMillis: day.1, keyHashes: []).isEmpty)
    }

    @Test(
        "reports received 9 days ago stay only for the charges stored in the span they reach; their grants stay, a file read today waits, settling twice changes nothing",
        arguments: Backend.all)
    func reportsSettle(_ backend: Backend) async throws {
        let store = try await backend.store()
        let token = "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60"  // the notifications' account token
        func attempt(_ id: String, _ result: ResultType, at time: String, transaction: String?, token: String? = nil) -> PurchaseEvent {
            var made = event(id, at: time, result: result, status: result == .success ? 200 : nil)
            (made.transactionID, made.appAccountToken) = (transaction, token)
            return made
        }
        let live = RFC3339.parseMillis("2026-11-02T00:00:00Z")!
        let now = RFC3339.parseMillis("2026-11-21T00:00:00Z")!
        _ = try await store.record(
            [
                // The day before the charge, of another event day than the rest of the batch.
                attempt("c0", .start, at: "2026-10-31T23:59:00Z", transaction: "t-charged"),
                attempt("c1", .start, at: "2026-11-01T09:59:00Z", transaction: nil, token: token),
                attempt("c2", .success, at: "2026-11-01T10:00:00Z", transaction: "t-charged"),
                attempt("u1", .success, at: "2026-11-01T10:00:30Z", transaction: "t-uncharged"),
                attempt("l1", .success, at: "2026-11-01T10:01:00Z", transaction: "t-late-charge"),
            ], receivedAtMillis: live)
        _ = try await store.record(
            [attempt("c3", .alreadyGranted, at: "2026-11-05T10:00:00Z", transaction: "t-charged")], receivedAtMillis: live + 4 * 86_400_000)
        // Read from a file today: events of the same days, not settled until 9 days from now.
        _ = try await store.record([attempt("f1", .failure, at: "2026-11-01T11:00:00Z", transaction: "t-file")], receivedAtMillis: now)
        // The charge of t-charged; one of t-late-charge more than 7 days after its report, out of its reach.
        _ = try await store.record(
            [
                notification("n1", at: "2026-11-01T09:59:30Z", transaction: "t-charged"),
                notification("n2", at: "2026-11-09T10:02:00Z", transaction: "t-late-charge"),
            ],
            receivedAtMillis: live)
        let keys: Set<ClientReport.Key> = [
            .transactionID("t-charged"), .transactionID("t-uncharged"), .transactionID("t-late-charge"), .transactionID("t-file"),
            .appAccountToken(token),
        ]
        let range = (RFC3339.parseMillis("2026-10-30T00:00:00Z")!, now)
        await #expect(try store.clientReports(keys, fromMillis: range.0, toMillis: range.1).count == 7)
        _ = try await store.prune(nowMillis: now)
        let settled = try await store.clientReports(keys, fromMillis: range.0, toMillis: range.1).map { "\($0.key.text) \($0.lastResult.rawValue)" }
        #expect(
            settled == [
                "transactionID t-charged start", "appAccountToken \(token) start", "transactionID t-charged success", "transactionID t-file failure",
                "transactionID t-charged alreadyGranted",
            ])
        await #expect(try store.grants(fromMillis: range.0, toMillis: range.1).map(\.eventID) == ["c2", "u1", "l1"])
        _ = try await store.prune(nowMillis: now + 3_600_000)
        await #expect(
            try store.clientReports(keys, fromMillis: range.0, toMillis: range.1).map { "\($0.key.text) \($0.lastResult.rawValue)" } == settled)
        // Nine days after the file was read, its report goes too.
        _ = try await store.prune(nowMillis: now + 10 * 86_400_000)
        await #expect(try store.clientReports([.transactionID("t-file")], fromMillis: range.0, toMillis: range.1).isEmpty)
    }

    /// Grants write UUIDs and decimal ids compactly: every shape of id reads back exactly as sent.
    @Test("grants: event and transaction ids read back exactly, whatever their shape", arguments: Backend.all)
    func grantIDsReadBackExactly(_ backend: Backend) async throws {
        let store = try await backend.store()
        let ids = [
            "9b825964-86ce-4385-952b-015481e15515", "9B825964-86CE-4385-952B-015481E15515", "9b825964-86CE-4385-952b-015481e15515",
            "9b82596486ce4385952b015481e15515", "9b825964-86ce-4385-952b-015481e1551g", "2036651470292976", "0", "0123",
            "9999999999999999999", "18446744073709551616", "GPA.3372-1234-5678-90123", "tx-ü", "12345678-1234-1234-1234-123456789012",
            String(repeating: "x", count: 16_381), "",
        ]
        let events = ids.enumerated().map { index, id -> PurchaseEvent in
            var made = event(id, at: "2026-11-20T10:00:\(index < 10 ? "0" : "")\(index)Z", result: .success, status: 200)
            made.transactionID = ids[ids.count - 1 - index]
            return made
        }
        _ = try await store.record(events, receivedAtMillis: receivedAt)
        let grants = try await store.grants(fromMillis: day.0, toMillis: day.1)
        #expect(grants.map(\.eventID) == ids)
        #expect(grants.map(\.transactionID) == ids.reversed())
        // Read by the transactions named: each shape found as written, no other (a case or a digit apart), an
        // id named twice once.
        for wanted in [
            ["9B825964-86CE-4385-952B-015481E15515", "0123"], ["2036651470292976", "", "tx-ü"], ["missing", "00"],
            ["0", "GPA.3372-1234-5678-90123", "0"],
        ] {
            let named = try await store.grants(fromMillis: day.0, toMillis: day.1, of: .transactions(wanted)).map(\.transactionID)
            #expect(named == ids.reversed().filter(Set(wanted).contains), "naming \(wanted)")
        }
        // Their fingerprints: one a grant, each id its own, and each finds its grant alone.
        let fingerprints = try await store.grantFingerprints(fromMillis: day.0, toMillis: day.1).sorted { $0.millis < $1.millis }
        #expect(fingerprints.map(\.millis) == grants.map(\.millis))
        #expect(Set(fingerprints.map(\.transaction)).count == ids.count)
        for (fingerprint, id) in zip(fingerprints, ids.reversed()) {
            let found = try await store.grants(fromMillis: day.0, toMillis: day.1, of: .fingerprints([fingerprint.transaction]))
            #expect(found.map(\.transactionID) == [id])
        }
        await #expect(try store.grantFingerprints(fromMillis: day.0, toMillis: grants[1].millis).map(\.millis) == [grants[0].millis])
    }

    /// Reads sort each minute's grants and rely on minutes coming in order: batches written late, out of
    /// time order, across minutes and within one, still read by time (and then transaction and event id).
    @Test("grants: read by time whatever order their batches were written in", arguments: Backend.all)
    func grantsReadByTime(_ backend: Backend) async throws {
        let store = try await backend.store()
        func grant(_ id: String, at time: String, transaction: String) -> PurchaseEvent {
            var made = event(id, at: time, result: .success, status: 200)
            made.transactionID = transaction
            return made
        }
        let batches = [
            [
                grant("e5", at: "2026-11-20T10:02:40Z", transaction: "2000000000000005"),
                grant("e1", at: "2026-11-20T10:00:30Z", transaction: "2000000000000001"),
            ],
            [
                grant("e4", at: "2026-11-20T10:02:10Z", transaction: "2000000000000004"),
                grant("e6", at: "2026-11-20T10:02:40Z", transaction: "2000000000000003"),
            ],
            [
                grant("e3", at: "2026-11-20T10:01:59.999Z", transaction: "2000000000000003"),
                grant("e2", at: "2026-11-20T10:00:05Z", transaction: "2000000000000002"),
            ],
        ]
        for (index, batch) in batches.enumerated() { _ = try await store.record(batch, receivedAtMillis: receivedAt + Int64(index) * 1000) }
        await #expect(try store.grants(fromMillis: day.0, toMillis: day.1).map(\.eventID) == ["e2", "e1", "e3", "e4", "e6", "e5"])
        let named = try await store.grants(fromMillis: day.0, toMillis: day.1, of: .transactions(["2000000000000003", "2000000000000001"]))
        #expect(named.map(\.eventID) == ["e1", "e3", "e6"])
        // No charge stored yet: none is found by its transaction.
        await #expect(try store.notifications(of: .charge, naming: ["2000000000000001"]).isEmpty)
    }

    @Test(
        "grants: each success of a purchase or retry naming a transaction, in full, once however often its batch is resent; restores and other results are not",
        arguments: Backend.all)
    func grantsStored(_ backend: Backend) async throws {
        let store = try await backend.store()
        func grant(
            _ id: String, _ result: ResultType = .success, action: ActionType = .purchase, at time: String, transaction: String?
        )
            -> PurchaseEvent
        {
            var made = event(id, at: time, result: result, status: result == .success ? 200 : nil)
            (made.actionType, made.transactionID, made.appVersion, made.platform, made.app) = (
                action, transaction, "4.12.0", "iOS", "com.example.app"
            )
            (made.price, made.currency) = action == .purchase ? (4.99, "USD") : (nil, nil)
            return made
        }
        let first = grant("g1", at: "2026-11-20T10:00:00.250Z", transaction: "2000000000000001")
        let again = grant("g2", action: .retry, at: "2026-11-20T10:00:20Z", transaction: "2000000000000001")
        _ = try await store.record(
            [first, grant("x1", .alreadyGranted, action: .retry, at: "2026-11-20T10:01:00Z", transaction: "2000000000000001")],
            receivedAtMillis: receivedAt)
        _ = try await store.record(
            [
                again, grant("x2", action: .restore, at: "2026-11-20T10:02:00Z", transaction: "2000000000000002"),
                grant("x3", .failure, at: "2026-11-20T10:03:00Z", transaction: "2000000000000003"),
                grant("x4", at: "2026-11-20T10:04:00Z", transaction: nil),
            ], receivedAtMillis: receivedAt)
        // A resend of the first batch adds nothing.
        _ = try await store.record([first], receivedAtMillis: receivedAt + 60_000)
        let grants = try await store.grants(fromMillis: day.0, toMillis: day.1)
        #expect(
            grants == [
                GrantRecord(
                    eventID: "g1", transactionID: "2000000000000001", millis: RFC3339.parseMillis("2026-11-20T10:00:00.250Z")!,
                    productID: "coins_100", planID: first.planID, actionType: .purchase, appVersion: "4.12.0", platform: "iOS",
                    app: "com.example.app",
                    price: 4.99, currency: "USD"),
                GrantRecord(
                    eventID: "g2", transactionID: "2000000000000001", millis: RFC3339.parseMillis("2026-11-20T10:00:20Z")!,
                    productID: "coins_100", planID: again.planID, actionType: .retry, appVersion: "4.12.0", platform: "iOS", app: "com.example.app"),
            ])
        // The range is of the grants' times, to the millisecond.
        await #expect(
            try store.grants(fromMillis: RFC3339.parseMillis("2026-11-20T10:00:00.251Z")!, toMillis: day.1).map(\.eventID) == ["g2"])
        // The charges behind them, whatever their time; refunds and other transactions are not.
        _ = try await store.record(
            [
                notification("n1", at: "2026-11-12T09:59:58Z", transaction: "2000000000000001"),
                notification("n2", kind: .refund, at: "2026-11-20T12:00:00Z", transaction: "2000000000000001"),
                notification("n3", at: "2026-11-20T10:00:00Z", transaction: "2000000000000009"),
            ], receivedAtMillis: receivedAt)
        await #expect(
            try store.notifications(of: .charge, naming: ["2000000000000001", "2000000000000404"]).map(\.notification.notificationID) == ["n1"])
        await #expect(try store.notifications(of: .charge, naming: []).isEmpty)
        // The refunds of a transaction, whatever their time: what settles a charge read for another range.
        await #expect(
            try store.notifications(of: .refund, naming: ["2000000000000001", "2000000000000009"]).map(\.notification.notificationID) == ["n2"])
    }

    @Test(
        "charges naming transactions: the same answer for a few ids among many charges as for many ids, by time then notification id",
        arguments: Backend.all)
    func chargesNamingFewOrMany(_ backend: Backend) async throws {
        let store = try await backend.store()
        // 30 charges of 15 transactions, two per minute (told twice under two ids), and a refund of each.
        let minutes = (0..<15).map { String(format: "2026-11-20T10:%02d:00Z", 14 - $0) }
        let charges = (0..<15).flatMap { index in
            [
                notification("c\(index)b", at: minutes[index], transaction: "t\(index)"),
                notification("c\(index)a", at: minutes[index], transaction: "t\(index)"),
                notification("r\(index)", kind: .refund, at: minutes[index], transaction: "t\(index)"),
            ]
        }
        _ = try await store.record(charges, receivedAtMillis: receivedAt)
        // One id among 30 charges is looked up; ten are read with every charge.
        await #expect(try store.notifications(of: .charge, naming: ["t3", "t404"]).map(\.notification.notificationID) == ["c3a", "c3b"])
        let many = Set((0..<10).map { "t\($0)" })
        await #expect(
            try store.notifications(of: .charge, naming: many).map(\.notification.notificationID)
                == (0..<10).reversed().flatMap { ["c\($0)a", "c\($0)b"] })
        await #expect(try store.notifications(of: .refund, naming: ["t3", "t404"]).map(\.notification.notificationID) == ["r3"])
        await #expect(try store.notifications(of: .refund, naming: many).map(\.notification.notificationID) == (0..<10).reversed().map { "r\($0)" })
    }

    @Test("holds charges: not with events alone nor with refunds and other notifications, once a charge is stored", arguments: Backend.all)
    func holdsCharges(_ backend: Backend) async throws {
        let store = try await backend.store()
        await #expect(try !store.holdsCharges())
        _ = try await store.record([event("e1", at: "2026-11-20T10:00:00Z", result: .success, status: 200)], receivedAtMillis: receivedAt)
        _ = try await store.record(
            [
                notification("r1", kind: .refund, at: "2026-11-20T10:00:00Z", transaction: "t1"),
                notification("o1", kind: .other, at: "2026-11-20T10:00:00Z", transaction: "t1"),
            ], receivedAtMillis: receivedAt)
        await #expect(try !store.holdsCharges())
        _ = try await store.record([notification("c1", at: "2026-11-20T10:00:00Z", transaction: "t1")], receivedAtMillis: receivedAt)
        await #expect(try store.holdsCharges())
    }

    @Test("notifications with a product naming transactions: of any kind and time, by time then id", arguments: Backend.all)
    func notificationsWithProduct(_ backend: Backend) async throws {
        let store = try await backend.store()
        _ = try await store.record(
            [
                notification("n1", at: "2026-10-01T10:00:00Z", transaction: "t1"),
                notification("n2", kind: .refund, at: "2026-11-20T12:00:00Z", transaction: "t1", product: nil),
                notification("n3", kind: .other, at: "2026-11-20T11:00:00Z", transaction: "t1", product: "gems_10"),
                notification("n4", at: "2026-11-20T10:00:00Z", transaction: "t2"),
                notification("n5", kind: .refund, at: "2026-11-20T10:00:00Z", transaction: "t3"),
            ], receivedAtMillis: receivedAt)
        await #expect(try store.notificationsWithProduct(naming: ["t1", "t3", "t404"]).map(\.notification.notificationID) == ["n1", "n5", "n3"])
        await #expect(try store.notificationsWithProduct(naming: []).isEmpty)
    }

    @Test("charges and refunds per step: a transaction told twice once, a refund without product takes its charge's", arguments: Backend.all)
    func storeActivity(_ backend: Backend) async throws {
        let store = try await backend.store()
        _ = try await store.record(
            [
                notification("n1", at: "2026-11-20T10:02:00Z", transaction: "t1"),
                notification("n1b", at: "2026-11-20T10:02:00Z", transaction: "t1"),  // the same charge, told again
                notification("n2", at: "2026-11-20T10:40:00Z", transaction: "t2", product: "coins_500", price: 2.25),
                notification("n3", at: "2026-11-20T11:10:00Z", transaction: nil, price: nil),
                notification("n4", kind: .refund, at: "2026-11-20T11:20:00Z", transaction: "t2", product: nil, price: 2.25),
                notification("n5", kind: .refund, at: "2026-11-20T11:20:00Z", transaction: "t2", product: nil, price: 2.25, type: "REVOKE"),
                notification("n6", kind: .other, at: "2026-11-20T11:30:00Z", transaction: "t2"),
                notification("n7", at: "2026-11-20T12:00:00Z", transaction: "t7"),
            ], receivedAtMillis: receivedAt)
        let rows = try await store.storeActivity(
            fromMillis: RFC3339.parseMillis("2026-11-20T10:00:00Z")!, toMillis: RFC3339.parseMillis("2026-11-20T12:00:00Z")!, stepSeconds: 3600)
        #expect(
            rows.map {
                "\(RFC3339.format(seconds: $0.timeSeconds)) \($0.productID ?? "-") \($0.kind) \($0.type) \($0.currency ?? "-") \($0.count) \($0.amount)"
            }
                == [
                    "2026-11-20T10:00:00Z coins_100 charge ONE_TIME_CHARGE USD 1 0.5",
                    "2026-11-20T10:00:00Z coins_500 charge ONE_TIME_CHARGE USD 1 2.25",
                    "2026-11-20T11:00:00Z coins_100 charge ONE_TIME_CHARGE - 1 0.0",
                    "2026-11-20T11:00:00Z coins_500 refund REFUND USD 1 2.25",
                ])
    }

    @Test(
        "events clients dropped: stored with a batch that counts something new, not again with its resend, by time of receipt, pruned",
        arguments: Backend.all)
    func clientDrops(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.storeRecordRetentionSeconds = 30 * 86_400
        let store = try await backend.store(configuration)
        func batch(_ ids: [String], dropped: Int) -> PreparedEvents {
            var batch = PreparedEvents(ids.map { event($0, at: "2026-11-20T00:00:00Z") })
            batch.clientDroppedEvents = dropped
            return batch
        }
        _ = try await store.record([batch(["o1"], dropped: 4)], receivedAtMillis: RFC3339.parseMillis("2026-10-01T00:00:00Z")!)
        _ = try await store.record([batch(["a", "b"], dropped: 5), batch(["c"], dropped: 2)], receivedAtMillis: receivedAt)
        // The first batch again, its answer lost: all duplicates, its drops already stored.
        _ = try await store.record([batch(["a", "b"], dropped: 5)], receivedAtMillis: receivedAt + 60_000)
        await #expect(try store.clientDroppedEvents(fromMillis: receivedAt - 3_600_000, toMillis: receivedAt + 3_600_000) == 7)
        await #expect(try store.clientDroppedEvents(fromMillis: receivedAt + 60_000, toMillis: receivedAt + 3_600_000) == 0)
        await #expect(try store.clientDroppedEvents(fromMillis: 0, toMillis: .max / 2) == 11)
        try await store.prune(nowMillis: receivedAt)
        await #expect(try store.clientDroppedEvents(fromMillis: 0, toMillis: .max / 2) == 7)
    }

    @Test("pruning drops notifications, reports and grants past their retention, keeping the rest", arguments: Backend.all)
    func pruned(_ backend: Backend) async throws {
        var configuration = StoreConfiguration.default
        configuration.storeRecordRetentionSeconds = 30 * 86_400
        let store = try await backend.store(configuration)
        _ = try await store.record(
            [
                notification("old", at: "2026-10-01T00:00:00Z", transaction: "t-old"),
                notification("new", at: "2026-11-20T00:00:00Z", transaction: "t-new"),
            ],
            receivedAtMillis: receivedAt)
        var old = event("e-old", at: "2026-10-01T00:00:00Z")
        var new = event("e-new", at: "2026-11-20T00:00:00Z")
        (old.transactionID, new.transactionID) = ("t-old", "t-new")
        _ = try await store.record([old, new], receivedAtMillis: receivedAt)
        try await store.prune(nowMillis: receivedAt)
        await #expect(try store.notifications(kinds: [.charge], fromMillis: 0, toMillis: .max).map(\.notification.notificationID) == ["new"])
        await #expect(
            try store.clientReports([.transactionID("t-old"), .transactionID("t-new")], fromMillis: 0, toMillis: receivedAt).map(\.key)
                == [.transactionID("t-new")])
        // Their grants, and the grants' fingerprints that the repeat audit reads, as well.
        await #expect(try store.grants(fromMillis: 0, toMillis: receivedAt).map(\.eventID) == ["e-new"])
        await #expect(try store.grantFingerprints(fromMillis: 0, toMillis: receivedAt).map(\.millis) == [new.timestampMillis])
    }
}
