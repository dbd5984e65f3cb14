public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// Incidents' records as `purchase-sli incidents` lists them and `GET /v1/incidents` answers: a table for
/// a terminal, CSV of the table's columns, or JSON, the command's and the route's from one encoder
/// (``json(_:from:to:statuses:app:)``).
public enum IncidentListOutput {
    /// A table (id, status, severity, start, end, actions and products, cost, owed, acknowledged) and a
    /// count line; or, without records, a line saying none is kept in `[from, to)` and how to take them
    /// from the events.
    public static func text(
        _ records: [IncidentRecord], from: Int64, to: Int64, statuses: Set<IncidentRecord.Status>?, zone: TimeZoneOffsets = .utc
    ) -> String {
        guard !records.isEmpty else {
            let which = statuses.map { " " + Self.names($0).joined(separator: " or ") } ?? ""
            return "no\(which) incident records kept from \(zone.timestamp(from)) to \(zone.timestamp(to)); "
                + "run it with --rebuild to take them from the events (the alerts evaluated each minute from --from to --at)\n"
        }
        let header = ["id", "status", "severity", "start", "end", "actions and products", "cost", "owed", "acknowledged"]
        let rows = records.map { record in
            [
                record.id, record.status.rawValue, severity(record, zone: zone), zone.timestamp(record.startsAt),
                record.endsAt.map(zone.timestamp) ?? "firing", scope(record), cost(record, zone: zone), owed(record) ?? "–",
                record.acknowledgement?.owner ?? "–",
            ]
        }
        let counts = IncidentRecord.Status.allCases.compactMap { status -> String? in
            let count = records.filter { $0.status == status }.count
            return count == 0 ? nil : "\(count) \(status.rawValue)"
        }
        return TerminalTable.render(header: header, rows: rows)
            + "\(records.count) incident\(records.count == 1 ? "" : "s"): \(counts.joined(separator: ", "))\n"
    }

    /// What `incidents acknowledge` prints: who took the incident on, when and saying what, then its row.
    public static func acknowledged(_ record: IncidentRecord, zone: TimeZoneOffsets = .utc) -> String {
        guard let acknowledgement = record.acknowledgement else {
            return text([record], from: record.startsAt, to: record.startsAt + .secondsPerMinute, statuses: nil, zone: zone)
        }
        let note = acknowledgement.note.isEmpty ? "" : ": \"\(TerminalText.sanitized(acknowledgement.note))\""
        return
            "\(record.id) acknowledged by \(TerminalText.sanitized(acknowledgement.owner)) at \(zone.timestamp(acknowledgement.atSeconds))\(note)\n"
            + text([record], from: record.startsAt, to: record.startsAt + .secondsPerMinute, statuses: nil, zone: zone)
    }

    /// The columns of ``csv(_:)``: the table's, flat (times RFC 3339 UTC, amounts per currency as
    /// `74.85 USD`, several joined by ` + `).
    public static let csvColumns = [
        "id", "app", "status", "severity", "pagedAt", "startsAt", "endsAt", "actions", "products", "cost", "owedCharges", "owedWorth",
        "acknowledgedBy", "acknowledgedAt",
    ]

