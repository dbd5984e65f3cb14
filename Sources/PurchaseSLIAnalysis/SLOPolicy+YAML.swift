import PurchaseSLICore

/// A policy or dashboard file that does not say what it must, with the path of the offending key.
public struct PolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where, e.g. `objectives[1].target`.
    public let path: String
    /// What was expected and what was found.
    public let reason: String

    public var description: String { "\(path): \(reason)" }

    /// Creates an error for the key at `path`.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

extension SLOPolicy {
    /// Reads a policy from YAML (see `dashboards/slos.yaml`); keys left out keep their defaults.
    /// - Throws: ``PolicyError`` naming the key at fault.
    public init(yaml: String) throws {
        let document = try PolicyReader.document(yaml)
        try PolicyReader.refuseUnknownKeys(
            document,
            known: [
                "objectives", "burnRateRules", "slices", "minimumValidEvents", "minimumFailures", "burnSignificance",
                "sliceMinimumRatio", "keepFiringFor", "lossOfSignal", "spikes", "rollout", "fastBurn", "recoveryWindow",
                "reconciliation", "reportingCurrency", "exchangeRates", "maintenance", "timeZone", "apps",
            ],
            at: "")
        var policy = SLOPolicy.default
        if let objectives = document["objectives"] {
            policy.objectives = try PolicyReader.objectives(objectives, at: "objectives")
        }
        if let rules = document["burnRateRules"] {
            policy.rules = try PolicyReader.list(rules, at: "burnRateRules").enumerated().map { index, item in
                try PolicyReader.rule(item, at: "burnRateRules[\(index)]")
            }
        }
        if let slices = document["slices"] {
            policy.slices = try PolicyReader.list(slices, at: "slices").enumerated().map { index, item in
                let path = "slices[\(index)]"
                guard let name = item as? String, let dimension = EventDimension(name: name), EventDimension.sliceDimensions.contains(dimension)
                else {
                    throw PolicyError(
                        path: path, reason: "expected one of \(EventDimension.sliceDimensions.map(\.rawValue).joined(separator: ", ")), got \(item)")
                }
                return dimension
            }
        }
        if let minimum = document["minimumValidEvents"] {
            policy.minimumValidEvents = try PolicyReader.count(minimum, at: "minimumValidEvents")
        }
        if let ratio = document["sliceMinimumRatio"] {
            policy.sliceMinimumRatio = try PolicyReader.number(ratio, at: "sliceMinimumRatio")
            guard policy.sliceMinimumRatio >= 1 else {
                throw PolicyError(path: "sliceMinimumRatio", reason: "expected a number ≥ 1, got \(ratio)")
            }
        }
        if let fast = document["fastBurn"] {
            policy.fastBurn = try PolicyReader.fastBurn(fast, at: "fastBurn")
        }
        if let recovery = document["recoveryWindow"] {
            policy.recoveryWindowSeconds = try PolicyReader.duration(recovery, at: "recoveryWindow")
            guard policy.recoveryWindowSeconds > 0 else { throw PolicyError(path: "recoveryWindow", reason: "expected a duration above 0") }
        }
        if let keep = document["keepFiringFor"] {
            policy.keepFiringForSeconds = try PolicyReader.duration(keep, at: "keepFiringFor")
        }
        if let minimum = document["minimumFailures"] {
            policy.minimumFailures = try PolicyReader.count(minimum, at: "minimumFailures")
        }
        if let level = document["burnSignificance"] {
            policy.burnSignificance = try PolicyReader.probability(level, at: "burnSignificance")
        }
        if let spikes = document["spikes"] {
            policy.spikes = try PolicyReader.spikeRule(spikes, at: "spikes")
        }
        if let rollout = document["rollout"] {
            policy.rollout = try PolicyReader.rolloutRule(rollout, at: "rollout")
        }
        if let reconciliation = document["reconciliation"] {
            policy.reconciliation = try PolicyReader.reconciliationRule(reconciliation, at: "reconciliation")
        }
        if let currency = document["reportingCurrency"] {
            policy.reportingCurrency = try PolicyReader.currency(currency, at: "reportingCurrency")
        }
        if let rates = document["exchangeRates"] {
            for (code, rate) in try PolicyReader.map(rates, at: "exchangeRates").sorted(by: { $0.key < $1.key }) {
                let currency = try PolicyReader.currency(code, at: "exchangeRates.\(code)")
                let value = try PolicyReader.number(rate, at: "exchangeRates.\(code)")
                guard value > 0 else {
                    throw PolicyError(path: "exchangeRates.\(code)", reason: "expected units of the reporting currency above 0, got \(rate)")
                }
                policy.exchangeRates[currency] = value
            }
            guard policy.reportingCurrency != nil else {
                throw PolicyError(path: "exchangeRates", reason: "rates convert to the reportingCurrency: give it too")
            }
        }
        if let zone = document["timeZone"] {
            guard let name = zone as? String, !name.isEmpty, name.utf8.count <= 64, !name.contains(where: \.isWhitespace) else {
                throw PolicyError(path: "timeZone", reason: "expected a time zone such as Europe/Berlin, UTC or +05:30, got \(zone)")
            }
            policy.timeZone = name
        }
        if let maintenance = document["maintenance"] {
            policy.maintenance = try PolicyReader.list(maintenance, at: "maintenance").enumerated().map { index, item in
                try PolicyReader.maintenanceWindow(item, at: "maintenance[\(index)]", id: "policy-\(index + 1)")
            }
        }
        if let apps = document["apps"] {
            (policy.appCaps, policy.appObjectives) = try PolicyReader.apps(apps, at: "apps")
        }
        if let loss = document["lossOfSignal"] {
            let map = try PolicyReader.map(loss, at: "lossOfSignal")
            try PolicyReader.refuseUnknownKeys(map, known: ["window", "minimumExpectedEvents"], at: "lossOfSignal")
            if let window = map["window"] { policy.lossOfSignalWindowSeconds = try PolicyReader.duration(window, at: "lossOfSignal.window") }
            if let minimum = map["minimumExpectedEvents"] {
                policy.lossOfSignalMinimumExpected = try PolicyReader.count(minimum, at: "lossOfSignal.minimumExpectedEvents")
            }
        }
        self = policy
    }
}

