import Foundation
import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
public import PurchaseSLIRendering

extension WeeklyReport {
    /// "Nov 9–15, 2026" for the week, its days in its zone.
    public var dateRange: String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func parts(_ seconds: Int64) -> (month: String, day: Int, year: Substring) {
            let text = zone.date(seconds)
            return (months[(Int(text.dropFirst(5).prefix(2)) ?? 1) - 1], Int(text.dropFirst(8).prefix(2)) ?? 1, text.prefix(4))
        }
        let first = parts(week.startSeconds)
        let last = parts(week.endSeconds - 1)
        return first.month == last.month
            ? "\(first.month) \(first.day)–\(last.day), \(last.year)"
            : "\(first.month) \(first.day)–\(last.month) \(last.day), \(last.year)"
    }

    /// A paragraph a lead can paste into the review notes: attainment per action, the significant
    /// changes, the incidents, the top failure reason. Event data is escaped for `escaping`.
    public func summary(escaping: TextEscaping) -> String {
        var sentences: [String] = []
        let attainment = actions.compactMap { action -> String? in
            guard let objective = action.objective, let rate = action.current.successRate, let met = action.metObjective else { return nil }
            let byRevenue = objective.weight == .revenue ? " (\(NumberText.percent(action.judged.successRate)) of revenue)" : ""
            // A 409 counts as a success (the user has what they paid for) but says the flow sent twice: apart.
            let valid = Double(action.current.valid)
            return "\(escaping.escape(action.actionType)) \(NumberText.percent(rate)) of \(NumberText.count(action.current.valid)) "
                + "(granted \(NumberText.percent(Double(action.current.success) / valid)), "
                + "409 already granted \(NumberText.percent(Double(action.current.alreadyGranted) / valid)); "
                + "\(met ? "met" : "missed") \(NumberText.percent(objective.target))\(byRevenue), "
                + "\(NumberText.percent(action.budgetSpent)) of the error budget spent)"
        }
        sentences.append(
            (app.map { "\(escaping.escape($0)), w" } ?? "W") + "eek \(week) (\(dateRange)): success rates "
                + (attainment.isEmpty ? "not measured, no valid event" : attainment.joined(separator: "; "))
                + ".")
        let changes = actions.flatMap { action in
            action.comparisons.filter { $0.isSignificant(at: Self.significance) }.map { comparison in
                "\(escaping.escape(action.actionType)) \(comparison.metric.title) \(comparison.isWorse ? "worsened" : "improved") "
                    + "from \(NumberText.percent(comparison.previous)) to \(NumberText.percent(comparison.current))"
            }
        }
        let worseSlices = slices.filter { $0.successRate.isSignificant(at: Self.significance) && $0.successRate.isWorse }
            .prefix(3).map { slice in
                "\(escaping.escape(slice.slice.actionType)) \(slice.slice.slice!.dimension.rawValue)=\(escaping.escape(slice.slice.slice!.value ?? ""))"
                    + " success rate \(NumberText.percent(slice.successRate.previous)) to \(NumberText.percent(slice.successRate.current))"
            }
        if daysWithEvents.current < 7 {
            sentences.append("This week holds events on \(daysWithEvents.current) of its 7 days.")
        }
        if previousWeekIsPartial {
            sentences.append(
                "\(week.previous) holds events on \(daysWithEvents.previous) of its 7 days: its counts are not compared with this week's.")
        }
        if !hasPreviousWeek {
            sentences.append("No previous week (\(week.previous) holds no event) to compare with.")
        } else if changes.isEmpty && worseSlices.isEmpty {
            sentences.append("No significant change from \(week.previous).")
        } else {
            sentences.append("Significant changes from \(week.previous): " + (changes + worseSlices).joined(separator: "; ") + ".")
        }
        var ungranted: Int64 = 0
        var refunds: Int64 = 0
        var amounts: [String: Double] = [:]
        for row in moneyAtRisk {
            ungranted += row.current.ungranted
            refunds += row.current.refunds
            amounts.merge(row.current.ungrantedAmounts, uniquingKeysWith: +)
        }
        if ungranted + refunds > 0 {
            let money: String = amounts.isEmpty ? "" : " (" + Self.money(amounts) + ")"
            sentences.append(
                "Money at risk: \(ungranted) charge\(ungranted == 1 ? "" : "s") not granted\(money), \(refunds) refund\(refunds == 1 ? "" : "s").")
        }
        if let coverage = StoreCoverageText.sentence(storeCoverage.current, period: "this week", zone: zone) {
            sentences.append("Store figures: \(coverage).")
        }
        let incidents = self.incidents
        let pages = incidents.filter { $0.severity == .page }
        if incidents.isEmpty {
            sentences.append(holdsNoEvent ? "No alert could fire: the week holds no event." : "No alert fired.")
        } else {
            let longest = incidents.max { $0.duration < $1.duration }!
            sentences.append(
                "\(incidents.count) incident\(incidents.count == 1 ? "" : "s") (\(pages.count) paged) from \(episodes.count) alert "
                    + "episode\(episodes.count == 1 ? "" : "s"); the longest, \(longest.episodes[0].finding.kind.rawValue) on "
                    + "\(escaping.escape(labels(longest.episodes[0]))), lasted \(NumberText.duration(longest.duration)).")
            let worth = incidentsWorth
            if !worth.isEmpty { sentences.append("What the incidents cost: ≈ \(Self.money(worth)).") }
            if incidentsUnpriced >= 0.5 {
                sentences.append("Not priced: ≈ \(NumberText.count(Int64(incidentsUnpriced.rounded()))) lost restores, retries and purchases.")
            }
        }
        if let top = errors.first {
            let before =
                !hasPreviousWeek ? "" : top.previous == 0 ? ", none the week before" : ", \(NumberText.count(top.previous)) the week before"
            sentences.append(
                "Top failure reason\(top.roseSignificantly ? ", the one that rose most" : ""): \"\(escaping.escape(String(top.description.prefix(120))))\" "
                    + "(\(NumberText.count(top.current))\(before)).")
        }
        return sentences.joined(separator: " ")
    }

    /// A failure reason's change in words: "+367 %", "new" (none the week before), "–" without a week
    /// before or beside a partial one; and its note: the rise's p-value when significant, "n.s.", or
    /// nothing to compare with.
    func errorChange(_ error: ErrorWeek) -> (change: String, note: String) {
        guard hasPreviousWeek else { return ("–", "no previous week") }
        let note = error.roseSignificantly ? NumberText.pValue(error.risePValue!) : "n.s."
        // A count of a few days of the week before is no baseline for a whole week's (+1100 %); the rise,
        // tested per valid event, still holds.
        guard !previousWeekIsPartial else { return ("– (\(week.previous): \(daysWithEvents.previous) of 7 days)", note) }
        let change = error.previous == 0 ? "new" : NumberText.signedPercent(Double(error.current) / Double(error.previous) - 1)
        return (change, note)
    }

    /// A change in words, for every format: "▼ −0.31 points", its note ("p = 0.002", "n.s.", "too few to
    /// test") and whether it is significant; nil when a week has no trials.
    func changeWords(_ comparison: PeriodComparison) -> (change: String, note: String, isSignificant: Bool)? {
        guard let change = comparison.change else { return nil }
        let significant = comparison.isSignificant(at: Self.significance)
        let symbol = change > 0 ? "▲" : change < 0 ? "▼" : "="
        let note = comparison.adjustedPValue.map { significant ? NumberText.pValue($0) : "n.s." } ?? "too few to test"
        return ("\(symbol) \(NumberText.points(change))", note, significant)
    }

    /// "The incidents cost ≈ 1,390.20 USD (…). Purchases failed beyond the 99.0 % objective in 3 slices; most
    /// in offerID=winback-50: ≈ 41 (30–52), ≈ 205.00 USD." (untrusted values escaped for `escaping`).
    func costSentence(escaping: TextEscaping) -> String {
        var sentences: [String] = []
        let worth = incidentsWorth
        sentences.append(
            incidentRecords.isEmpty
                ? "No incident."
                : worth.isEmpty
                    ? "The incidents cost nothing that can be priced."
                    : "The incidents cost ≈ \(Self.money(worth)) together (purchases lost as estimated, charges in full).")
        if !incidentRecords.isEmpty, incidentsUnpriced >= 0.5 {
            sentences.append(
                "Not in that sum: ≈ \(NumberText.count(Int64(incidentsUnpriced.rounded()))) lost restores, retries and purchases of "
                    + "products without a known price.")
        }
        if let top = purchasesLost.first {
            let target = actions.first { $0.actionType == ActionType.purchase.rawValue }?.objective?.target
            sentences.append(
                "Purchases failed beyond the \(NumberText.percent(target)) objective, beyond chance, in \(purchasesLost.count) "
                    + "slice\(purchasesLost.count == 1 ? "" : "s") (products, plans, offers, app versions); the most in "
                    + "\(top.slice.dimension.rawValue)=\(escaping.escape(top.slice.value ?? "")): \(lostText(top.lost))"
                    + (top.lost.worth.isEmpty ? "" : ", ≈ \(Self.money(top.lost.worth))") + ".")
        } else if actions.contains(where: { $0.actionType == ActionType.purchase.rawValue && $0.objective != nil }) {
            sentences.append("No product, plan, offer or app version failed beyond the purchase objective beyond chance.")
        }
        return sentences.joined(separator: " ")
    }

    /// "≈ 41 (30–52)".
    func lostText(_ lost: LostPurchases) -> String {
        "≈ \(NumberText.count(Int64(lost.purchases.rounded()))) "
            + "(\(NumberText.count(Int64(lost.interval.lowerBound.rounded())))–\(NumberText.count(Int64(lost.interval.upperBound.rounded()))))"
    }

    /// "incident cost: … (this week: ≈ 120.00 USD)": incident `id`'s cost in all, and the week's share when
    /// part of it fell in another week ("none of it this week" when all did); nil without a record.
    func incidentCostText(ofIncident id: String?) -> AlertText? {
        guard let id, let record = incidentRecords[id], let text = record.costText else { return nil }
        let share = costShare(ofIncident: id) ?? LossTimeline.Step(startSeconds: week.startSeconds)
        guard share.worth != record.losses.total.worth else { return text }
        if share.worth.isEmpty, share.counted == 0, share.lostSuccesses < 0.5 { return text + " (\(words: "none of it this week"))" }
        return text + " (\(words: "this week"): " + (AlertText.amounts(share.worth).map { "≈ " + $0 } ?? "nothing priced") + ")"
    }

    /// The week's incidents: its episodes grouped by the incident each belongs to, by start.
    var incidents: [WeekIncident] {
        var groups: [String: [AlertReport]] = [:]
        var order: [String] = []
        for (index, episode) in episodes.enumerated() {
            let key = episode.incident?.id ?? "episode \(index)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(episode)
        }
        return order.map {
            WeekIncident(id: groups[$0]![0].incident?.id, episodes: groups[$0]!, weekStart: week.startSeconds, weekEnd: week.endSeconds)
        }
    }

    /// "AlreadyGrantedSpike actionType=purchase, appVersion=4.12.0 (3 episodes); CancelRateSpike …" (unescaped).
    func alerts(of incident: WeekIncident) -> [(kind: String, labels: String, episodes: Int)] {
        var seen: [AlertFinding.Identity: Int] = [:]
        var order: [AlertReport] = []
        for episode in incident.episodes {
            if seen[episode.finding.identity] == nil { order.append(episode) }
            seen[episode.finding.identity, default: 0] += 1
        }
        return order.map { ($0.finding.kind.rawValue, labels($0), seen[$0.finding.identity]!) }
    }

    /// "actionType=purchase, planID=pro-monthly" for an episode (unescaped).
    func labels(_ incident: AlertReport) -> String {
        incident.labelPairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
    }
}

