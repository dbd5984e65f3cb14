public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// Store charges with their grants and what the app reported, for `purchase-sli charges`: a table for
/// a terminal, or JSON lines.
public enum ChargeListOutput {
    /// One charge as listed: the charge, and its state at the listing's time.
    public struct Row: Sendable {
        /// The charge and the app's side of it.
        public var charge: ChargeLedger.Charge
        /// Whether the policy expects a grant for it.
        public var expectsGrant: Bool
        /// Whether it is owed at the listing's time: past its grace time, neither granted nor settled.
        public var isOwed: Bool
        /// What settled it other than a grant by the listing's time (a refund, make-whole, a write-off), or nil.
        public var settlement: ChargeSettlement?
        /// For a refund: what its charge tells of why it came.
        public var refundCause: RefundCause?

        /// Creates a row.
        public init(
            charge: ChargeLedger.Charge, expectsGrant: Bool, isOwed: Bool, settlement: ChargeSettlement? = nil, refundCause: RefundCause? = nil
        ) {
            self.charge = charge
            self.expectsGrant = expectsGrant
            self.isOwed = isOwed
            self.settlement = settlement
            self.refundCause = refundCause
        }
    }

    /// A table: time, store, product, transaction, price, grant, and the app's last report; then, when the
    /// stores' notifications do not cover the whole range listed (`coverage`), what they do cover.
    public static func text(_ rows: [Row], zone: TimeZoneOffsets = .utc, coverage: StoreCoverage? = nil) -> String {
        table(rows, zone: zone) + (coverage.flatMap { StoreCoverageText.line($0, zone: zone) }.map { $0 + "\n" } ?? "")
    }

    /// The table and its count line.
    private static func table(_ rows: [Row], zone: TimeZoneOffsets) -> String {
        guard !rows.isEmpty else { return "no store charges match\n" }
        let causes = rows.contains { $0.refundCause != nil }
        let header = ["time", "store", "product", "transaction", "price", "type", "granted", "the app last reported"] + (causes ? ["cause"] : [])
        let lines = rows.map { row -> [String] in
            let notification = row.charge.notification
            let granted =
                row.charge.grantedMillis.map {
                    zone.timestamp($0 / 1000) + " (after \(NumberText.elapsed(millis: $0 - row.charge.eventMillis)))"
                }
                ?? row.settlement.map { "\($0.kind.rawValue) \(zone.timestamp($0.millis / 1000)), never granted" }
                ?? (row.isOwed ? "NOT GRANTED" : row.expectsGrant ? "not yet" : row.refundCause != nil ? "never" : "not expected")
            return [
                zone.timestamp(notification.eventMillis / 1000), notification.store.rawValue, row.charge.productID,
                notification.transactionID ?? "", notification.price.map { NumberText.money($0, currency: notification.currency ?? "") } ?? "",
                notification.type, granted, report(row.charge.report, zone: zone),
            ] + (causes ? [row.refundCause?.rawValue ?? ""] : [])
        }
        if causes {
            let ours = rows.filter { $0.refundCause?.isOurs == true }.count
            return TerminalTable.render(header: header, rows: lines)
                + "\(rows.count) refund\(rows.count == 1 ? "" : "s"), \(ours) caused by us (never granted, granted after a failure or late)\n"
        }
        let owed = rows.filter(\.isOwed).count
        let settled = rows.filter { $0.charge.grantedMillis == nil && $0.settlement != nil }.count
        return TerminalTable.render(header: header, rows: lines)
            + "\(rows.count) charge\(rows.count == 1 ? "" : "s"), \(owed) owed (not granted past the grace time)"
            + (settled > 0 ? ", \(settled) settled without a grant (refunded, made whole or written off)" : "") + "\n"
    }

