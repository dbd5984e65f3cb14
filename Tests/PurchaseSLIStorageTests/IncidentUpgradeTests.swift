import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Incidents kept before their repository was written once (SQLite's `start`/`end` columns) read back
/// whole after `v19-incidents-as-postgres`, acknowledgements and open spans included, and are still found
/// by their span.
@Suite struct IncidentUpgradeTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("a SQLite database of v18 keeps its incidents through v19")
    func sqlite() async throws {
        let path = directory.file("db.sqlite")
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v18-maintenance-as-postgres")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO incident (app, id, start, end, status, read_at, document, ack_owner, ack_note, ack_at) VALUES
                        ('', '20261120-0000-9c1f2e', 1795132800, 1795201260, 'resolved', 1795219200, '{"usd":99.8}', 'Ana', 'by hand', 1795137000),
                        ('com.example.coins', '20261121-0630-1a2b3c', 1795242600, NULL, 'open', 1795250000, '{}', NULL, NULL, NULL)
                    """)
        }
        try queue.close()
        let incidents = IncidentRepository(try SQLiteBucketStore(path: path).sql)
        let expected = [
            StoredIncident(
                app: "", id: "20261120-0000-9c1f2e", startSeconds: 1_795_132_800, endSeconds: 1_795_201_260, status: "resolved",
                readAtSeconds: 1_795_219_200, document: #"{"usd":99.8}"#,
                acknowledgement: IncidentAcknowledgement(owner: "Ana", note: "by hand", atSeconds: 1_795_137_000)),
            StoredIncident(
                app: "com.example.coins", id: "20261121-0630-1a2b3c", startSeconds: 1_795_242_600, endSeconds: nil, status: "open",
                readAtSeconds: 1_795_250_000, document: "{}"),
        ]
        #expect(try await incidents.incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil) == expected)
        // The span reads as before: the resolved one ended before the open one started.
        #expect(try await incidents.incidents(app: nil, fromSeconds: 1_795_242_600, toSeconds: .max, statuses: nil) == [expected[1]])
    }
}