/// One incident of the week: its episodes (cut to the week).
struct WeekIncident {
    /// Its id, nil for an episode evaluated without incidents.
    var id: String?
    /// Its episodes, by start.
    var episodes: [AlertReport]
    /// The week's start and end (the end also for one still firing).
    var weekStart: Int64, weekEnd: Int64

    /// The highest severity its alerts reached within the week (a page before the week's end counts even
    /// when the alert is a ticket by then; one of the week before does not).
    var severity: Severity { episodes.map { $0.peakSeverity(from: weekStart, until: weekEnd) }.max() ?? .ticket }
    /// When its first alert started (within the week).
    var startsAt: Int64 { episodes.map(\.startsAt).min() ?? weekEnd }
    /// When the trouble first showed in the events (``Incident/firstBadSeconds``), else its start.
    var firstBadSeconds: Int64 { episodes.first?.incident.map { min($0.firstBadSeconds, startsAt) } ?? startsAt }
    /// The address of its report, as its alerts link to it, or nil.
    var reportURL: String? { episodes.lazy.compactMap(\.incidentURL).first }
    /// When its last alert stopped, or nil while one fires at the week's end.
    var endsAt: Int64? { episodes.contains { $0.endsAt == nil } ? nil : episodes.compactMap(\.endsAt).max() }
    /// How long it lasted within the week.
    var duration: Int64 { (endsAt ?? weekEnd) - startsAt }
}
