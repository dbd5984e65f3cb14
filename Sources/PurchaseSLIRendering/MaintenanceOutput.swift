public import PurchaseSLICore

/// The maintenance windows as `purchase-sli maintenance list` prints them and `GET /v1/maintenance`
/// answers.
public enum MaintenanceOutput {
    /// A table (id, first start, end, repeats, actions, app, reason), or a line saying there is none.
    public static func text(_ windows: [MaintenanceWindow], zone: TimeZoneOffsets = .utc) -> String {
        guard !windows.isEmpty else { return "no maintenance window\n" }
        let rows = windows.map { window in
            [
                window.id, zone.timestamp(window.startSeconds), zone.timestamp(window.endSeconds),
                window.recurrence?.description ?? "once", window.actions.isEmpty ? "every action" : window.actions.joined(separator: ","),
                window.app.isEmpty ? "every app" : window.app, window.reason + (window.isCorrection ? " (correction)" : ""),
            ]
        }
        return TerminalTable.render(header: ["id", "from", "to", "repeats", "actions", "app", "reason"], rows: rows)
    }

    /// `{"windows":[…]}`, each window as ``MaintenanceWindowJSON`` writes it.
    public static func json(_ windows: [MaintenanceWindow], occurrencesFrom range: Range<Int64>? = nil) -> String {
        struct Listing: Encodable { let windows: [MaintenanceWindowJSON] }
        return JSONTextEncoder.text(Listing(windows: windows.map { MaintenanceWindowJSON($0, occurrencesFrom: range) })) + "\n"
    }

    /// One window as ``MaintenanceWindowJSON`` writes it.
    public static func json(_ window: MaintenanceWindow, occurrencesFrom range: Range<Int64>? = nil) -> String {
        JSONTextEncoder.text(MaintenanceWindowJSON(window, occurrencesFrom: range))
    }
}

/// A maintenance window as JSON: its id, from, to, rrule (null for a one-off), actions (empty: every
/// action), app (null: every app), reason, source (`policy` or `stored`), created (null for the policy's),
/// correction (declared after it began), and the occurrences that overlap `[from, to)` when asked.
public struct MaintenanceWindowJSON: Encodable, Sendable {
    /// One occurrence of the window.
    struct Occurrence: Encodable {
        let from: JSONTime
        let to: JSONTime
    }

    let id: String
    let from: JSONTime
    let to: JSONTime
    let rrule: String?
    let actions: [String]
    let app: String?
    let reason: String
    let source: String
    let created: JSONTime?
    let correction: Bool
    let occurrences: JSONOmittedIfAbsent<[Occurrence]>

    /// The window's JSON, with its occurrences in `range` when given.
    public init(_ window: MaintenanceWindow, occurrencesFrom range: Range<Int64>? = nil) {
        id = window.id
        from = JSONTime(window.startSeconds)
        to = JSONTime(window.endSeconds)
        rrule = window.recurrence?.description
        actions = window.actions
        app = window.app.isEmpty ? nil : window.app
        reason = window.reason
        source = window.source.rawValue
        created = .optional(window.createdSeconds)
        correction = window.isCorrection
        occurrences = JSONOmittedIfAbsent(
            range.map { range in
                window.occurrences(from: range.lowerBound, to: range.upperBound).map {
                    Occurrence(from: JSONTime($0.lowerBound), to: JSONTime($0.upperBound))
                }
            })
    }
}
