#if PostgreSQL
import Foundation
import PurchaseSLICore
import PurchaseSLIPostgres
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// What only the PostgreSQL store does: its URL, migrations shared by nodes starting at once, a batch
/// written by two nodes at once, the leader lease. (What every store does is in `Contract/`.)
@Suite struct PostgresURLTests {
    @Test(
        "a URL parses into its parts and prints without its password",
        arguments: [
            (
                "postgres://sli:s3cr%40t@db.internal:6432/purchases?sslmode=verify-full",
                "postgres://sli:***@db.internal:6432/purchases?sslmode=verify-full"
            ),
            ("postgresql://sli:pw@db/", "postgres://sli:***@db:5432/sli"),
            ("Postgres://sli:pw@db/x", "postgres://sli:***@db:5432/x"),
            ("postgres://sli@127.0.0.1/x?sslmode=disable", "postgres://sli@127.0.0.1:5432/x?sslmode=disable"),
        ])
    func parses(_ text: String, _ printed: String) throws {
        #expect(try PostgresURL(text).description == printed)
    }

    @Test(
        "a URL that does not parse is an error naming the problem, never repeating the password",
        arguments: [
            ("postgres://sli:hunter2@/db", "names no host"),
            ("postgres://:hunter2@db/x", "names no user"),
            ("postgres://sli:hunter2@db/x?sslmode=sometimes", "sslmode must be one of"),
            ("postgres://sli:hunter2@db:70000/x", "the port must be from 1 to 65535, got 70000"),
            ("postgres://sli:hunter2@db:0/x", "the port must be from 1 to 65535, got 0"),
            ("postgres://sli:hunter2@db/x?application_name=a", "unknown parameter application_name"),
            // Once printed with the password: a scheme in capitals, a malformed one, libpq's password parameter.
            ("POSTGRES://sli:hunter2@/x", "names no host"),
            ("postgres:/sli:hunter2@db/x", "expected postgres://"),
            ("postgresql:sli:hunter2@db/x", "expected postgres://"),
            ("postgres://sli@db/x?password=hunter2", "unknown parameter password"),
        ])
    func refuses(_ text: String, _ message: String) {
        let error = #expect(throws: PostgresURLError.self) { try PostgresURL(text) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("hunter2") == false)
    }
}

@Suite(.enabled(if: TestPostgres.isEnabled, "set PURCHASE_SLI_TEST_POSTGRES_URL (scripts/test-postgres.sh start DIR prints it)"))
struct PostgresStoreTests {
    @Test("nodes starting at once on a new database migrate it once")
    func concurrentMigrations() async throws {
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        async let first = PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        async let second = PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        let stores = try await [first, second]
        for store in stores {
            await #expect(try store.record([event("a", at: "2026-11-14T09:30:00Z")], receivedAtMillis: receivedAt).accepted <= 1)
        }
        await #expect(
            try stores[1].counts(CountQuery(fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z")))
                .first?.counts.total == 1)
    }

    @Test("the same batch written by two nodes at once counts once, and each node is told which events it counted; the size grows")
    func sameBatchOnTwoNodes() async throws {
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        let first = try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        let second = try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        let sizeBefore = try await first.size()
        let events = mixedEvents(count: 2000)
        for round in 0..<5 {
            let batch = Array(events[(round * 400)..<((round + 1) * 400)])
            async let one = first.record(batch, receivedAtMillis: receivedAt)
            async let other = second.record(batch.reversed(), receivedAtMillis: receivedAt)
            let (a, b) = try await (one, other)
            #expect(a.accepted + b.accepted == 400 && a.duplicates + b.duplicates == 400)
        }
        let reference = InMemoryBucketStore()
        _ = try await reference.record(events, receivedAtMillis: receivedAt)
        let query = CountQuery(
            fromSeconds: seconds("2026-11-13T00:00:00Z"), toSeconds: seconds("2026-11-16T00:00:00Z"), step: TimeStep(seconds: 3600),
            groupBy: [.productID, .resultType])
        await #expect(try first.counts(query) == (try reference.counts(query)))
        // What /metrics reports: the database grew with the rows; PostgreSQL keeps its WAL to itself.
        await #expect(try first.size().databaseBytes > sizeBefore.databaseBytes && sizeBefore.walBytes == nil)
    }

    @Test("three nodes writing new values and series at once: every batch commits (no deadlock, no error lost), counts exact")
    func concurrentAdmissions() async throws {
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        let nodes = try await (0..<3).asyncMap { _ in try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout) }
        var generator = SplitMix(seed: 7)
        // Each round brings plans, versions and errors no node has seen, combined differently per node,
        // so that nodes admit the same new values and series at once, in different orders.
        let rounds = (0..<8).map { round in
            nodes.indices.map { node in
                (0..<150).map { index -> PurchaseEvent in
                    let pick = generator.next()
                    return event(
                        "r\(round)-n\(node)-\(index)", at: RFC3339.format(seconds: seconds("2026-11-14T08:00:00Z") + Int64(index * 60)),
                        product: ["coins_100", "premium"][Int(pick % 2)], plan: "plan-\(round)-\((pick >> 4) % 12)",
                        version: "5.\(round).\((pick >> 12) % 6)", error: pick % 3 == 0 ? "error \(round)-\((pick >> 20) % 9)" : nil)
                }
            }
        }
        for batches in rounds {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (node, batch) in zip(nodes, batches) {
                    group.addTask { try await node.record(batch, receivedAtMillis: receivedAt).accepted }
                }
                for try await accepted in group { #expect(accepted == 150) }
            }
        }
        let reference = InMemoryBucketStore()
        _ = try await reference.record(rounds.flatMap { $0.flatMap { $0 } }, receivedAtMillis: receivedAt)
        let query = CountQuery(
            fromSeconds: seconds("2026-11-14T00:00:00Z"), toSeconds: seconds("2026-11-15T00:00:00Z"), groupBy: [.planID, .appVersion, .resultType])
        await #expect(try nodes[0].counts(query) == (try reference.counts(query)))
    }

