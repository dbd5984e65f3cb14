import Foundation
import PurchaseSLICore

/// OpenSLO v1 documents read into the policy's objectives, burn-rate rules and fast test: each SLO (a ratio
/// of a `purchase-sli` metric source's events of one action, counted by Occurrences over a rolling window
/// of whole days or a calendar month) becomes an objective (an app's own, `apps.<id>.objectives`, when its
/// metric sources also name an `app`), and the burn-rate AlertConditions of its
/// AlertPolicies the rules. Services, notification targets and data sources are read and left aside (the
/// notifications are `serve --notify`'s). What the policy cannot say is refused with the file, the
/// document and the field: another budgeting method, a threshold metric, a metric source without an
/// action, several targets, windows of hours, conditions other than a burn rate above a threshold, or SLOs
/// whose alert rules differ (the policy applies one set of rules to every objective).
public enum OpenSLOImport {
    /// A document that cannot be read into the policy.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// `slos.yaml, document 3 (SLO purchase-success-rate): spec.budgetingMethod: expected …`.
        public let description: String
    }

    /// One document and where it came from.
    private struct Document {
        var file: String
        var index: Int
        var kind: String
        var name: String
        var map: [String: Any]

        /// `file, document N (Kind name)`.
        var place: String { "\(file), document \(index) (\(kind) \(name))" }

        func failure(_ field: String, _ reason: String) -> Failure { Failure(description: "\(place): \(field): \(reason)") }

        var spec: [String: Any] { map["spec"] as? [String: Any] ?? [:] }
        var annotations: [String: Any] { (map["metadata"] as? [String: Any])?["annotations"] as? [String: Any] ?? [:] }

        /// The `purchase-sli.dev/…` annotation `key`, as text.
        func annotation(_ key: String) -> String? { annotations[OpenSLO.annotation + key].map { "\($0)" } }
    }

    /// The policy `files` (name and text) describe: the defaults, with their objectives, rules and fast test.
    /// - Throws: ``Failure`` naming the file, the document and the field.
    public static func policy(from files: [(name: String, text: String)]) throws -> SLOPolicy {
        var documents: [Document] = []
        for (file, text) in files {
            let values: [Any?]
            do {
                values = try YAMLDocument.allPlainValues(text)
            } catch let error as PolicyError {
                throw Failure(description: "\(file): \(error)")
            }
            for (offset, value) in values.enumerated() {
                guard let value, !(value is NSNull) else { continue }
                documents.append(try document(value, file: file, index: offset + 1))
            }
        }
        let slis = Dictionary(documents.filter { $0.kind == "SLI" }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let conditions = Dictionary(documents.filter { $0.kind == "AlertCondition" }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let alertPolicies = Dictionary(documents.filter { $0.kind == "AlertPolicy" }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let slos = documents.filter { $0.kind == "SLO" }
        guard !slos.isEmpty else {
            throw Failure(description: "\(files.map(\.name).joined(separator: ", ")): no SLO among the documents: nothing to read")
        }
        var policy = SLOPolicy.default
        policy.objectives = []
        var agreedRules: (slo: Document, rules: [SLOPolicy.BurnRateRule])?
        var fastBurnOf: (slo: Document, text: String)?
        var sloOfObjective: [String?: [String: String]] = [:]
        for slo in slos {
            let (objective, app, windowSeconds) = try objectiveOf(slo, slis: slis)
            if let other = sloOfObjective[app]?[objective.actionType] {
                throw slo.failure(
                    "spec",
                    "a second SLO of action \(objective.actionType)\(app.map { " of app \($0)" } ?? "") (\(other) is one): one objective per action"
                        + (app == nil ? "" : " and app"))
            }
            sloOfObjective[app, default: [:]][objective.actionType] = slo.name
            if let app {
                policy.appObjectives[app, default: []].append(objective)
            } else {
                policy.objectives.append(objective)
            }
            let rules = try rulesOf(slo, windowSeconds: windowSeconds, alertPolicies: alertPolicies, conditions: conditions)
            if let known = agreedRules, Set(known.rules) != Set(rules) {
                throw slo.failure(
                    "spec.alertPolicies",
                    "its burn-rate conditions differ from those of SLO \(known.slo.name); the policy applies one set of rules to every objective")
            }
            agreedRules = agreedRules ?? (slo, rules)
            let fast = slo.annotation("fastBurn") ?? TimeStep(seconds: SLOPolicy.FastBurnRule().windowSeconds).description
            if let known = fastBurnOf, known.text != fast {
                throw slo.failure("metadata.annotations.\(OpenSLO.annotation)fastBurn", "\(fast) differs from SLO \(known.slo.name)'s \(known.text)")
            }
            fastBurnOf = fastBurnOf ?? (slo, fast)
        }
        policy.rules = agreedRules?.rules ?? []
        if let fast = fastBurnOf {
            do {
                policy.fastBurn = try PolicyReader.fastBurn(fast.text == "off" ? "off" : ["window": fast.text], at: "fastBurn")
            } catch let error as PolicyError {
                throw fast.slo.failure("metadata.annotations.\(OpenSLO.annotation)fastBurn", error.reason)
            }
        }
        return policy
    }

    /// The document's kind and name, checked against what OpenSLO v1 allows.
    private static func document(_ value: Any, file: String, index: Int) throws -> Document {
        let place = "\(file), document \(index)"
        guard let map = value as? [String: Any] else { throw Failure(description: "\(place): expected a mapping (an OpenSLO document)") }
        guard let version = map["apiVersion"] as? String, version == "openslo/v1" else {
            throw Failure(description: "\(place): apiVersion: expected openslo/v1, got \(map["apiVersion"] ?? "nothing")")
        }
        let kinds = ["SLO", "SLI", "AlertPolicy", "AlertCondition", "AlertNotificationTarget", "Service", "DataSource"]
        guard let kind = map["kind"] as? String, kinds.contains(kind) else {
            throw Failure(description: "\(place): kind: expected one of \(kinds.joined(separator: ", ")), got \(map["kind"] ?? "nothing")")
        }
        guard let name = (map["metadata"] as? [String: Any])?["name"] as? String, !name.isEmpty else {
            throw Failure(description: "\(place) (\(kind)): metadata.name: required")
        }
        guard map["spec"] is [String: Any] else { throw Failure(description: "\(place) (\(kind) \(name)): spec: expected a mapping") }
        return Document(file: file, index: index, kind: kind, name: name, map: map)
    }

    /// The objective an SLO states, the app whose own it is (nil: the policy's), and the length its
    /// burn-rate thresholds are relative to.
    private static func objectiveOf(_ slo: Document, slis: [String: Document]) throws -> (SLOPolicy.Objective, String?, Int64) {
        let spec = slo.spec
        guard (spec["budgetingMethod"] as? String) == "Occurrences" else {
            throw slo.failure(
                "spec.budgetingMethod", "expected Occurrences (purchase-sli counts events), got \(spec["budgetingMethod"] ?? "nothing")")
        }
        let indicator: (spec: [String: Any], field: String, document: Document)
        if let reference = spec["indicatorRef"] as? String {
            guard let sli = slis[reference] else { throw slo.failure("spec.indicatorRef", "no SLI named \(reference) among the documents") }
            indicator = (sli.spec, "spec", sli)
        } else if let inline = spec["indicator"] as? [String: Any], let inlineSpec = inline["spec"] as? [String: Any] {
            indicator = (inlineSpec, "spec.indicator.spec", slo)
        } else {
            throw slo.failure("spec", "expected indicatorRef or indicator")
        }
        let (action, app) = try sourceOf(indicator.spec, field: indicator.field, in: indicator.document)
        guard let objectives = spec["objectives"] as? [Any], objectives.count == 1, let target = objectives[0] as? [String: Any] else {
            throw slo.failure("spec.objectives", "expected exactly one objective (one target per action)")
        }
        for key in ["op", "value", "timeSliceTarget", "timeSliceWindow"] where target[key] != nil {
            throw slo.failure("spec.objectives[0].\(key)", "a threshold objective cannot be read: purchase-sli's objectives are ratios")
        }
        guard let fraction = (target["target"] as? Double) ?? (target["target"] as? Int).map(Double.init) else {
            throw slo.failure("spec.objectives[0].target", "expected a number above 0 and below 1")
        }
        let (window, windowSeconds) = try windowOf(slo)
        var map: [String: Any] = ["actionType": action, "target": fraction * 100, "window": window]
        for key in ["owner", "runbook", "weight"] { map[key] = slo.annotation(key) }
        do {
            return (try PolicyReader.objective(map, at: "objective"), app, windowSeconds)
        } catch let error as PolicyError {
            let field =
                switch error.path {
                case "objective.target": "spec.objectives[0].target"
                case "objective.window": "spec.timeWindow[0]"
                case "objective.actionType": "\(indicator.field).ratioMetric.total.metricSource.spec.actionType"
                default: "metadata.annotations.\(OpenSLO.annotation)\(error.path.split(separator: ".").last ?? "")"
                }
            throw slo.failure(field, error.reason)
        }
    }

    /// The action a ratio SLI counts, and the app when it counts one app's events: the `actionType` (and
    /// `app`) of its metric sources, which must agree and count what purchase-sli counts (good: success and
    /// 409s; bad: failures; total: valid events).
    private static func sourceOf(_ spec: [String: Any], field: String, in document: Document) throws -> (action: String, app: String?) {
        if spec["thresholdMetric"] != nil {
            throw document.failure("\(field).thresholdMetric", "a threshold metric cannot be read: expected a ratioMetric of events")
        }
        guard let ratio = spec["ratioMetric"] as? [String: Any] else { throw document.failure("\(field).ratioMetric", "required") }
        let expected: [(String, Set<String>)] = [
            ("good", ["success", "alreadyGranted"]), ("bad", ["failure"]), ("total", ["success", "alreadyGranted", "failure"]),
        ]
        var action: String?
        var app: (first: String, value: String?)?
        for (part, results) in expected {
            guard let side = ratio[part] else { continue }
            let path = "\(field).ratioMetric.\(part).metricSource"
            guard let source = (side as? [String: Any])?["metricSource"] as? [String: Any], let sourceSpec = source["spec"] as? [String: Any] else {
                throw document.failure(path, "required")
            }
            guard let named = sourceSpec["actionType"] as? String else {
                throw document.failure(
                    "\(path).spec.actionType",
                    "required: purchase-sli reads the events of one action (a query of \(source["type"] ?? "another source") cannot be read)")
            }
            if let known = action, known != named { throw document.failure("\(path).spec.actionType", "\(named) differs from \(known)") }
            action = named
            let appOfPart = try appOf(sourceSpec, field: "\(path).spec.app", in: document)
            if let known = app, known.value != appOfPart {
                throw document.failure(
                    "\(path).spec.app",
                    "\(appOfPart ?? "no app") differs from \(known.value ?? "no app") (\(known.first)): both sides count one app's events or every app's"
                )
            }
            app = app ?? (part, appOfPart)
            if let listed = sourceSpec["resultType"] {
                guard let values = listed as? [Any], Set(values.map { "\($0)" }) == results else {
                    throw document.failure(
                        "\(path).spec.resultType", "expected \(results.sorted().joined(separator: ", ")) for \(part), got \(listed)")
                }
            }
        }
        guard ratio["total"] != nil, (ratio["good"] != nil) != (ratio["bad"] != nil), let action else {
            throw document.failure("\(field).ratioMetric", "expected total and one of good or bad")
        }
        return (action, app?.value)
    }

    /// The `app` a metric source counts, if it names one: an app id as events name it.
    private static func appOf(_ sourceSpec: [String: Any], field: String, in document: Document) throws -> String? {
        guard let value = sourceSpec["app"] else { return nil }
        guard let app = value as? String else { throw document.failure(field, "expected an app id as events name it, got \(value)") }
        do {
            try PolicyReader.checkAppID(app, at: field)
        } catch let error as PolicyError {
            throw document.failure(field, error.reason)
        }
        return app
    }

    /// `28d` for a rolling window of whole days (or weeks), `month` for `1M` from the first of a month UTC;
    /// and the seconds a threshold is relative to.
    private static func windowOf(_ slo: Document) throws -> (String, Int64) {
        guard let windows = slo.spec["timeWindow"] as? [Any], windows.count == 1, let window = windows[0] as? [String: Any],
            let duration = window["duration"] as? String
        else { throw slo.failure("spec.timeWindow", "expected one window with a duration") }
        let rolling = window["isRolling"] as? Bool ?? false
        if duration == "1M", !rolling {
            let calendar = window["calendar"] as? [String: Any] ?? [:]
            let start = calendar["startTime"] as? String ?? ""
            guard start.hasSuffix("-01 00:00:00"), ["Etc/UTC", "UTC", "Etc/GMT"].contains(calendar["timeZone"] as? String ?? "") else {
                throw slo.failure("spec.timeWindow[0].calendar", "expected a month from the first at 00:00:00 UTC (Etc/UTC)")
            }
            return ("month", OpenSLO.monthSecondsForThresholds)
        }
        guard rolling, let unit = duration.last, let count = Int64(duration.dropLast()), (1...366).contains(count), unit == "d" || unit == "w" else {
            throw slo.failure(
                "spec.timeWindow[0].duration",
                "expected a rolling window of days or weeks (28d, 4w) or a calendar month (1M, isRolling: false), got \(duration)")
        }
        let days = count * (unit == "w" ? 7 : 1)
        return ("\(days)d", days * .secondsPerDay)
    }

    /// The burn-rate rules of an SLO's alert policies.
    private static func rulesOf(
        _ slo: Document, windowSeconds: Int64, alertPolicies: [String: Document], conditions: [String: Document]
    ) throws -> [SLOPolicy.BurnRateRule] {
        let names = slo.spec["alertPolicies"] as? [Any] ?? []
        return try names.enumerated().flatMap { index, value -> [SLOPolicy.BurnRateRule] in
            guard let name = value as? String, let alertPolicy = alertPolicies[name] else {
                throw slo.failure("spec.alertPolicies[\(index)]", "no AlertPolicy named \(value) among the documents")
            }
            let listed = alertPolicy.spec["conditions"] as? [Any] ?? []
            return try listed.enumerated().map { conditionIndex, item in
                let field = "spec.conditions[\(conditionIndex)]"
                let entry = item as? [String: Any] ?? [:]
                if let reference = entry["conditionRef"] as? String {
                    guard let condition = conditions[reference] else {
                        throw alertPolicy.failure("\(field).conditionRef", "no AlertCondition named \(reference) among the documents")
                    }
                    return try rule(condition.spec, annotations: condition, field: "spec", in: condition, windowSeconds: windowSeconds)
                }
                guard let spec = entry["spec"] as? [String: Any] else {
                    throw alertPolicy.failure(field, "expected conditionRef or an inline condition")
                }
                return try rule(spec, annotations: alertPolicy, field: "\(field).spec", in: alertPolicy, windowSeconds: windowSeconds)
            }
        }
    }

    /// A burn-rate condition as a rule: `lookbackWindow` the long window, `alertAfter` (or the
    /// the short one, and the budget share the threshold spends over the long
    /// window (or the `budgetShare` annotation).
    private static func rule(
        _ spec: [String: Any], annotations: Document, field: String, in document: Document, windowSeconds: Int64
    ) throws -> SLOPolicy.BurnRateRule {
        guard let condition = spec["condition"] as? [String: Any], (condition["kind"] as? String) == "burnrate" else {
            throw document.failure("\(field).condition.kind", "expected burnrate")
        }
        guard let op = condition["op"] as? String, op == "gte" || op == "gt" else {
            throw document.failure("\(field).condition.op", "expected gte or gt (a rule fires while the burn rate is above its threshold)")
        }
        guard let severity = spec["severity"] as? String, Severity(rawValue: severity) != nil else {
            throw document.failure("\(field).severity", "expected page or ticket, got \(spec["severity"] ?? "nothing")")
        }
        func duration(_ key: String) throws -> Int64 {
            let text = condition[key] as? String ?? ""
            guard let step = TimeStep(parsing: text), !text.hasSuffix("M") else {
                throw document.failure("\(field).condition.\(key)", "expected minutes, hours or days such as 5m, 1h, 3d, got \(text)")
            }
            return step.seconds
        }
        let long = try duration("lookbackWindow")
        let short = try duration("alertAfter")
        guard let threshold = (condition["threshold"] as? Double) ?? (condition["threshold"] as? Int).map(Double.init), threshold > 0 else {
            throw document.failure("\(field).condition.threshold", "expected a burn rate above 0")
        }
        // To 6 decimals: the same rule read from SLOs of 28 and 30 days is one rule, not two a bit apart.
        var share = (threshold * Double(long) / Double(windowSeconds) * 100 * 1_000_000).rounded() / 1_000_000
        // The exact share an export wrote, while the threshold still says it (within the threshold's 4
        // decimals); a threshold edited since wins.
        if let annotated = annotations.annotation("budgetShare").flatMap(Double.init), abs(annotated - share) <= max(0.001, annotated * 0.001) {
            share = annotated
        }
        do {
            return try PolicyReader.rule(
                [
                    "severity": severity, "longWindow": TimeStep(seconds: long).description, "shortWindow": TimeStep(seconds: short).description,
                    "budgetShare": share,
                ], at: "rule")
        } catch let error as PolicyError {
            let key = error.path.split(separator: ".").last.map(String.init) ?? ""
            let mapped = ["longWindow": "condition.lookbackWindow", "shortWindow": "condition.alertAfter", "budgetShare": "condition.threshold"][key]
            throw document.failure("\(field).\(mapped ?? key)", error.reason)
        }
    }
}
