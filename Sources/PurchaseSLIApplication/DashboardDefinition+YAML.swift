import PurchaseSLIAnalysis
import PurchaseSLICore

extension DashboardDefinition {
    /// The panel kinds a definition may use.
    static let panelKinds = ["objectives", "alerts", "chart", "signals", "table", "topErrors", "adoption", "rollout", "reconciliation", "budget"]

    /// Reads a definition from YAML (see `dashboards/oncall.yaml`).
    /// - Throws: ``PolicyError`` naming the key at fault.
    public init(yaml: String) throws {
        let document = try PolicyReader.document(yaml)
        try PolicyReader.refuseUnknownKeys(document, known: ["title", "file", "summary", "app", "panels"], at: "")
        guard let title = document["title"] as? String, !title.isEmpty else {
            throw PolicyError(path: "title", reason: "required: the page title")
        }
        guard let file = document["file"] as? String, file.hasSuffix(".html"), file != "index.html",
            file.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") })
        else {
            throw PolicyError(
                path: "file",
                reason:
                    "expected a file name of lowercase letters, digits and - ending in .html (not index.html), got \(document["file"] ?? "nothing")")
        }
        let summary = document["summary"].map { "\($0)" } ?? ""
        let app = try document["app"].map(Self.app)
        guard let panelList = document["panels"] else { throw PolicyError(path: "panels", reason: "required: a list of panels") }
        let panels = try PolicyReader.list(panelList, at: "panels").enumerated().map { index, item in
            try Self.panel(item, at: "panels[\(index)]")
        }
        guard !panels.isEmpty else { throw PolicyError(path: "panels", reason: "expected at least one panel") }
        self.init(title: title, file: file, summary: summary, app: app, panels: panels)
    }

    /// The `app` key: an app id as events carry it (``EventValidator/checkIdentifier(_:_:maximumLength:)``).
    private static func app(_ value: Any) throws -> String {
        guard let app = value as? String, !app.isEmpty else {
            throw PolicyError(path: "app", reason: "expected the app's bundle id or package name, got \(value)")
        }
        do {
            try EventValidator.checkIdentifier(app, .app, maximumLength: EventDimension.app.maximumLength ?? .max)
        } catch {
            throw PolicyError(path: "app", reason: error.reason)
        }
        return app
    }

    /// A panel: its kind alone (`- objectives`) or a mapping with `kind` and its options.
    private static func panel(_ item: Any, at path: String) throws -> Panel {
        let map: [String: Any] = try (item as? String).map { ["kind": $0] } ?? PolicyReader.map(item, at: path)
        guard let kind = map["kind"] as? String, panelKinds.contains(kind) else {
            throw PolicyError(path: "\(path).kind", reason: "expected one of \(panelKinds.joined(separator: ", ")), got \(map["kind"] ?? "nothing")")
        }
        func known(_ keys: Set<String>) throws { try PolicyReader.refuseUnknownKeys(map, known: keys.union(["kind"]), at: path) }
        func text(_ key: String) throws -> String? {
            guard let value = map[key] else { return nil }
            guard let text = value as? String, !text.isEmpty else { throw PolicyError(path: "\(path).\(key)", reason: "expected text, got \(value)") }
            return text
        }
        func action() throws -> String? {
            guard let action = try text("actionType") else { return nil }
            guard ActionType.isValidToken(action) else {
                throw PolicyError(path: "\(path).actionType", reason: "expected an action such as purchase, got \(action)")
            }
            return action
        }
        func dimension(_ key: String, required: Bool) throws -> EventDimension? {
            guard let name = try text(key) else {
                if required { throw PolicyError(path: "\(path).\(key)", reason: "required") }
                return nil
            }
            guard let dimension = EventDimension(name: name), dimension.seriesIndex != nil else {
                throw PolicyError(
                    path: "\(path).\(key)",
                    reason: "expected one of \(EventDimension.seriesDimensions.map(\.rawValue).joined(separator: ", ")), got \(name)")
            }
            return dimension
        }
        func step(_ key: String) throws -> Int64? {
            try map[key].map { value in
                let seconds = try PolicyReader.duration(value, at: "\(path).\(key)")
                guard seconds > 0 else {
                    throw PolicyError(path: "\(path).\(key)", reason: "expected a duration above zero such as 5m or 1h, got \(value)")
                }
                return seconds
            }
        }
        func limit(_ fallback: Int) throws -> Int {
            try map["limit"].map { try PolicyReader.count($0, at: "\(path).limit", maximum: 1000) } ?? fallback
        }
        switch kind {
        case "objectives":
            try known([])
            return .objectives
        case "alerts":
            try known([])
            return .alerts
        case "signals":
            try known([])
            return .signals
        case "reconciliation":
            try known([])
            return .reconciliation
        case "budget":
            try known([])
            return .budget
        case "chart":
            try known(["title", "metric", "actionType", "by", "step", "overlay"])
            let by = try dimension("by", required: false)
            var overlay = false
            if let value = map["overlay"] {
                guard let text = value as? String, text == "previousWeek" || text == "none" else {
                    throw PolicyError(path: "\(path).overlay", reason: "expected previousWeek or none, got \(value)")
                }
                guard text == "none" || by == nil else {
                    throw PolicyError(
                        path: "\(path).overlay", reason: "a chart by \(by?.rawValue ?? "") has a line per value: overlay a chart without by")
                }
                if text == "previousWeek", let seconds = try step("step"), (7 * .secondsPerDay) % seconds != 0 {
                    throw PolicyError(path: "\(path).step", reason: "a step the week divides (5m, 1h, 1d…) lines the week before up with this one")
                }
                overlay = text == "previousWeek"
            }
            return .chart(
                title: try text("title"), metric: try chartMetric(map["metric"], at: "\(path).metric"),
                actionType: try action(), by: by, stepSeconds: try step("step"), overlayPreviousWeek: overlay)
        case "table":
            try known(["title", "by", "actionType", "limit"])
            return .table(title: try text("title"), by: try dimension("by", required: true)!, actionType: try action(), limit: try limit(12))
        case "topErrors":
            try known(["actionType", "window", "limit"])
            return .topErrors(actionType: try action(), windowSeconds: try step("window") ?? .secondsPerDay, limit: try limit(10))
        case "adoption":
            try known(["step"])
            return .adoption(stepSeconds: try step("step"))
        default:
            try known(["candidate", "baseline"])
            return .rollout(candidate: try text("candidate"), baseline: try text("baseline"))
        }
    }

    private static func chartMetric(_ value: Any?, at path: String) throws -> ChartMetric {
        guard let name = value as? String else {
            throw PolicyError(path: path, reason: "required: successRate, conflictRate, cancelRate, unfinishedRate or events")
        }
        if name == "events" { return .events }
        guard let metric = RateMetric(rawValue: name) else {
            throw PolicyError(path: path, reason: "expected successRate, conflictRate, cancelRate, unfinishedRate or events, got \(name)")
        }
        return .rate(metric)
    }
}
