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

    /// `{"windows":[…]}`: each window's id, from, to, rrule (null for a one-off), actions (empty: every
    /// action), app (null: every app), reason, source (`policy` or `stored`), created (null for the policy's),
    /// correction (declared after it began), and the occurrences that overlap `[from, to)` when given.
    public static func json(_ windows: [MaintenanceWindow], occurrencesFrom range: Range<Int64>? = nil) -> String {
        "{\"windows\":[" + windows.map { json($0, occurrencesFrom: range) }.joined(separator: ",") + "]}\n"
    }

    /// One window as a JSON object (see ``json(_:occurrencesFrom:)``).
    public static func json(_ window: MaintenanceWindow, occurrencesFrom range: Range<Int64>? = nil) -> String {
        func time(_ seconds: Int64?) -> String { seconds.map { JSONText.quoted(RFC3339.format(seconds: $0)) } ?? "null" }
        var fields = [
            "\"id\":\(JSONText.quoted(window.id))", "\"from\":\(time(window.startSeconds))", "\"to\":\(time(window.endSeconds))",
            "\"rrule\":\(window.recurrence.map { JSONText.quoted($0.description) } ?? "null")",
            "\"actions\":[\(window.actions.map(JSONText.quoted).joined(separator: ","))]",
            "\"app\":\(window.app.isEmpty ? "null" : JSONText.quoted(window.app))", "\"reason\":\(JSONText.quoted(window.reason))",
            "\"source\":\(JSONText.quoted(window.source.rawValue))", "\"created\":\(time(window.createdSeconds))",
            "\"correction\":\(window.isCorrection)",
        ]
        if let range {
            let occurrences = window.occurrences(from: range.lowerBound, to: range.upperBound).map {
                "{\"from\":\(time($0.lowerBound)),\"to\":\(time($0.upperBound))}"
            }
            fields.append("\"occurrences\":[\(occurrences.joined(separator: ","))]")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
