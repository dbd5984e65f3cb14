import PurchaseSLICore

extension SLOPolicy {
    /// The objectives, burn-rate rules and fast test as the policy file writes them (what `slo import`
    /// prints); read back with ``init(yaml:)``, they are the same, the other keys keeping their defaults.
    public var objectivesAndRulesYAML: String {
        var lines = ["objectives:"]
        for objective in objectives {
            var fields = [
                "actionType: \(OpenSLO.scalar(objective.actionType))", "target: \(OpenSLO.percent(objective.target))",
                "window: \(objective.window == .calendarMonth ? "month" : objective.window.description)",
            ]
            if let owner = objective.owner { fields.append("owner: \(OpenSLO.scalar(owner))") }
            if let runbook = objective.runbookURL { fields.append("runbook: \(OpenSLO.scalar(runbook))") }
            if objective.weight != .events { fields.append("weight: \(objective.weight.rawValue)") }
            lines.append("  - {\(fields.joined(separator: ", "))}")
        }
        if objectives.isEmpty { lines[0] = "objectives: []" }
        lines.append(rules.isEmpty ? "burnRateRules: []" : "burnRateRules:")
        for rule in rules {
            lines.append(
                "  - {severity: \(rule.severity.rawValue), longWindow: \(TimeStep(seconds: rule.longWindowSeconds)), "
                    + "shortWindow: \(TimeStep(seconds: rule.shortWindowSeconds)), budgetShare: \(OpenSLO.percent(rule.budgetShare))}")
        }
        lines.append("fastBurn: " + (fastBurn.map { "{window: \(TimeStep(seconds: $0.windowSeconds))}" } ?? "off"))
        return lines.joined(separator: "\n") + "\n"
    }
}
