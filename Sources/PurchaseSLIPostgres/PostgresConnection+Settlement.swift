#if PostgreSQL
import Logging
import NIOCore
import PostgresNIO
import PurchaseSLICore
import PurchaseSLIStorage

extension PostgresConnection {
    /// Settles the app's reports received from the last settled time (else the first receipt) to `before`,
    /// a day of receipts at a time, as the SQLite store does: each part's reports cut down to those a stored
    /// notification names within the span its charge reaches; a part left with neither reports nor grants
    /// goes. `client_report_settled` remembers the receipt time settled up to.
    func settleClientReports(receivedBefore before: Int64, logger: Logger) async throws {
        var from: Int64?
        for try await time in try await query("SELECT received_before FROM client_report_settled", logger: logger).decode(Int64.self) {
            from = time
        }
        if from == nil {
            for try await time in try await query("SELECT min(received) FROM client_report_minute", logger: logger).decode(Int64?.self) {
                from = time
            }
        }
        guard var start = from, start < before else { return }
        while start < before {
            let end = min(before, start + .secondsPerDay)
            try await settleClientReports(received: start..<end, logger: logger)
            start = end
        }
        try await run(
            """
            INSERT INTO client_report_settled (id, received_before) VALUES (0, \(before))
                ON CONFLICT (id) DO UPDATE SET received_before = excluded.received_before
            """, logger: logger)
    }

    /// Cuts the reports of the parts received in `received` down to those of the charges stored in the span
    /// their minutes reach, a day of event time at a time (parts stored before receipt times were kept all
    /// count as received at the upgrade: one receipt day may hold months of them).
    private func settleClientReports(received: Range<Int64>, logger: Logger) async throws {
        var bounds: (Int64, Int64)?
        for try await row in try await query(
            """
            SELECT min(minute), max(minute) FROM client_report_minute
                WHERE received >= \(received.lowerBound) AND received < \(received.upperBound)
            """, logger: logger
        ).decode((Int64?, Int64?).self) {
            if let first = row.0, let last = row.1 { bounds = (first, last) }
        }
        guard let (first, last) = bounds else { return }
        for day in first.floorDividedBy(1440).quotient...last.floorDividedBy(1440).quotient {
            try await settleClientReports(received: received, day: day, logger: logger)
        }
    }

    /// Settles the parts received in `received` whose minutes are of event day `day`.
    private func settleClientReports(received: Range<Int64>, day: Int64, logger: Logger) async throws {
        let span = ClientReport.chargeTimes(reachingDay: day)
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
                WHERE received >= \(received.lowerBound) AND received < \(received.upperBound)
                    AND minute >= \(day * 1440) AND minute < \((day + 1) * 1440)
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
