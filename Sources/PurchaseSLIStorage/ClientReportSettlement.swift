import Foundation
import GRDB
import PurchaseSLICore

/// Settling the app's reports in SQLite: past ``StoreConfiguration/reportSettleSeconds`` a report can only
/// meet a charge already stored, so each minute's reports are cut down to those a stored notification
/// names within the span its charge reaches (``ClientReport/chargeTimes(reaching:)``); grants stay.
/// `client_report_settled` remembers the minute settled up to, so each minute is read once.
enum ClientReportSettlement {
    /// Settles the minutes from the last settled one (else the oldest stored) to `before`, a day at a time.
    /// O(reports of those minutes + the notifications their charges span).
    static func settle(before: Int64, in db: Database) throws {
        guard
            let from = try Int64.fetchOne(db, sql: "SELECT before_minute FROM client_report_settled")
                ?? Int64.fetchOne(db, sql: "SELECT min(minute) FROM client_report_minute"),
            from < before
        else { return }
        var start = from
        while start < before {
            let end = min(before, start + 1440)
            try settle(start..<end, in: db)
            start = end
        }
        try db.execute(
            sql:
                "INSERT INTO client_report_settled (id, before_minute) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET before_minute = excluded.before_minute",
            arguments: [before])
    }

    /// Cuts the reports of `minutes` down to those of the charges stored in the span they reach.
    private static func settle(_ minutes: Range<Int64>, in db: Database) throws {
        let span = ClientReport.chargeTimes(reaching: minutes.lowerBound * 60_000..<minutes.upperBound * 60_000)
        let named = try Row.fetchAll(
            db, sql: "SELECT transaction_id, app_account_token FROM store_notification WHERE event_millis >= ? AND event_millis < ?",
            arguments: [span.lowerBound, span.upperBound]
        ).map { (transactionID: $0[0] as String?, appAccountToken: $0[1] as String?) }
        let kept = ClientReportBlob.hashes(naming: named)
        var changed: [(minute: Int64, part: Int64, reports: [UInt8], isEmpty: Bool)] = []
        let select = try RawStatement(
            db, sql: "SELECT minute, part, reports, grants IS NOT NULL FROM client_report_minute WHERE minute >= ? AND minute < ?")
        defer { select.reset() }
        select.bind(minutes.lowerBound, minutes.upperBound)
        while try select.step() {
            let minute = select.int64(0)
            try decoding(table: "client_report_minute", row: "minute \(minute)") {
                if let cut = try ClientReportBlob.keeping(select.blob(2), hashes: kept) {
                    changed.append((minute, select.int64(1), cut.blob, cut.count == 0 && select.int64(3) == 0))
                }
            }
        }
        // A part left with neither reports nor grants goes; the others keep their grants.
        for row in changed {
            if row.isEmpty {
                try db.execute(sql: "DELETE FROM client_report_minute WHERE minute = ? AND part = ?", arguments: [row.minute, row.part])
            } else {
                try db.execute(
                    sql: "UPDATE client_report_minute SET reports = ? WHERE minute = ? AND part = ?",
                    arguments: [Data(row.reports), row.minute, row.part])
            }
        }
    }
}