    /// One JSON object per line.
    public static func jsonLines(_ rows: [Row]) -> String {
        rows.map { row in
            let notification = row.charge.notification
            var fields = [
                "\"chargedAt\":\"\(RFC3339.format(millis: notification.eventMillis))\"", "\"store\":\"\(notification.store.rawValue)\"",
                "\"environment\":" + JSONText.quoted(notification.environment), "\"app\":" + JSONText.quoted(notification.appID),
                "\"productID\":" + JSONText.quoted(row.charge.productID),
                "\"type\":" + JSONText.quoted(notification.type), "\"expectsGrant\":\(row.expectsGrant)", "\"owed\":\(row.isOwed)",
            ]
            if let id = notification.transactionID { fields.append("\"transactionID\":" + JSONText.quoted(id)) }
            if let price = notification.price, let currency = notification.currency {
                fields.append("\"price\":\(JSONText.number(price)),\"currency\":" + JSONText.quoted(currency))
            }
            if let token = notification.appAccountToken { fields.append("\"appAccountToken\":" + JSONText.quoted(token)) }
            if let granted = row.charge.grantedMillis {
                fields.append("\"grantedAt\":\"\(RFC3339.format(millis: granted))\"")
                fields.append("\"timeToGrantSeconds\":\(JSONText.number(Double(max(0, granted - row.charge.eventMillis)) / 1000))")
            }
            if let settlement = row.settlement {
                fields.append(
                    "\"settlement\":{\"kind\":\"\(settlement.kind.rawValue)\",\"at\":\"\(RFC3339.format(millis: settlement.millis))\",\"detail\":"
                        + JSONText.quoted(settlement.detail) + "}")
            }
            if let cause = row.refundCause { fields.append("\"cause\":\"\(cause.rawValue)\",\"causedByUs\":\(cause.isOurs)") }
            if let report = row.charge.report {
                fields.append(
                    "\"lastReported\":{\"resultType\":\"\(report.lastResult.rawValue)\",\"at\":\"\(RFC3339.format(millis: report.lastMillis))\""
                        + (report.lastStatusCode.map { ",\"statusCode\":\($0)" } ?? "")
                        + (report.lastErrorDescription.map { ",\"errorDescription\":" + JSONText.quoted($0) } ?? "") + "}")
            }
            return "{" + fields.joined(separator: ",") + "}\n"
        }.joined()
    }

    /// The columns of ``csv(_:)``: what a grant server needs to grant a charge (store, transaction, product,
    /// appAccountToken, price), then its state and what the app last reported.
    public static let csvColumns = [
        "store", "transactionID", "productID", "appAccountToken", "price", "currency", "chargedAt", "environment", "app", "type",
        "expectsGrant", "owed", "grantedAt", "lastReported", "lastReportedAt", "timeToGrantSeconds", "refundCause", "settlement", "settledAt",
    ]

    /// A header line of ``csvColumns``, then one line per charge, every cell safe to open in a
    /// spreadsheet (``QueryOutput/csvCell(_:)``): the make-whole list of `charges --ungranted --format csv`.
    public static func csv(_ rows: [Row]) -> String {
        let lines = rows.map { row -> String in
            let notification = row.charge.notification
            let timeToGrant = row.charge.grantedMillis.map { JSONText.number(Double(max(0, $0 - row.charge.eventMillis)) / 1000) }
            let cells: [String] = [
                notification.store.rawValue, notification.transactionID ?? "", row.charge.productID, notification.appAccountToken ?? "",
                notification.price.map(JSONText.number) ?? "", notification.currency ?? "", RFC3339.format(millis: notification.eventMillis),
                notification.environment, notification.appID, notification.type, "\(row.expectsGrant)", "\(row.isOwed)",
                row.charge.grantedMillis.map { RFC3339.format(millis: $0) } ?? "", row.charge.report?.lastResult.rawValue ?? "",
                row.charge.report.map { RFC3339.format(millis: $0.lastMillis) } ?? "",
                timeToGrant ?? "", row.refundCause?.rawValue ?? "", row.settlement?.kind.rawValue ?? "",
                row.settlement.map { RFC3339.format(millis: $0.millis) } ?? "",
            ]
            return cells.map(QueryOutput.csvCell).joined(separator: ",")
        }
        return ([csvColumns.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
    }

    /// "cancel at 2026-11-19T16:00:26Z" or "nothing".
    private static func report(_ report: ClientReport?, zone: TimeZoneOffsets) -> String {
        guard let report else { return "nothing" }
        let status = report.lastStatusCode.map { " (HTTP \($0))" } ?? ""
        let error = report.lastErrorDescription.map { " \"\(String($0.prefix(60)))\"" } ?? ""
        return "\(report.lastResult.rawValue)\(status)\(error) at \(zone.timestamp(report.lastMillis / 1000))"
    }
}
