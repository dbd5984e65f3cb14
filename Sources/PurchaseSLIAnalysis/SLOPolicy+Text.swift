import PurchaseSLICore

extension SLOPolicy {
    /// The objectives (with each app's own under `apps.<id>.objectives`), burn-rate rules and fast test as
    /// the policy file writes them (what `slo import` prints); read back with ``init(yaml:)``, they are the
    /// same, the other keys keeping their defaults.
    public var objectivesAndRulesYAML: String {
        var lines = objectives.isEmpty ? ["objectives: []"] : ["objectives:"] + objectives.map { "  - " + Self.flowYAML($0) }
        if !appObjectives.isEmpty {
            lines.append("apps:")
            for app in appObjectives.keys.sorted() {
                lines += ["  \(OpenSLO.scalar(app)):", "    objectives:"] + appObjectives[app]!.map { "      - " + Self.flowYAML($0) }
            }
        }
        lines.append(rules.isEmpty ? "burnRateRules: []" : "burnRateRules:")
        for rule in rules {
            lines.append(
                "  - {severity: \(rule.severity.rawValue), longWindow: \(TimeStep(seconds: rule.longWindowSeconds)), "
                    + "shortWindow: \(TimeStep(seconds: rule.shortWindowSeconds)), budgetShare: \(OpenSLO.percent(rule.budgetShare))}")
        }
        lines.append("fastBurn: " + (fastBurn.map { "{window: \(TimeStep(seconds: $0.windowSeconds))}" } ?? "off"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{actionType: "purchase", target: 99, window: 28d}`: an objective as one flow mapping.
    private static func flowYAML(_ objective: Objective) -> String {
        var fields = [
            "actionType: \(OpenSLO.scalar(objective.actionType))", "target: \(OpenSLO.percent(objective.target))",
            "window: \(objective.window == .calendarMonth ? "month" : objective.window.description)",
        ]
        if let owner = objective.owner { fields.append("owner: \(OpenSLO.scalar(owner))") }
        if let runbook = objective.runbookURL { fields.append("runbook: \(OpenSLO.scalar(runbook))") }
        if objective.weight != .events { fields.append("weight: \(objective.weight.rawValue)") }
        return "{\(fields.joined(separator: ", "))}"
    }
}
