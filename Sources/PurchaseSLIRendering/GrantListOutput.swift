public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The app's grants with the charges behind them, for `purchase-sli grants`: a table for a terminal,
/// JSON lines, or CSV.
public enum GrantListOutput {
    /// A table: time, store, product, transaction, action, app version, price, the charge, and what is wrong;
    /// then, when the stores' notifications do not cover the whole range listed (`coverage`), what they do cover.
    public static func text(_ rows: [GrantListRow], zone: TimeZoneOffsets = .utc, coverage: StoreCoverage? = nil) -> String {
        table(rows, zone: zone) + (coverage.flatMap { StoreCoverageText.line($0, zone: zone) }.map { $0 + "\n" } ?? "")
    }

    /// The table and its count line.
    private static func table(_ rows: [GrantListRow], zone: TimeZoneOffsets) -> String {
        guard !rows.isEmpty else { return "no grants match\n" }
        let header = ["time", "store", "product", "transaction", "action", "app version", "price", "charged", "problem"]
        let lines = rows.map { row -> [String] in
            let record = row.grant.record
            return [
                zone.timestamp(record.millis / .millisPerSecond), row.grant.store?.rawValue ?? "?", record.productID, record.transactionID,
                record.actionType.rawValue, record.appVersion ?? "", row.worth.map { NumberText.money($0.amount, currency: $0.currency) } ?? "",
                row.grant.charge.map { zone.timestamp($0.notification.eventMillis / .millisPerSecond) } ?? "not notified", problem(row, zone: zone),
            ]
        }
        let repeats = rows.filter { $0.repeatOf != nil }.count
        let uncharged = rows.filter(\.isWithoutCharge).count
        return TerminalTable.render(header: header, rows: lines)
            + "\(rows.count) grant\(rows.count == 1 ? "" : "s"): \(repeats) granted again, \(uncharged) without a charge\n"
    }

    /// "granted again (first 2026-11-19T16:03:44Z, event e-1)", "without a charge", or "".
    private static func problem(_ row: GrantListRow, zone: TimeZoneOffsets) -> String {
        if let first = row.repeatOf {
            let product = first.productID == row.grant.record.productID ? "" : " as \(first.productID)"
            return "granted again (first \(zone.timestamp(first.millis / .millisPerSecond))\(product), event \(first.eventID))"
        }
        return row.isWithoutCharge ? "without a charge" : ""
    }

    /// One JSON object per line, ``GrantJSON``.
    public static func jsonLines(_ rows: [GrantListRow]) -> String {
        rows.map { JSONTextEncoder.text(GrantJSON($0)) + "\n" }.joined()
    }

    /// The columns of ``csv(_:)``.
    public static let csvColumns = [
        "grantedAt", "store", "transactionID", "productID", "eventID", "actionType", "appVersion", "app", "price", "currency", "chargedAt",
        "grantedBefore", "grantedBeforeEventID", "withoutCharge",
    ]

    /// A header line of ``csvColumns``, then one line per grant, every cell safe to open in a spreadsheet.
    public static func csv(_ rows: [GrantListRow]) -> String {
        let lines = rows.map { row -> String in
            let record = row.grant.record
            let worth = row.worth
            var cells: [String] = [RFC3339.format(millis: record.millis), row.grant.store?.rawValue ?? "", record.transactionID, record.productID]
            cells += [record.eventID, record.actionType.rawValue, record.appVersion ?? "", record.app ?? ""]
            cells += [worth.map { JSONText.number($0.amount) } ?? "", worth?.currency ?? ""]
            cells.append(row.grant.charge.map { RFC3339.format(millis: $0.notification.eventMillis) } ?? "")
            cells += [row.repeatOf.map { RFC3339.format(millis: $0.millis) } ?? "", row.repeatOf?.eventID ?? "", "\(row.isWithoutCharge)"]
            return cells.map(QueryOutput.csvCell).joined(separator: ",")
        }
        return ([csvColumns.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
    }
}

/// One grant as `grants --format json` lists it: `{"grantedAt", "eventID", "transactionID", "productID",
/// "actionType"}`, then only what it has: "store", "appVersion", "app", "price" and "currency",
/// "chargedAt", "grantedBefore" `{"at", "eventID", "productID"}`; and "withoutCharge".
public struct GrantJSON: Encodable, Sendable {
    /// The first grant of the same transaction.
    struct GrantedBefore: Encodable {
        let at: JSONTime
        let eventID: String
        let productID: String
    }

    let grantedAt: JSONTime
    let eventID: String
    let transactionID: String
    let productID: String
    let actionType: String
    let store: JSONOmittedIfAbsent<String>
    let appVersion: JSONOmittedIfAbsent<String>
    let app: JSONOmittedIfAbsent<String>
    let price: JSONOmittedIfAbsent<Double>
    let currency: JSONOmittedIfAbsent<String>
    let chargedAt: JSONOmittedIfAbsent<JSONTime>
    let grantedBefore: JSONOmittedIfAbsent<GrantedBefore>
    let withoutCharge: Bool

    /// The row's JSON.
    public init(_ row: GrantListRow) {
        let record = row.grant.record
        grantedAt = JSONTime(millis: record.millis)
        eventID = record.eventID
        transactionID = record.transactionID
        productID = record.productID
        actionType = record.actionType.rawValue
        store = JSONOmittedIfAbsent(row.grant.store?.rawValue)
        appVersion = JSONOmittedIfAbsent(record.appVersion)
        app = JSONOmittedIfAbsent(record.app)
        price = JSONOmittedIfAbsent(row.worth?.amount)
        currency = JSONOmittedIfAbsent(row.worth?.currency)
        chargedAt = JSONOmittedIfAbsent(row.grant.charge.map { JSONTime(millis: $0.notification.eventMillis) })
        grantedBefore = JSONOmittedIfAbsent(
            row.repeatOf.map { GrantedBefore(at: JSONTime(millis: $0.millis), eventID: $0.eventID, productID: $0.productID) })
        withoutCharge = row.isWithoutCharge
    }
}
