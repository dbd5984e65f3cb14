import Foundation
import GRDB
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Grants stored before ids were written compactly (each id as its length and bytes), and before their
/// fingerprints were kept apart (migration `v14-grant-fingerprints`), read as they did.
@Suite struct GrantBlobCompatibilityTests {
    @Test func grantsWrittenWithIDsInFullStillRead() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: "v13-report-settlement")
        let minute = RFC3339.parseMillis("2026-11-20T10:00:00Z")! / 60_000
        func inline(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }
        // Strings "coins_100" and "purchase"; one grant 250 ms into the minute: event id, transaction id in full,
        // product 0, no plan, action 1, no version, platform, app or currency, no price.
        let strings: [UInt8] = [2] + inline("coins_100") + inline("purchase")
        let record: [UInt8] =
            [0xFA, 0x01] + inline("9b825964-86ce-4385-952b-015481e15515") + inline("2036651470292976") + [0, 0, 1, 0, 0, 0, 0, 0]
        // The next minute, one with a UUID transaction id in full (upper case).
        let uuidRecord: [UInt8] = [0x0A] + inline("e-old-2") + inline("9B825964-86CE-4385-952B-015481E15515") + [0, 0, 1, 0, 0, 0, 0, 0]
        try await old.write { db in
            for (row, bytes) in [(minute, strings + [1] + record), (minute + 1, strings + [1] + uuidRecord)] {
                try db.execute(
                    sql: "INSERT INTO client_report_minute (minute, part, reports, grants, received) VALUES (?, 0, ?, ?, ?)",
                    arguments: [row, Data([0, 0]), Data(bytes), row * 60])
            }
        }
        try old.close()
        let store = try SQLiteBucketStore(path: path)
        let grants = try await store.grants(fromMillis: minute * 60_000, toMillis: (minute + 1) * 60_000)
        #expect(grants.map(\.eventID) == ["9b825964-86ce-4385-952b-015481e15515"])
        #expect(grants.map(\.transactionID) == ["2036651470292976"])
        #expect(grants.map(\.millis) == [minute * 60_000 + 250])
        #expect(grants.map(\.productID) == ["coins_100"] && grants.map(\.actionType) == [.purchase])
        // Found by its transaction too, though written in full rather than as a number.
        let named = try await store.grants(fromMillis: minute * 60_000, toMillis: (minute + 1) * 60_000, of: .transactions(["2036651470292976"]))
        #expect(named.map(\.eventID) == ["9b825964-86ce-4385-952b-015481e15515"])
        // Each id's fingerprint is that of the same id written now (a number, a UUID's 16 bytes): a repeat
        // across the two is found. The new grants are a second part of a minute the migration filled.
        let again = ["2036651470292976", "9B825964-86CE-4385-952B-015481E15515"].enumerated().map { index, transaction in
            var event = PurchaseEvent(
                eventID: "e-new-\(index)", timestampMillis: (minute + 1) * 60_000 + 20_000 + Int64(index), productID: "coins_100", planID: nil,
                actionType: .purchase, resultType: .success, statusCode: 200, appVersion: nil)
            event.transactionID = transaction
            return event
        }
        _ = try await store.record(again, receivedAtMillis: (minute + 3) * 60_000)
        let fingerprints = try await store.grantFingerprints(fromMillis: minute * 60_000, toMillis: (minute + 3) * 60_000).sorted {
            $0.millis < $1.millis
        }
        #expect(
            fingerprints.map(\.transaction) == [fingerprints[0].transaction, fingerprints[1].transaction] + fingerprints.prefix(2).map(\.transaction))
        #expect(fingerprints[0].transaction != fingerprints[1].transaction)
        for (fingerprint, events) in zip(fingerprints.prefix(2), [["9b825964-86ce-4385-952b-015481e15515", "e-new-0"], ["e-old-2", "e-new-1"]]) {
            let found = try await store.grants(
                fromMillis: minute * 60_000, toMillis: (minute + 3) * 60_000, of: .fingerprints([fingerprint.transaction]))
            #expect(found.map(\.eventID) == events)
        }
    }
}