    /// The series cap's budgets are read from a count per day and app: the migration that keeps them
    /// (15) counts what each app admitted before it, so that an app at its cap stays full.
    @Test("an upgrade to the series counts per app (migration 15) counts each app's series admitted before it")
    func admittedSeriesCountsFromBefore() async throws {
        let text = try await TestPostgres.newDatabase()
        let url = try PostgresURL(text)
        var configuration = StoreConfiguration.default
        configuration.seriesCap = 2
        func purchases(_ app: String, plans: Range<Int>) -> [PurchaseEvent] {
            plans.map { event("\(app)-\($0)", at: "2026-11-14T09:30:00Z", plan: "plan-\($0)", app: app) }
        }
        let before = try await PostgresBucketStore(url: url, configuration: configuration, timeout: TestPostgres.callTimeout)
        await #expect(try before.record(purchases("a", plans: 0..<2) + purchases("b", plans: 0..<1), receivedAtMillis: receivedAt).overflowed.isEmpty)
        // The database as it was before migration 15.
        try await TestPostgres.run(["DROP TABLE admitted_series_count", "DELETE FROM purchase_sli_migration WHERE version = 15"], in: text)
        let after = try await PostgresBucketStore(url: url, configuration: configuration, timeout: TestPostgres.callTimeout)
        let outcome = try await after.record(purchases("a", plans: 2..<3) + purchases("b", plans: 1..<3), receivedAtMillis: receivedAt)
        #expect(outcome.overflowedByApp == ["a": ["series": 1], "b": ["series": 1]], "a was full; b had one place left")
    }

    @Test("a database holding other tables is refused, naming them")
    func foreignDatabase() async throws {
        // A database of another program: a table of its own and no purchase-sli migrations table.
        let text = try await TestPostgres.newDatabase(creating: "CREATE TABLE invoices (id integer)")
        let other = try PostgresURL(text)
        let error = await #expect(throws: StorageError.self) { try await PostgresBucketStore(url: other, timeout: TestPostgres.callTimeout) }
        #expect(error?.description.contains("is not a purchase-sli database") == true)
        #expect(error?.description.contains("invoices") == true)
        #expect(error?.description.contains(URLComponents(string: text)!.password!) == false)
    }

    @Test("one lease leads at a time; when its holder gives it up the other takes it")
    func leaderLease() async throws {
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        _ = try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        let first = PostgresLeaderLease(url: url, logger: .init(label: "first"))
        let second = PostgresLeaderLease(url: url, logger: .init(label: "second"))
        #expect(await first.isLeader())
        #expect(await !second.isLeader())
        #expect(await first.isLeader(), "a leader stays the leader")
        await first.release()
        #expect(await second.isLeader())
        #expect(await !first.isLeader())
        // (A lease's connection must be closed before the lease goes: serve releases it when it stops.)
        await first.release()
        await second.release()
    }

    /// serve's services ask at once when it starts: one session takes the lock and every one of them hears
    /// that this node leads, at once and at the next round (each asking alone had opened a connection,
    /// and the node held the lock on a dropped one and never led).
    @Test("services asking at once all hear that the node leads, and keep leading")
    func leaseAskedAtOnce() async throws {
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        _ = try await PostgresBucketStore(url: url, timeout: TestPostgres.callTimeout)
        let lease = PostgresLeaderLease(url: url, logger: .init(label: "serve"))
        for round in 0..<3 {
            let answers = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 { group.addTask { await lease.isLeader() } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(answers == Array(repeating: true, count: 6), "round \(round): \(answers)")
        }
        let other = PostgresLeaderLease(url: url, logger: .init(label: "other node"))
        #expect(await !other.isLeader())
        await lease.release()
        #expect(await other.isLeader(), "the lock was held by the released session, no other")
        await other.release()
    }
}
#endif