    /// A header line of ``csvColumns``, then one line per record, every cell safe to open in a spreadsheet
    /// (``QueryOutput/csvCell(_:)``).
    public static func csv(_ records: [IncidentRecord]) -> String {
        let lines = records.map { record -> String in
            let cells: [String] = [
                record.id, record.app ?? "", record.status.rawValue, record.peakSeverity.rawValue,
                record.firstPageSeconds.map { RFC3339.format(seconds: $0) } ?? "", RFC3339.format(seconds: record.startsAt),
                record.endsAt.map { RFC3339.format(seconds: $0) } ?? "", record.actions.joined(separator: " "),
                record.products.joined(separator: " "), record.cost.isEmpty ? "" : record.cost.summary().rendered(.terminal),
                record.owed.map { "\($0.count)" } ?? "", record.owed.flatMap { AlertText.amounts($0.worth)?.rendered(.terminal) } ?? "",
                record.acknowledgement?.owner ?? "", record.acknowledgement.map { RFC3339.format(seconds: $0.atSeconds) } ?? "",
            ]
            return cells.map(QueryOutput.csvCell).joined(separator: ",")
        }
        return ([csvColumns.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
    }

    /// `{"from", "to", "app", "statuses", "incidents": [RECORD, …]}`: the range asked (RFC 3339 UTC), the
    /// app (null: every app), the statuses asked (null: every one), and each record as
    /// ``IncidentJSON`` writes it, by start.
    public static func json(_ records: [IncidentRecord], from: Int64, to: Int64, statuses: Set<IncidentRecord.Status>?, app: String?) -> String {
        struct Listing: Encodable {
            let from: JSONTime
            let to: JSONTime
            let app: String?
            let statuses: [String]?
            let incidents: [IncidentJSON]
        }
        let listing = Listing(
            from: JSONTime(from), to: JSONTime(to), app: app, statuses: statuses.map(names), incidents: records.map(IncidentJSON.init))
        return JSONTextEncoder.text(listing) + "\n"
    }

    /// One record as ``IncidentJSON`` writes it.
    public static func json(_ record: IncidentRecord) -> String { JSONTextEncoder.text(IncidentJSON(record)) }

    /// "PAGE, paged 2026-10-25T16:30:00Z" or "TICKET".
    private static func severity(_ record: IncidentRecord, zone: TimeZoneOffsets) -> String {
        record.peakSeverity.rawValue.uppercased() + (record.firstPageSeconds.map { ", paged \(zone.timestamp($0))" } ?? "")
    }

    /// "purchase: coins_500, premium_monthly", or the actions alone when its alerts named no product.
    private static func scope(_ record: IncidentRecord) -> String {
        record.actions.joined(separator: ", ") + (record.products.isEmpty ? "" : ": " + record.products.joined(separator: ", "))
    }

    /// The cost's summary, or "no estimate" when nothing could be counted.
    private static func cost(_ record: IncidentRecord, zone: TimeZoneOffsets) -> String {
        record.cost.isEmpty ? "no estimate" : record.cost.summary().rendered(.terminal, zone: zone)
    }

    /// "15 charges, 74.85 USD", "none" when it is about charges and nothing is owed, nil when it is not.
    private static func owed(_ record: IncidentRecord) -> String? {
        guard let owed = record.owed else { return nil }
        guard owed.count > 0 else { return "none" }
        return "\(owed.count) charge\(owed.count == 1 ? "" : "s")" + (AlertText.amounts(owed.worth).map { ", " + $0.rendered(.terminal) } ?? "")
    }

    /// The names of `statuses`, in the order open, resolved, settled.
    private static func names(_ statuses: Set<IncidentRecord.Status>) -> [String] {
        IncidentRecord.Status.allCases.filter(statuses.contains).map(\.rawValue)
    }
}

/// One incident's record as JSON, times RFC 3339 UTC, amounts per currency:
/// `{"id", "app", "status", "severity", "pagedAt", "firstBadMinute", "startsAt", "endsAt", "readAt",
/// "actions", "products", "cost", "losses", "owed", "acknowledgement", "alerts"}`. `severity` is the
/// highest any alert reached, `pagedAt` when it first paged (null: never); `endsAt` is null while an
/// alert fires; `cost` is ``AlertCostJSON``; `losses` sums when each loss happened (`{"worth",
/// "lostSuccesses", "unpriced", "counted"}`: money per currency, successes lost, those of no known price,
/// charges, refunds and grants counted in full); `owed` is `{"count", "worth"}` of the charges still owed
/// (null when it is not about charges); `acknowledgement` is `{"owner", "note", "at"}` or null; each alert
/// is `{"kind", "labels", "startsAt", "endsAt", "severityChanges": [{"at", "severity"}]}`.
public struct IncidentJSON: Encodable, Sendable {
    /// What the incident's losses add up to.
    struct Losses: Encodable {
        let worth: JSONMembers<Double>
        let lostSuccesses: Double
        let unpriced: Double
        let counted: Int
    }

    /// One alert of the incident.
    struct Alert: Encodable {
        struct SeverityChange: Encodable {
            let at: JSONTime
            let severity: String
        }

        let kind: String
        let labels: JSONMembers<String>
        let startsAt: JSONTime
        let endsAt: JSONTime?
        let severityChanges: [SeverityChange]
    }

    let id: String
    let app: String?
    let status: String
    let severity: String
    let pagedAt: JSONTime?
    let firstBadMinute: JSONTime
    let startsAt: JSONTime
    let endsAt: JSONTime?
    let readAt: JSONTime
    let actions: [String]
    let products: [String]
    let cost: AlertCostJSON
    let losses: Losses
    let owed: ChargeTallyJSON?
    let acknowledgement: IncidentAcknowledgementJSON?
    let alerts: [Alert]

    /// The record's JSON.
    public init(_ record: IncidentRecord) {
        let losses = record.losses.total
        id = record.id
        app = record.app
        status = record.status.rawValue
        severity = record.peakSeverity.rawValue
        pagedAt = .optional(record.firstPageSeconds)
        firstBadMinute = JSONTime(record.firstBadSeconds)
        startsAt = JSONTime(record.startsAt)
        endsAt = .optional(record.endsAt)
        readAt = JSONTime(record.readAtSeconds)
        actions = record.actions
        products = record.products
        cost = AlertCostJSON(record.cost, isOver: record.endsAt != nil)
        self.losses = Losses(
            worth: .worth(losses.worth), lostSuccesses: (losses.lostSuccesses * 10).rounded() / 10,
            unpriced: (losses.unpriced * 10).rounded() / 10, counted: losses.counted)
        owed = record.owed.map(ChargeTallyJSON.init)
        acknowledgement = record.acknowledgement.map(IncidentAcknowledgementJSON.init)
        alerts = record.alerts.map { alert in
            Alert(
                kind: alert.kind.rawValue, labels: JSONMembers(alert.labels.pairs), startsAt: JSONTime(alert.startsAt),
                endsAt: .optional(alert.endsAt),
                severityChanges: alert.severityChanges.map { Alert.SeverityChange(at: JSONTime($0.atSeconds), severity: $0.severity.rawValue) })
        }
    }
}

/// `{"owner", "note", "at"}`: who took an incident on, saying what, and when (RFC 3339 UTC).
public struct IncidentAcknowledgementJSON: Encodable, Sendable {
    let owner: String
    let note: String
    let at: JSONTime

    /// The acknowledgement's JSON.
    public init(_ acknowledgement: IncidentAcknowledgement) {
        owner = acknowledgement.owner
        note = acknowledgement.note
        at = JSONTime(acknowledgement.atSeconds)
    }
}
