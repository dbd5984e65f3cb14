import PurchaseSLICore

/// The policy's objectives and burn-rate rules as OpenSLO v1 documents (https://openslo.com), and back
/// (``OpenSLOImport``). Per objective: an SLI (`ratioMetric`, good = success and 409 already granted, total =
/// valid events, both of metric source type `purchase-sli` with the action), an SLO (Occurrences over its
/// window: `28d` rolling, or `1M` calendar from the first of a month UTC), and per burn-rate rule an
/// AlertCondition (`burnrate`, `gte` the rule's threshold for that window, `lookbackWindow` the long window,
/// `alertAfter` the short one) with its AlertPolicy notifying the severity's AlertNotificationTarget (`page`,
/// `ticket`). An app's own objectives (`apps.<id>.objectives`) follow, their metric sources naming the app
/// beside the action (`app`) and their names starting with it. One Service, `purchases`, holds them. What
/// OpenSLO has no field for (the exact budget share beside the rounded threshold, the owner, the runbook,
/// the weight, the fast exact test) rides in `purchase-sli.dev/…` annotations, so that an export read back
/// is the same policy.
public enum OpenSLO {
    /// The metric source type of the SLIs purchase-sli measures.
    public static let metricSourceType = "purchase-sli"
    /// The prefix of the annotations only purchase-sli reads.
    static let annotation = "purchase-sli.dev/"
    /// The service every exported SLO belongs to.
    static let serviceName = "purchases"
    /// The first day a calendar-month window counts from (any first of a month).
    static let calendarStart = "2026-01-01 00:00:00"
    /// The month length a calendar-month objective's thresholds are written for (OpenSLO has one number).
    static let monthSecondsForThresholds: Int64 = 30 * .secondsPerDay

    /// The documents, separated by `---`, in a fixed order: the service, the notification targets, then per
    /// objective (the policy's, then each app's own, apps in order) its SLI, SLO, and each rule's condition
    /// and policy.
    public static func documents(of policy: SLOPolicy) -> String {
        var documents: [[String]] = [
            document(
                kind: "Service", name: serviceName, displayName: "In-app purchases",
                spec: ["description: " + scalar("The purchase flow as purchase-sli counts it: an SLO per action")])
        ]
        for severity in [Severity.page, .ticket] {
            documents.append(
                document(
                    kind: "AlertNotificationTarget", name: severity.rawValue,
                    spec: [
                        "target: \(severity.rawValue)",
                        "description: " + scalar(severity == .page ? "page the person on call now" : "open a ticket for the next working day"),
                    ]))
        }
        var names = DocumentNames()
        for objective in policy.objectives {
            documents += objectiveDocuments(objective, app: nil, policy: policy, names: &names)
        }
        for app in policy.appObjectives.keys.sorted() {
            for objective in policy.appObjectives[app]! {
                documents += objectiveDocuments(objective, app: app, policy: policy, names: &names)
            }
        }
        return documents.map { $0.joined(separator: "\n") + "\n" }.joined(separator: "---\n")
    }