/// Checked reading of YAML values (policy and dashboard files), each error naming the key at fault.
package enum PolicyReader {
    /// The top-level mapping of a YAML file (empty for an empty file).
    package static func document(_ yaml: String) throws -> [String: Any] {
        try map(try YAMLDocument.plainValues(yaml) ?? [String: Any](), at: "(file)")
    }

    package static func map(_ value: Any, at path: String) throws -> [String: Any] {
        guard let map = value as? [String: Any] else { throw PolicyError(path: path, reason: "expected a mapping of keys") }
        return map
    }

    package static func list(_ value: Any, at path: String) throws -> [Any] {
        guard let list = value as? [Any] else { throw PolicyError(path: path, reason: "expected a list") }
        return list
    }

    package static func refuseUnknownKeys(_ map: [String: Any], known: Set<String>, at path: String) throws {
        if let unknown = map.keys.sorted().first(where: { !known.contains($0) }) {
            throw PolicyError(
                path: path.isEmpty ? unknown : "\(path).\(unknown)",
                reason: "unknown key; expected one of \(known.sorted().joined(separator: ", "))")
        }
    }

    /// A finite number.
    package static func number(_ value: Any, at path: String) throws -> Double {
        if let number = value as? Int { return Double(number) }
        if let number = value as? Double, number.isFinite { return number }
        throw PolicyError(path: path, reason: "expected a finite number, got \(value)")
    }

    static func probability(_ value: Any, at path: String) throws -> Double {
        let level = try number(value, at: path)
        guard level > 0, level < 1 else { throw PolicyError(path: path, reason: "expected a probability between 0 and 1") }
        return level
    }

    /// A whole number from 1 to `maximum` (a billion unless the key says less).
    package static func count(_ value: Any, at path: String, maximum: Int = 1_000_000_000) throws -> Int {
        guard let count = value as? Int, count >= 1, count <= maximum else {
            throw PolicyError(path: path, reason: "expected a whole number from 1 to \(maximum), got \(value)")
        }
        return count
    }

    /// The longest duration a policy or dashboard key may give other than an SLO window: the minute
    /// buckets kept by default (35 days), which every rule and chart reads.
    package static let longestDurationSeconds: Int64 = 35 * .secondsPerDay

    /// A whole number of minutes (or 0) up to ``longestDurationSeconds``.
    package static func duration(_ value: Any, at path: String) throws -> Int64 {
        if let zero = value as? Int, zero == 0 { return 0 }
        guard let text = value as? String, let step = TimeStep(parsing: text), step.seconds % .secondsPerMinute == 0,
            step.seconds <= longestDurationSeconds
        else {
            throw PolicyError(path: path, reason: "expected a whole number of minutes such as 5m, 1h, 28d, at most 35d, got \(value)")
        }
        return step.seconds
    }

    /// A list of objectives, at most one per action.
    static func objectives(_ value: Any, at path: String) throws -> [SLOPolicy.Objective] {
        let objectives = try list(value, at: path).enumerated().map { index, item in
            try objective(item, at: "\(path)[\(index)]")
        }
        let actions = objectives.map(\.actionType)
        if let duplicate = actions.first(where: { action in actions.filter { $0 == action }.count > 1 }) {
            throw PolicyError(path: path, reason: "actionType \(duplicate) has more than one objective")
        }
        return objectives
    }

    /// `apps:`: per app id (as events name it), `seriesCap` and `cardinalityCap`, each optional, and the
    /// `objectives` it is judged on alone, if any.
    static func apps(_ value: Any, at path: String) throws -> (caps: [String: AppCaps], objectives: [String: [SLOPolicy.Objective]]) {
        var caps: [String: AppCaps] = [:]
        var objectives: [String: [SLOPolicy.Objective]] = [:]
        for (app, item) in try map(value, at: path).sorted(by: { $0.key < $1.key }) {
            let appPath = "\(path).\(app)"
            try checkAppID(app, at: appPath)
            let settings = try map(item, at: appPath)
            try refuseUnknownKeys(settings, known: ["seriesCap", "cardinalityCap", "objectives"], at: appPath)
            caps[app] = AppCaps(
                seriesCap: try settings["seriesCap"].map { try count($0, at: "\(appPath).seriesCap") },
                cardinalityCap: try settings["cardinalityCap"].map { try count($0, at: "\(appPath).cardinalityCap") })
            if let own = settings["objectives"] { objectives[app] = try self.objectives(own, at: "\(appPath).objectives") }
        }
        return (caps, objectives)
    }

    /// Checks that `app` is an app id as events name it (not empty, not `__other__`).
    static func checkAppID(_ app: String, at path: String) throws {
        do {
            try EventValidator.checkIdentifier(app, .app, maximumLength: EventDimension.app.maximumLength!)
        } catch {
            throw PolicyError(path: path, reason: "expected an app id as events name it: \(error.reason)")
        }
        guard !app.isEmpty, app != EventDimension.overflowValue else {
            throw PolicyError(path: path, reason: "expected an app id as events name it, got \"\(app)\"")
        }
    }

    static func objective(_ value: Any, at path: String) throws -> SLOPolicy.Objective {
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(map, known: ["actionType", "target", "window", "owner", "runbook", "weight"], at: path)
        guard let action = map["actionType"] as? String, ActionType.isValidToken(action) else {
            throw PolicyError(path: "\(path).actionType", reason: "expected an action such as purchase, got \(map["actionType"] ?? "nothing")")
        }
        guard let targetValue = map["target"] else { throw PolicyError(path: "\(path).target", reason: "required") }
        let target = try number(targetValue, at: "\(path).target")
        guard target > 0, target < 100 else {
            throw PolicyError(path: "\(path).target", reason: "expected a percentage above 0 and below 100, got \(targetValue)")
        }
        let window = try map["window"].map { try sloWindow($0, at: "\(path).window") } ?? .rolling(seconds: 28 * .secondsPerDay)
        var objective = SLOPolicy.Objective(actionType: action, target: target / 100, window: window)
        if let owner = map["owner"] {
            guard let text = owner as? String, !text.isEmpty, text.count <= 100,
                text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { throw PolicyError(path: "\(path).owner", reason: "expected a team name of 1 to 100 printable characters, got \(owner)") }
            objective.owner = text
        }
        if let runbook = map["runbook"] {
            guard let text = runbook as? String, text.hasPrefix("https://") || text.hasPrefix("http://"), text.count > 8,
                text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"\"'<>`\\".unicodeScalars.contains($0) })
            else { throw PolicyError(path: "\(path).runbook", reason: "expected an http or https URL, got \(runbook)") }
            objective.runbookURL = text
        }
        if let weight = map["weight"] {
            guard let text = weight as? String, let parsed = SLOPolicy.ObjectiveWeight(rawValue: text) else {
                throw PolicyError(path: "\(path).weight", reason: "expected events or revenue, got \(weight)")
            }
            objective.weight = parsed
        }
        return objective
    }

    /// An ISO 4217 currency code: three capital letters.
    static func currency(_ value: Any, at path: String) throws -> String {
        guard let text = value as? String, text.utf8.count == 3, text.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw PolicyError(path: path, reason: "expected an ISO 4217 currency code such as USD, got \(value)")
        }
        return text
    }

    /// A rolling window of whole days (`7d`, `28d`, `30d`) or `month` for the calendar month.
    static func sloWindow(_ value: Any, at path: String) throws -> SLOWindow {
        if let text = value as? String, text == "month" { return .calendarMonth }
        guard let text = value as? String, let step = TimeStep(parsing: text), step.seconds % .secondsPerDay == 0,
            step.seconds <= 366 * .secondsPerDay
        else {
            throw PolicyError(path: path, reason: "expected whole days up to 366d such as 7d, 28d, 30d, or month (the calendar month), got \(value)")
        }
        return .rolling(seconds: step.seconds)
    }

    /// `{window: 3m}`, or `off` (false) for no fast test.
    static func fastBurn(_ value: Any, at path: String) throws -> SLOPolicy.FastBurnRule? {
        if let enabled = value as? Bool, !enabled { return nil }
        if let text = value as? String, text == "off" { return nil }
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(map, known: ["window"], at: path)
        var rule = SLOPolicy.FastBurnRule()
        if let window = map["window"] {
            rule.windowSeconds = try duration(window, at: "\(path).window")
            guard rule.windowSeconds > 0 else { throw PolicyError(path: "\(path).window", reason: "expected a duration above 0") }
        }
        return rule
    }

    static func spikeRule(_ value: Any, at path: String) throws -> SLOPolicy.SpikeRule {
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(
            map,
            known: [
                "window", "baselineDays", "minimumRatio", "minimumCount", "significance", "severity", "unfinishedAfter",
                "unfinishedMinimumShare",
            ],
            at: path)
        var rule = SLOPolicy.SpikeRule()
        if let window = map["window"] { rule.windowSeconds = try duration(window, at: "\(path).window") }
        if let days = map["baselineDays"] { rule.baselineDays = try count(days, at: "\(path).baselineDays", maximum: 28) }
        if let ratio = map["minimumRatio"] {
            rule.minimumRatio = try number(ratio, at: "\(path).minimumRatio")
            guard rule.minimumRatio >= 1 else { throw PolicyError(path: "\(path).minimumRatio", reason: "expected a number ≥ 1") }
        }
        if let minimum = map["minimumCount"] { rule.minimumCount = try count(minimum, at: "\(path).minimumCount") }
        if let share = map["unfinishedMinimumShare"] {
            rule.unfinishedMinimumShare = try number(share, at: "\(path).unfinishedMinimumShare")
            guard (0..<1).contains(rule.unfinishedMinimumShare) else {
                throw PolicyError(path: "\(path).unfinishedMinimumShare", reason: "expected a fraction from 0 to below 1")
            }
        }
        if let after = map["unfinishedAfter"] { rule.unfinishedAfterSeconds = try duration(after, at: "\(path).unfinishedAfter") }
        if let level = map["significance"] { rule.significance = try probability(level, at: "\(path).significance") }
        if let severity = map["severity"] {
            guard let text = severity as? String, let parsed = Severity(rawValue: text) else {
                throw PolicyError(path: "\(path).severity", reason: "expected page or ticket, got \(severity)")
            }
            rule.severity = parsed
        }
        return rule
    }

    static func rolloutRule(_ value: Any, at path: String) throws -> SLOPolicy.RolloutRule {
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(
            map,
            known: [
                "minimumSamples", "significance", "minimumEffect", "maximumRegression", "actions", "staleAfter", "confidenceBeforeStep",
                "pauseOn",
            ],
            at: path)
        var rule = SLOPolicy.RolloutRule()
        if let actions = map["actions"] {
            rule.actions = try list(actions, at: "\(path).actions").enumerated().map { index, item in
                guard let action = item as? String, ActionType.isValidToken(action) else {
                    throw PolicyError(path: "\(path).actions[\(index)]", reason: "expected an action such as purchase, got \(item)")
                }
                return action
            }
            if rule.actions.isEmpty { throw PolicyError(path: "\(path).actions", reason: "expected at least one action") }
        }
        if let verdicts = map["pauseOn"] {
            rule.pauseOn = Set(
                try list(verdicts, at: "\(path).pauseOn").enumerated().map { index, item in
                    guard let text = item as? String, let verdict = RolloutReport.Verdict(rawValue: text), [.rollback, .hold].contains(verdict) else {
                        throw PolicyError(path: "\(path).pauseOn[\(index)]", reason: "expected rollback or hold, got \(item)")
                    }
                    return verdict
                })
        }
        if let stale = map["staleAfter"] {
            rule.staleAfterSeconds = try duration(stale, at: "\(path).staleAfter")
            if rule.staleAfterSeconds == 0 { throw PolicyError(path: "\(path).staleAfter", reason: "expected a duration above 0") }
        }
        if let confidences = map["confidenceBeforeStep"] {
            for (key, value) in try self.map(confidences, at: "\(path).confidenceBeforeStep") {
                let keyPath = "\(path).confidenceBeforeStep.\(key)"
                guard let step = Int(key), PhasedRelease.steps.dropFirst().contains(step) else {
                    throw PolicyError(path: keyPath, reason: "expected a phased-release step: 2, 5, 10, 20, 50 or 100")
                }
                let percent = try number(value, at: keyPath)
                guard percent >= 50, percent < 100 else {
                    throw PolicyError(path: keyPath, reason: "expected a confidence in percent from 50 to below 100, got \(value)")
                }
                rule.confidenceBeforeStep[step] = percent / 100
            }
        }
        if let minimum = map["minimumSamples"] { rule.minimumSamples = try count(minimum, at: "\(path).minimumSamples") }
        if let level = map["significance"] { rule.significance = try probability(level, at: "\(path).significance") }
        for (key, keyPath) in [("minimumEffect", \SLOPolicy.RolloutRule.minimumEffect), ("maximumRegression", \.maximumRegression)] {
            guard let value = map[key] else { continue }
            let points = try number(value, at: "\(path).\(key)")
            // Below a hundredth of a point no rollout could ever show the difference.
            guard points >= 0.01, points < 100 else {
                throw PolicyError(path: "\(path).\(key)", reason: "expected percentage points from 0.01 to below 100, got \(value)")
            }
            rule[keyPath: keyPath] = points / 100
        }
        return rule
    }

    static func reconciliationRule(_ value: Any, at path: String) throws -> SLOPolicy.ReconciliationRule {
        let map = try self.map(value, at: path)
        try refuseUnknownKeys(
            map,
            known: ["expectGrantFor", "grantWithin", "environments", "ticketLookback", "page", "refunds", "grantsWithoutCharge", "timeToGrant"],
            at: path)
        var rule = SLOPolicy.ReconciliationRule()
        /// A list of upper-case tokens (notification types, environments).
        func names(_ value: Any, at path: String, example: String) throws -> Set<String> {
            Set(
                try list(value, at: path).enumerated().map { index, item in
                    guard let name = item as? String, !name.isEmpty, name.count <= 64,
                        name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) })
                    else { throw PolicyError(path: "\(path)[\(index)]", reason: "expected a name such as \(example), got \(item)") }
                    return name
                })
        }
        if let types = map["expectGrantFor"] {
            rule.grantExpectedFor = try names(types, at: "\(path).expectGrantFor", example: "ONE_TIME_CHARGE or SUBSCRIPTION_PURCHASED")
        }
        if let environments = map["environments"] {
            rule.environments = try names(environments, at: "\(path).environments", example: "Production or Sandbox")
        }
        if let grace = map["grantWithin"] {
            rule.graceSeconds = try duration(grace, at: "\(path).grantWithin")
            guard rule.graceSeconds > 0 else { throw PolicyError(path: "\(path).grantWithin", reason: "expected a duration above 0") }
        }
        if let lookback = map["ticketLookback"] {
            rule.ticketLookbackSeconds = try duration(lookback, at: "\(path).ticketLookback")
            guard rule.ticketLookbackSeconds > 0 else { throw PolicyError(path: "\(path).ticketLookback", reason: "expected a duration above 0") }
        }
        if let page = map["page"] {
            let pagePath = "\(path).page"
            let pageMap = try self.map(page, at: pagePath)
            try refuseUnknownKeys(pageMap, known: ["window", "share", "minimum"], at: pagePath)
            if let window = pageMap["window"] {
                rule.pageWindowSeconds = try duration(window, at: "\(pagePath).window")
                guard rule.pageWindowSeconds > 0 else { throw PolicyError(path: "\(pagePath).window", reason: "expected a duration above 0") }
            }
            if let share = pageMap["share"] { rule.pageShare = try probability(share, at: "\(pagePath).share") }
            if let minimum = pageMap["minimum"] { rule.pageMinimum = try count(minimum, at: "\(pagePath).minimum") }
        }
        if let refunds = map["refunds"] {
            let refundsPath = "\(path).refunds"
            let refundsMap = try self.map(refunds, at: refundsPath)
            try refuseUnknownKeys(refundsMap, known: ["window", "baselineDays", "minimumCount"], at: refundsPath)
            if let window = refundsMap["window"] {
                rule.refundWindowSeconds = try duration(window, at: "\(refundsPath).window")
                guard rule.refundWindowSeconds > 0, rule.refundWindowSeconds % .secondsPerHour == 0 else {
                    throw PolicyError(path: "\(refundsPath).window", reason: "expected whole hours such as 6h or 1d")
                }
            }
            if let days = refundsMap["baselineDays"] { rule.refundBaselineDays = try count(days, at: "\(refundsPath).baselineDays", maximum: 28) }
            if let minimum = refundsMap["minimumCount"] { rule.refundMinimumCount = try count(minimum, at: "\(refundsPath).minimumCount") }
        }
        if let uncharged = map["grantsWithoutCharge"] {
            let unchargedPath = "\(path).grantsWithoutCharge"
            let unchargedMap = try self.map(uncharged, at: unchargedPath)
            try refuseUnknownKeys(unchargedMap, known: ["stores", "wait"], at: unchargedPath)
            if let stores = unchargedMap["stores"] {
                rule.chargeNotifyingStores = Set(
                    try list(stores, at: "\(unchargedPath).stores").enumerated().map { index, item in
                        guard let name = item as? String, let store = Store(rawValue: name) else {
                            throw PolicyError(path: "\(unchargedPath).stores[\(index)]", reason: "expected apple or google, got \(item)")
                        }
                        return store
                    })
            }
            if let wait = unchargedMap["wait"] {
                rule.chargeWaitSeconds = try duration(wait, at: "\(unchargedPath).wait")
                guard rule.chargeWaitSeconds > 0 else { throw PolicyError(path: "\(unchargedPath).wait", reason: "expected a duration above 0") }
            }
        }
        if let timeToGrant = map["timeToGrant"] { rule.timeToGrant = try self.timeToGrant(timeToGrant, at: "\(path).timeToGrant") }
        return rule
    }

    /// `{target: 99, within: 60s, window: 28d, owner: …, runbook: …}`, or `off` (false) for none.
    static func timeToGrant(_ value: Any, at path: String) throws -> SLOPolicy.TimeToGrantObjective? {
        if let enabled = value as? Bool, !enabled { return nil }
        if let text = value as? String, text == "off" { return nil }
        var map = try self.map(value, at: path)
        try refuseUnknownKeys(map, known: ["target", "within", "window", "owner", "runbook"], at: path)
        var withinSeconds = SLOPolicy.TimeToGrantObjective.standard.withinSeconds
        if let within = map.removeValue(forKey: "within") {
            guard let text = within as? String, let step = TimeStep(parsing: text), step.seconds > 0, step.seconds <= .secondsPerDay else {
                throw PolicyError(path: "\(path).within", reason: "expected a duration from 1s to 1d such as 30s, 60s, 5m, got \(within)")
            }
            withinSeconds = step.seconds
        }
        if map["target"] == nil { map["target"] = SLOPolicy.TimeToGrantObjective.standard.objective.target * 100 }
        map["actionType"] = ActionType.purchase.rawValue
        return SLOPolicy.TimeToGrantObjective(objective: try objective(map, at: path), withinSeconds: withinSeconds)
    }

    static func rule(_ value: Any, at path: String) throws -> SLOPolicy.BurnRateRule {
        let map = try self.map(value, at: path)
        if map["burnRate"] != nil {
            throw PolicyError(
                path: "\(path).burnRate",
                reason: "the threshold is derived: give budgetShare, the percent of the error budget spent over longWindow "
                    + "(burn rate = budgetShare × the objective's window / longWindow: 2 % of 30 days in 1 h is 14.4)")
        }
        try refuseUnknownKeys(map, known: ["severity", "longWindow", "shortWindow", "budgetShare"], at: path)
        guard let severityText = map["severity"] as? String, let severity = Severity(rawValue: severityText) else {
            throw PolicyError(path: "\(path).severity", reason: "expected page or ticket, got \(map["severity"] ?? "nothing")")
        }
        guard let long = map["longWindow"], let short = map["shortWindow"], let share = map["budgetShare"] else {
            throw PolicyError(path: path, reason: "longWindow, shortWindow and budgetShare are required")
        }
        let percent = try number(share, at: "\(path).budgetShare")
        guard percent > 0, percent <= 100 else {
            throw PolicyError(path: "\(path).budgetShare", reason: "expected a percentage above 0 and at most 100, got \(share)")
        }
        let rule = SLOPolicy.BurnRateRule(
            severity: severity, longWindowSeconds: try duration(long, at: "\(path).longWindow"),
            shortWindowSeconds: try duration(short, at: "\(path).shortWindow"), budgetShare: percent / 100)
        guard rule.shortWindowSeconds > 0, rule.shortWindowSeconds < rule.longWindowSeconds else {
            throw PolicyError(path: "\(path).shortWindow", reason: "must be above 0 and shorter than longWindow")
        }
        return rule
    }
}
