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
                    zone.timestamp($0 / .millisPerSecond) + " (after \(NumberText.elapsed(millis: $0 - row.charge.eventMillis)))"
                }
                ?? row.settlement.map { "\($0.kind.rawValue) \(zone.timestamp($0.millis / .millisPerSecond)), never granted" }
                ?? (row.isOwed ? "NOT GRANTED" : row.expectsGrant ? "not yet" : row.refundCause != nil ? "never" : "not expected")
            return [
                zone.timestamp(notification.eventMillis / .millisPerSecond), notification.store.rawValue, row.charge.productID,
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

    /// One JSON object per line, ``ChargeJSON``.
    public static func jsonLines(_ rows: [Row]) -> String {
        rows.map { JSONTextEncoder.text(ChargeJSON($0)) + "\n" }.joined()
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
            let timeToGrant = row.charge.grantedMillis.map { JSONText.number(Double(max(0, $0 - row.charge.eventMillis)) / .millisPerSecond) }
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
        return "\(report.lastResult.rawValue)\(status)\(error) at \(zone.timestamp(report.lastMillis / .millisPerSecond))"
    }
}

/// One charge as `charges --format json` lists it: `{"chargedAt", "store", "environment", "app", "productID",
/// "type", "expectsGrant", "owed"}`, then only what it has: "transactionID"; "price" and "currency";
/// "appAccountToken"; "grantedAt" and "timeToGrantSeconds"; "settlement" `{"kind", "at", "detail"}`; a
/// refund's "cause" and "causedByUs"; "lastReported" `{"resultType", "at", "statusCode", "errorDescription"}`
/// (the last two when known).
public struct ChargeJSON: Encodable, Sendable {
    /// How a charge not granted was settled.
    struct Settlement: Encodable {
        let kind: String
        let at: JSONTime
        let detail: String
    }

    /// What the app last reported of the charge.
    struct LastReported: Encodable {
        let resultType: String
        let at: JSONTime
        let statusCode: JSONOmittedIfAbsent<Int>
        let errorDescription: JSONOmittedIfAbsent<String>
    }

    let chargedAt: JSONTime
    let store: String
    let environment: String
    let app: String
    let productID: String
    let type: String
    let expectsGrant: Bool
    let owed: Bool
    let transactionID: JSONOmittedIfAbsent<String>
    let price: JSONOmittedIfAbsent<Double>
    let currency: JSONOmittedIfAbsent<String>
    let appAccountToken: JSONOmittedIfAbsent<String>
    let grantedAt: JSONOmittedIfAbsent<JSONTime>
    let timeToGrantSeconds: JSONOmittedIfAbsent<Double>
    let settlement: JSONOmittedIfAbsent<Settlement>
    let cause: JSONOmittedIfAbsent<String>
    let causedByUs: JSONOmittedIfAbsent<Bool>
    let lastReported: JSONOmittedIfAbsent<LastReported>

    /// The row's JSON.
    public init(_ row: ChargeListOutput.Row) {
        let notification = row.charge.notification
        let priced = notification.price.flatMap { price in notification.currency.map { (price, $0) } }
        chargedAt = JSONTime(millis: notification.eventMillis)
        store = notification.store.rawValue
        environment = notification.environment
        app = notification.appID
        productID = row.charge.productID
        type = notification.type
        expectsGrant = row.expectsGrant
        owed = row.isOwed
        transactionID = JSONOmittedIfAbsent(notification.transactionID)
        price = JSONOmittedIfAbsent(priced?.0)
        currency = JSONOmittedIfAbsent(priced?.1)
        appAccountToken = JSONOmittedIfAbsent(notification.appAccountToken)
        grantedAt = JSONOmittedIfAbsent(row.charge.grantedMillis.map { JSONTime(millis: $0) })
        timeToGrantSeconds = JSONOmittedIfAbsent(row.charge.grantedMillis.map { Double(max(0, $0 - row.charge.eventMillis)) / .millisPerSecond })
        settlement = JSONOmittedIfAbsent(
            row.settlement.map { Settlement(kind: $0.kind.rawValue, at: JSONTime(millis: $0.millis), detail: $0.detail) })
        cause = JSONOmittedIfAbsent(row.refundCause?.rawValue)
        causedByUs = JSONOmittedIfAbsent(row.refundCause?.isOurs)
        lastReported = JSONOmittedIfAbsent(
            row.charge.report.map { report in
                LastReported(
                    resultType: report.lastResult.rawValue, at: JSONTime(millis: report.lastMillis),
                    statusCode: JSONOmittedIfAbsent(report.lastStatusCode), errorDescription: JSONOmittedIfAbsent(report.lastErrorDescription))
            })
    }
}
