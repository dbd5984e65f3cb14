#if PostgreSQL
import Logging
import NIOCore
import PostgresNIO
import PurchaseSLICore
import PurchaseSLIStorage

extension PostgresConnection {
    /// Settles the app's reports of the minutes from the last settled one (else the oldest stored) to
    /// `before`, a day at a time, as the SQLite store does: each minute's reports cut down to those a stored
    /// notification names within the span its charge reaches; a part left with neither reports nor grants
    /// goes. `client_report_settled` remembers the minute settled up to.
    func settleClientReports(before: Int64, logger: Logger) async throws {
        var from: Int64?
        for try await minute in try await query("SELECT before_minute FROM client_report_settled", logger: logger).decode(Int64.self) {
            from = minute
        }
        if from == nil {
            for try await minute in try await query("SELECT min(minute) FROM client_report_minute", logger: logger).decode(Int64?.self) {
                from = minute
            }
        }
        guard var start = from, start < before else { return }
        while start < before {
            let end = min(before, start + 1440)
            try await settleClientReports(start..<end, logger: logger)
            start = end
        }
        try await run(
            """
            INSERT INTO client_report_settled (id, before_minute) VALUES (0, \(before))
                ON CONFLICT (id) DO UPDATE SET before_minute = excluded.before_minute
            """, logger: logger)
    }

    /// Cuts the reports of `minutes` down to those of the charges stored in the span they reach.
    private func settleClientReports(_ minutes: Range<Int64>, logger: Logger) async throws {
        let span = ClientReport.chargeTimes(reaching: minutes.lowerBound * 60_000..<minutes.upperBound * 60_000)
        var named: [(transactionID: String?, appAccountToken: String?)] = []
        for try await row in try await query(
            """
            SELECT transaction_id, app_account_token FROM store_notification
                WHERE event_millis >= \(span.lowerBound) AND event_millis < \(span.upperBound)
            """, logger: logger
        ).decode((String?, String?).self) { named.append((transactionID: row.0, appAccountToken: row.1)) }
        let kept = ClientReportBlob.hashes(naming: named)
        var updated: [(minute: Int64, part: Int64, reports: ByteBuffer)] = []
        var removed: [(minute: Int64, part: Int64)] = []
        for try await (minute, part, reports, hasGrants) in try await query(
            """
            SELECT minute, part, reports, grants IS NOT NULL FROM client_report_minute
                WHERE minute >= \(minutes.lowerBound) AND minute < \(minutes.upperBound)
            """, logger: logger
        ).decode((Int64, Int64, ByteBuffer, Bool).self) {
            let cut = try decoding(table: "client_report_minute", row: "minute \(minute)") {
                try reports.withUnsafeReadableBytes { try ClientReportBlob.keeping($0, hashes: kept) }
            }
            guard let cut else { continue }
            if cut.count == 0 && !hasGrants { removed.append((minute, part)) } else { updated.append((minute, part, ByteBuffer(bytes: cut.blob))) }
        }
        if !removed.isEmpty {
            try await run(
                """
                DELETE FROM client_report_minute c USING unnest(\(removed.map(\.minute)), \(removed.map(\.part))) AS r(minute, part)
                    WHERE c.minute = r.minute AND c.part = r.part
                """, logger: logger)
        }
        if !updated.isEmpty {
            try await run(
                """
                UPDATE client_report_minute c SET reports = u.reports
                    FROM unnest(\(updated.map(\.minute)), \(updated.map(\.part)), \(updated.map(\.reports))) AS u(minute, part, reports)
                    WHERE c.minute = u.minute AND c.part = u.part
                """, logger: logger)
        }
    }
}
#endif
