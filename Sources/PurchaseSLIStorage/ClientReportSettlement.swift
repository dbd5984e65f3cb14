import GRDB
import PurchaseSLICore

/// Settling the app's reports in SQLite: 9 days after a part was received (and so after its events
/// happened, ``ClientReport/settleAfterMillis``) its reports can only meet a charge already stored, so they
/// are cut down to those a stored notification names within the span its charge reaches
/// (``ClientReport/chargeTimes(reaching:)``); grants stay. `client_report_settled` remembers the receipt time
/// settled up to, so each part is read once.
enum ClientReportSettlement {
    /// Settles the parts received from the last settled time (else the first receipt) to `before`, a day of
    /// receipts at a time. O(reports of those parts + the notifications their charges span).
    static func settle(receivedBefore before: Int64, in db: Database) throws {
        guard
            let from = try Int64.fetchOne(db, sql: "SELECT received_before FROM client_report_settled")
                ?? Int64.fetchOne(db, sql: "SELECT min(received) FROM client_report_minute"),
            from < before
        else { return }
        var start = from
        while start < before {
            let end = min(before, start + .secondsPerDay)
            try settle(received: start..<end, in: db)
            start = end
        }
        try db.execute(
            sql: """
                INSERT INTO client_report_settled (id, received_before) VALUES (0, ?)
                    ON CONFLICT (id) DO UPDATE SET received_before = excluded.received_before
                """,
            arguments: [before])
    }

    /// Cuts the reports of the parts received in `received` down to those of the charges stored in the span
    /// their minutes reach, a day of event time at a time (parts stored before receipt times were kept all
    /// count as received at the upgrade: one receipt day may hold months of them).
    private static func settle(received: Range<Int64>, in db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT min(minute), max(minute) FROM client_report_minute WHERE received >= ? AND received < ?",
                arguments: [received.lowerBound, received.upperBound]),
            let first: Int64 = row[0], let last: Int64 = row[1]
        else { return }
        for day in first.floorDividedBy(1440).quotient...last.floorDividedBy(1440).quotient {
            try settle(received: received, day: day, in: db)
        }
    }

    /// Settles the parts received in `received` whose minutes are of event day `day`; a part left with neither
    /// reports nor grants goes.
    private static func settle(received: Range<Int64>, day: Int64, in db: Database) throws {
        let span = ClientReport.chargeTimes(reachingDay: day)
        let named = try Row.fetchAll(
            db, sql: "SELECT transaction_id, app_account_token FROM store_notification WHERE event_millis >= ? AND event_millis < ?",
            arguments: [span.lowerBound, span.upperBound]
        ).map { (transactionID: $0[0] as String?, appAccountToken: $0[1] as String?) }
        let kept = ClientReportBlob.hashes(naming: named)
        var changed: [(row: ClientReportMinute, part: Int64)] = []
        let select = try RawStatement(
            db,
            sql: """
                SELECT minute, part, reports, grants, received FROM client_report_minute
                    WHERE received >= ? AND received < ? AND minute >= ? AND minute < ?
                """)
        defer { select.reset() }
        select.bind(received.lowerBound, received.upperBound, day * 1440, (day + 1) * 1440)
        while try select.step() {
            let minute = select.int64(0)
            try decoding(table: "client_report_minute", row: "minute \(minute)") {
                guard let cut = try ClientReportBlob.keeping(select.blob(2), hashes: kept) else { return }
                let grants = select.isNull(3) ? nil : Array(select.blob(3))
                let reports = cut.count == 0 && grants == nil ? [] : cut.blob
                changed.append(
                    (ClientReportMinute(minute: minute, reports: reports, grants: grants, receivedSeconds: select.int64(4)), select.int64(1)))
            }
        }
        // A part is written again rather than shrunk in place: at the table's end, the parts settled together
        // share pages, and the pages they leave are reused.
        let insert = try RawStatement(
            db, sql: "INSERT INTO client_report_minute (minute, part, reports, grants, received) VALUES (?, ?, ?, ?, ?)")
        for (row, part) in changed {
            try db.execute(sql: "DELETE FROM client_report_minute WHERE minute = ? AND part = ?", arguments: [row.minute, part])
            guard !row.reports.isEmpty else { continue }
            insert.bind(row.minute, at: 1)
            insert.bind(part, at: 2)
            insert.bind(copying: row.reports, at: 3)
            if let grants = row.grants { insert.bind(copying: grants, at: 4) } else { insert.bindNull(at: 4) }
            insert.bind(row.receivedSeconds, at: 5)
            try insert.run()
        }
    }
}