    /// An objective's SLI, SLO, and one condition and policy per burn-rate rule; `app` when it is that
    /// app's own.
    private static func objectiveDocuments(
        _ objective: SLOPolicy.Objective, app: String?, policy: SLOPolicy, names: inout DocumentNames
    ) -> [[String]] {
        let action = objective.actionType
        let prefix = app.map { appNamePart($0) + "-" } ?? ""
        let name = names.unique(prefix + sloName(action))
        let title = "\(action) success rate" + (app.map { " of \($0)" } ?? "")
        func source(_ results: [String]) -> [String] {
            ["  metricSource:", "    type: \(metricSourceType)", "    spec:", "      actionType: " + scalar(action)]
                + (app.map { ["      app: " + scalar($0)] } ?? []) + ["      resultType: [\(results.joined(separator: ", "))]"]
        }
        let sli = document(
            kind: "SLI", name: name, displayName: title,
            spec: ["ratioMetric:", "  counter: true", "  good:"] + source(["success", "alreadyGranted"]).map { "  " + $0 } + ["  total:"]
                + source(["success", "alreadyGranted", "failure"]).map { "  " + $0 })
        var annotations: [(String, String)] = []
        if let owner = objective.owner { annotations.append(("owner", owner)) }
        if let runbook = objective.runbookURL { annotations.append(("runbook", runbook)) }
        if objective.weight == .revenue { annotations.append(("weight", objective.weight.rawValue)) }
        annotations.append(("fastBurn", policy.fastBurn.map { TimeStep(seconds: $0.windowSeconds).description } ?? "off"))
        let window: [String] =
            switch objective.window {
            case .rolling(let seconds): ["  - duration: \(TimeStep(seconds: seconds))", "    isRolling: true"]
            case .calendarMonth:
                ["  - duration: 1M", "    isRolling: false", "    calendar:", "      startTime: \"\(calendarStart)\"", "      timeZone: Etc/UTC"]
            }
        let conditions = policy.rules.map { names.unique(prefix + conditionName(action, $0)) }
        let slo = document(
            kind: "SLO", name: name, displayName: "\(title) \(percent(objective.target)) %",
            annotations: annotations,
            spec: [
                "service: \(serviceName)", "indicatorRef: \(name)", "timeWindow:",
            ] + window + [
                "budgetingMethod: Occurrences", "objectives:",
                "  - displayName: " + scalar(title), "    target: \(JSONText.number(objective.target))",
            ] + (conditions.isEmpty ? [] : ["alertPolicies:"] + conditions.map { "  - \($0)" }))
        var documents = [sli, slo]
        let windowSeconds =
            switch objective.window {
            case .rolling(let seconds): seconds
            case .calendarMonth: monthSecondsForThresholds
            }
        for (rule, name) in zip(policy.rules, conditions) {
            let threshold = rule.budgetShare * Double(windowSeconds) / Double(rule.longWindowSeconds)
            documents.append(
                document(
                    kind: "AlertCondition", name: name,
                    annotations: [("budgetShare", percent(rule.budgetShare))],
                    spec: [
                        "description: "
                            + scalar(
                                "\(rule.severity.rawValue) when \(percent(rule.budgetShare)) % of the error budget burns in "
                                    + "\(TimeStep(seconds: rule.longWindowSeconds)), still burning over the last \(TimeStep(seconds: rule.shortWindowSeconds))"
                            ),
                        "severity: \(rule.severity.rawValue)", "condition:", "  kind: burnrate", "  op: gte",
                        "  threshold: \(JSONText.number((threshold * 10_000).rounded() / 10_000))",
                        "  lookbackWindow: \(TimeStep(seconds: rule.longWindowSeconds))",
                        "  alertAfter: \(TimeStep(seconds: rule.shortWindowSeconds))",
                    ]))
            documents.append(
                document(
                    kind: "AlertPolicy", name: name,
                    spec: [
                        "alertWhenNoData: false", "alertWhenResolved: true", "alertWhenBreaching: true", "conditions:", "  - conditionRef: \(name)",
                        "notificationTargets:", "  - targetRef: \(rule.severity.rawValue)",
                    ]))
        }
        return documents
    }

    /// `purchase-success-rate`: an action's SLO and SLI (lower case; other characters become `-`).
    static func sloName(_ action: String) -> String { nameSafe(action) + "-success-rate" }

    /// `purchase-page-1h-5m`: a rule's condition and policy for an action.
    static func conditionName(_ action: String, _ rule: SLOPolicy.BurnRateRule) -> String {
        "\(nameSafe(action))-\(rule.severity.rawValue)-\(TimeStep(seconds: rule.longWindowSeconds))-\(TimeStep(seconds: rule.shortWindowSeconds))"
    }

    /// The names given so far, so that two texts made alike (`com.example.a` and `com-example.a`) still
    /// name two documents: a name met again takes `-2`, `-3`, ….
    private struct DocumentNames {
        private var used: Set<String> = []

        mutating func unique(_ name: String) -> String {
            var candidate = name
            var number = 1
            while used.contains(candidate) {
                number += 1
                candidate = "\(name)-\(number)"
            }
            used.insert(candidate)
            return candidate
        }
    }

    /// An app's part of a name: as OpenSLO names allow it, from a letter or digit, at most 160 characters
    /// (a name is at most 255, and the rest of the longest is under 95); `app` when nothing of it is left.
    private static func appNamePart(_ app: String) -> String {
        let safe = nameSafe(app).drop { $0 == "-" }.prefix(160)
        let trimmed = safe.prefix(safe.count - safe.reversed().prefix { $0 == "-" }.count)
        return trimmed.isEmpty ? "app" : String(trimmed)
    }

    /// Text as OpenSLO names allow it: lower-case letters, digits and `-`.
    private static func nameSafe(_ text: String) -> String {
        String(text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    /// One document's lines.
    private static func document(
        kind: String, name: String, displayName: String? = nil, annotations: [(String, String)] = [], spec: [String]
    ) -> [String] {
        var lines = ["apiVersion: openslo/v1", "kind: \(kind)", "metadata:", "  name: \(name)"]
        if let displayName { lines.append("  displayName: " + scalar(displayName)) }
        if !annotations.isEmpty {
            lines.append("  annotations:")
            lines += annotations.map { "    \(annotation)\($0.0): " + scalar($0.1) }
        }
        return lines + ["spec:"] + spec.map { "  " + $0 }
    }

    /// A fraction as the percent a person writes: 0.995 is "99.5" (to 6 decimals, no binary noise).
    static func percent(_ fraction: Double) -> String { JSONText.number((fraction * 100 * 1_000_000).rounded() / 1_000_000) }

    /// A YAML scalar: a JSON string (a YAML double-quoted scalar), so that no text reads as another type.
    static func scalar(_ text: String) -> String { JSONText.quoted(text) }
}
