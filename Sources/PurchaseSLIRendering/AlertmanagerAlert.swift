import PurchaseSLICore

/// One alert of Alertmanager's v2 API (`POST /api/v2/alerts`): `{"labels", "annotations": {"summary",
/// "description", "runbook_url", "cost"}, "startsAt", "endsAt", "generatorURL"}`, the annotations'
/// last two and the last two members only when known. Label values come from the events (a product, a
/// plan): each is sanitized so that no control or bidi character reaches the receivers' screens, as in
/// every other output.
struct AlertmanagerAlert: Encodable {
    /// What the receivers show of the alert.
    struct Annotations: Encodable {
        let summary: String
        let description: String
        let runbookURL: JSONOmittedIfAbsent<String>
        let cost: JSONOmittedIfAbsent<String>

        enum CodingKeys: String, CodingKey {
            case summary, description
            case runbookURL = "runbook_url"
            case cost
        }
    }

    let labels: JSONMembers<String>
    let annotations: Annotations
    let startsAt: JSONTime
    let endsAt: JSONOmittedIfAbsent<JSONTime>
    let generatorURL: JSONOmittedIfAbsent<String>

    /// The alert of `labels` (in their order), firing from `startsAt` until `endsAt` when given.
    init(
        labels: [(String, String)], summary: String, description: String, runbookURL: String? = nil, cost: String? = nil, startsAt: Int64,
        endsAt: Int64?, generatorURL: String?
    ) {
        self.labels = JSONMembers(labels.map { ($0.0, TerminalText.sanitized($0.1)) })
        annotations = Annotations(
            summary: summary, description: description, runbookURL: JSONOmittedIfAbsent(runbookURL), cost: JSONOmittedIfAbsent(cost))
        self.startsAt = JSONTime(startsAt)
        self.endsAt = JSONOmittedIfAbsent(JSONTime.optional(endsAt))
        self.generatorURL = JSONOmittedIfAbsent(generatorURL)
    }
}
