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
                zone.timestamp(record.millis / 1000), row.grant.store?.rawValue ?? "?", record.productID, record.transactionID,
                record.actionType.rawValue, record.appVersion ?? "", row.worth.map { NumberText.money($0.amount, currency: $0.currency) } ?? "",
                row.grant.charge.map { zone.timestamp($0.notification.eventMillis / 1000) } ?? "not notified", problem(row, zone: zone),
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
            return "granted again (first \(zone.timestamp(first.millis / 1000))\(product), event \(first.eventID))"
        }
        return row.isWithoutCharge ? "without a charge" : ""
    }

    /// One JSON object per line.
    public static func jsonLines(_ rows: [GrantListRow]) -> String {
        rows.map { row in
            let record = row.grant.record
            var fields = [
                "\"grantedAt\":\"\(RFC3339.format(millis: record.millis))\"", "\"eventID\":" + JSONText.quoted(record.eventID),
                "\"transactionID\":" + JSONText.quoted(record.transactionID), "\"productID\":" + JSONText.quoted(record.productID),
                "\"actionType\":" + JSONText.quoted(record.actionType.rawValue),
            ]
            if let store = row.grant.store { fields.append("\"store\":\"\(store.rawValue)\"") }
            if let version = record.appVersion { fields.append("\"appVersion\":" + JSONText.quoted(version)) }
            if let app = record.app { fields.append("\"app\":" + JSONText.quoted(app)) }
            if let worth = row.worth {
                fields.append("\"price\":\(JSONText.number(worth.amount)),\"currency\":" + JSONText.quoted(worth.currency))
            }
            if let charge = row.grant.charge { fields.append("\"chargedAt\":\"\(RFC3339.format(millis: charge.notification.eventMillis))\"") }
            if let first = row.repeatOf {
                fields.append(
                    "\"grantedBefore\":{\"at\":\"\(RFC3339.format(millis: first.millis))\",\"eventID\":" + JSONText.quoted(first.eventID)
                        + ",\"productID\":" + JSONText.quoted(first.productID) + "}")
            }
            fields.append("\"withoutCharge\":\(row.isWithoutCharge)")
            return "{" + fields.joined(separator: ",") + "}\n"
        }.joined()
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
