import PurchaseSLIAnalysis
import PurchaseSLICore

/// The words of a rollout verdict: what to do with the phased release, and why, with event data escaped
/// for one output.
struct RolloutNarrative {
    let report: RolloutReport
    let escaping: TextEscaping
    /// The zone its times are written in.
    let zone: TimeZoneOffsets

    private var candidate: String { escaping.escape(report.candidate) }
    private var baseline: String { escaping.escape(report.baseline) }
    private var testedCount: Int { report.comparisons.filter(\.isTested).count }

    /// What to do, first thing said.
    var headline: String {
        switch report.verdict {
        case .rollback:
            "ROLL BACK \(candidate): purchases are lost on \(candidate) that succeed on \(baseline)\(costClause). "
                + (pausedReleases.map { (suspectFlag.map { "Turn \($0) off for \(candidate); " } ?? "") + $0.prefix(1).uppercased() + $0.dropFirst() }
                    ?? (suspectFlag.map { "Turn \($0) off for \(candidate) and pause" } ?? "Pause")
                        + " its phased release in App Store Connect")
                + "; resume with a fixed build\(flagNote)\(unpausedNote)."
        case .hold:
            "HOLD \(candidate): " + (pausedReleases.map { "\($0); " } ?? "pause its phased release in App Store Connect and ")
                + "find out why before more users get it; "
                + "purchases still succeed, but the flow misbehaves\(costClause)\(suspectFlag.map { "; look first at \($0)" } ?? flagNote)"
                + "\(unpausedNote)."
        case .proceed:
            "PROCEED with \(candidate): nothing is worse than on \(baseline); \(nextStepAdvice)."
        case .insufficientData:
            "WAIT on \(candidate): not enough seen yet to rule out a drop of the purchase flow; "
                + (tooLateAdvice ?? "\(holdStepAdvice) and check again later.")
        case .stale:
            "NO VERDICT on \(candidate): no recent events, so nothing here describes the release now; find out why events "
                + "stopped arriving (the alerts page NoPurchaseEvents) before deciding."
        case .gone:
            "GONE \(candidate): it has sent no events for \(PhasedRelease.gapHours) hours or more while other versions did, so "
                + "no release of it is live and there is nothing to proceed with or roll back\(lastLiveClause)."
        }
    }

    /// "its App Store phased release is paused and its Google Play staged rollout halted" when `serve`
    /// paused them (live, or found them paused already); nil when no store's release is.
    private var pausedReleases: String? {
        let paused = Set(report.actions.filter { !$0.isDryRun && ($0.outcome == .paused || $0.outcome == .alreadyPaused) }.map(\.store))
        let parts = [
            paused.contains(.apple) ? "its App Store phased release is paused" : nil,
            paused.contains(.google) ? "\(paused.contains(.apple) ? "" : "its ")Google Play staged rollout halted" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " and its ")
    }

    /// "; its Google Play staged rollout could NOT be halted: halt it by hand" for each store whose live
    /// action was refused or failed; else nothing.
    private var unpausedNote: String {
        let stores = Set(report.actions.filter { !$0.isDryRun && ($0.outcome == .refused || $0.outcome == .failed) }.map(\.store))
        return stores.sorted().map { store in
            store == .apple
                ? "; its App Store phased release could NOT be paused: pause it by hand"
                : "; its Google Play staged rollout could NOT be halted: halt it by hand"
        }.joined()
    }

    /// " (its last verdict while live, at 2026-11-18T00:00:00Z: rollback)", when the candidate is gone.
    private var lastLiveClause: String {
        for reason in report.reasons {
            guard case .candidateGone(_, let last?) = reason else { continue }
            return " (its last verdict while live, at \(zone.timestamp(last.timeSeconds)): \(last.verdict.rawValue))"
        }
        return ""
    }

    /// The feature flag to turn off, named only when a variant explains the regression: the candidate's
    /// only one, or one faring significantly worse than its others, with the numbers; else nil.
    private var suspectFlag: String? {
        guard let suspect = report.suspectVariant else { return nil }
        let variant = escaping.escape(suspect.variant)
        guard let others = suspect.othersRate else {
            return "the feature flag of variant \(variant) (all of \(candidate)'s events carry it; \(variantNumbers(suspect)))"
        }
        guard suspect.isSignificantlyWorse else { return nil }
        return "the feature flag of variant \(variant) (\(variantNumbers(suspect)) there, \(NumberText.percent(others)) of "
            + "\(NumberText.count(suspect.othersTrials)) on the other variants)"
    }

    /// When the variants fare alike: " (no feature flag explains it: its variants fare alike: …)"; else nothing.
    private var flagNote: String {
        guard let suspect = report.suspectVariant, let others = suspect.othersRate, !suspect.isSignificantlyWorse else { return "" }
        return " (no feature flag explains it: its variants fare alike, \(variantNumbers(suspect)) on \(escaping.escape(suspect.variant)), "
            + "\(NumberText.percent(others)) of \(NumberText.count(suspect.othersTrials)) on the others)"
    }

    /// "purchase success rate 98.4 % of 1,619".
    private func variantNumbers(_ suspect: VariantRate) -> String {
        "\(escaping.escape(suspect.actionType)) \(suspect.metric.title) \(NumberText.percent(suspect.rate)) of \(NumberText.count(suspect.trials))"
    }

    /// What the regressions cost so far: the first losing one's excess events.
    private var costClause: String {
        for reason in report.reasons {
            guard case .regression(let comparison) = reason, let excess = comparison.excessEvents, excess >= 1 else { continue }
            return " (so far \(cost(comparison, excess: excess)))"
        }
        return ""
    }

    /// "about 16 pro-monthly purchases failed that would have succeeded on 4.11.0".
    private func cost(_ comparison: RolloutComparison, excess: Double) -> String {
        let action = escaping.escape(comparison.slice.actionType)
        let attempts = action.hasSuffix("y") ? action.dropLast() + "ies" : action + "s"
        let what = comparison.slice.slice.map { "\(escaping.escape($0.value ?? "")) \(attempts)" } ?? attempts
        let count = "about \(NumberText.count(Int64(excess.rounded())))"
        let amounts = comparison.lostAmounts.sorted { $0.key < $1.key }
            .map { "\(NumberText.count(Int64($0.value.rounded()))) \(escaping.escape($0.key))" }
        let worth = amounts.isEmpty ? "" : ", worth about \(amounts.joined(separator: " + ")) at their latest price"
        return switch comparison.metric {
        case .successRate: "\(count) \(what) failed that would have succeeded on \(baseline)\(worth)"
        case .conflictRate: "\(count) more 409s among \(what) than on \(baseline)"
        case .cancelRate: "\(count) more cancelled \(what) than on \(baseline)"
        case .unfinishedRate: "\(count) more unfinished \(what) than on \(baseline)"
        }
    }

    /// What a PROCEED lets happen next, by where the release stands.
    private var nextStepAdvice: String {
        guard let position = report.position else {
            guard let step = report.progress?.step else { return "let the release continue" }
            return "it is safe to take the release's next step (its events appear to be at \(step) % of its platform's)"
        }
        if position.isComplete { return "it reaches everyone already (100 %): keep the feature flag at hand" }
        let at = position.percent.map(Self.percent) ?? "its current share"
        switch position.source {
        case .playConsole:
            return position.isPaused
                ? "resume its staged rollout in the Play Console (halted at \(at))"
                : "you may raise its staged rollout in the Play Console from \(at)"
        case .appStoreConnect(let day), .appleSchedule(let day):
            if position.isPaused { return "resume its phased release in App Store Connect (paused on day \(day), at \(at))" }
            return "let the phased release go on: day \(day + 1) takes it from \(at) to \(position.nextPercent.map { "\($0) %" } ?? "100 %")"
        }
    }

    /// What a WAIT asks of the release meanwhile, by where it stands.
    private var holdStepAdvice: String {
        guard let position = report.position else {
            guard let step = report.progress?.step else { return "keep the release at its current step" }
            return "keep the release where it is (its events appear to be at \(step) % of its platform's)"
        }
        if position.isComplete {
            return "it reaches everyone already (100 %), so pausing no longer keeps users from it: keep the feature flag at hand"
        }
        let at = position.percent.map(Self.percent) ?? "its current share"
        switch position.source {
        case .playConsole:
            return position.isPaused ? "keep its staged rollout halted (at \(at))" : "keep its staged rollout at \(at)"
        case .appStoreConnect(let day), .appleSchedule(let day):
            if position.isPaused { return "keep it paused at \(at)\(pauseLimitClause(position))" }
            return "keep the phased release at \(at) (pause it in App Store Connect before day \(day + 1) takes it to "
                + "\(position.nextPercent.map { "\($0) %" } ?? "100 %"))"
        }
    }

    /// When a blocking comparison needs more events than arrive before the release reaches everyone: the
    /// WAIT's advice then (pause to gain time, or decide without the evidence); else nil.
    private var tooLateAdvice: String? {
        guard let position = report.position, let everyone = position.reachesEveryoneSeconds else { return nil }
        let late = report.reasons.contains { reason in
            guard case .notYetConclusive(_, _, let more, let expectedBy, true) = reason, (more ?? 0) > 0 else { return false }
            return (expectedBy ?? .max) > everyone
        }
        guard late, let at = position.percent.map(Self.percent) else { return nil }
        return "at the current rate that takes longer than the release has: it reaches everyone by \(zone.timestamp(everyone)). "
            + "Pause it in App Store Connect to hold it at \(at) while the evidence grows (Apple allows \(StoreRelease.applePauseLimitDays) "
            + "days of pauses in all), or decide without it; check again later."
    }

    /// "; paused 4 days in all: 26 days left of Apple's 30-day limit, after which the release goes on" when
    /// App Store Connect counted the pauses; else nothing.
    private func pauseLimitClause(_ position: RolloutReport.Position) -> String {
        guard let left = position.pauseDaysLeft else { return "" }
        return "; \(left) day\(left == 1 ? "" : "s") left of Apple's \(StoreRelease.applePauseLimitDays)-day pause limit, after which "
            + "the release goes on"
    }

    /// "5 %", "33.3 %".
    private static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) %" : String(format: "%.1f %%", value)
    }

    /// Where the release stands and where that comes from: "App Store phased release day 3 of 7 (App Store
    /// Connect): 5 % of automatic-update users", "phased release day 3: 5 % of automatic-update users on
    /// Apple's schedule (…)", "Google Play staged rollout at 20 % of users (Play Console)"; with the events'
    /// share beside it, which users who update by hand add to.
    private func positionText(_ progress: RolloutReport.Progress) -> String {
        let share = progress.share.map { "; its events are \(NumberText.percent($0)) of its platform's over the last day" } ?? ""
        guard let position = report.position else {
            guard let step = progress.step else { return "release day \(progress.day)" }
            return "release day \(progress.day), its events appear to be at \(step) %"
                + (progress.share.map { " (\(NumberText.percent($0)) of its platform's events over the last day)" } ?? "")
        }
        let at = position.percent.map(Self.percent) ?? "an unknown share"
        switch position.source {
        case .appStoreConnect(let day):
            return "App Store phased release day \(day) of 7 (App Store Connect): \(at) of automatic-update users"
                + (position.isPaused ? ", PAUSED\(pauseLimitClause(position))" : "") + share + " (users who update by hand come on top)"
        case .playConsole:
            return "Google Play staged rollout \(position.isPaused ? "HALTED at" : "at") \(at) of users (Play Console)" + share
        case .appleSchedule(let day):
            let schedule =
                day > 7
                ? "past Apple's 7 days: \(at) of automatic-update users unless it was paused"
                : "\(at) of automatic-update users on Apple's schedule (1, 2, 5, 10, 20, 50, 100 % over 7 days, unless paused)"
            return "phased release day \(day): " + schedule + share + " (users who update by hand come on top)"
        }
    }

    /// The range compared, and where the phased release appears to be.
    var scope: String {
        var text =
            (report.app.map { "app \(escaping.escape($0)): " } ?? "")
            + "compared \(candidate) with \(baseline) over the same hours, \(zone.timestamp(report.fromSeconds)) "
            + "to \(zone.timestamp(report.toSeconds)); \(testedCount) comparisons tested, each valid however often it is checked"
        if let progress = report.progress {
            if let step = progress.step, report.verdict == .gone {
                text += "; release day \(progress.day), its events had appeared to reach \(step) %"
            } else {
                text += "; " + positionText(progress)
            }
            if let earlier = progress.earlierRelease {
                text +=
                    "; an earlier release of \(candidate) (\(zone.timestamp(earlier.lowerBound)) to "
                    + "\(zone.timestamp(earlier.upperBound))) is left out: --since compares from an earlier time"
            }
        }
        return text
    }

    /// One sentence per action `serve` took on the stores' releases: what was done, when, and how a person
    /// resumes it once fixed (only a person resumes).
    var actions: [String] {
        report.actions.map { Self.sentence($0, escaping: escaping, zone: zone) }
    }

    /// What was done to one store's release, when, and how a person resumes it.
    static func sentence(_ action: RolloutAction, escaping: TextEscaping, zone: TimeZoneOffsets) -> String {
        let version = escaping.escape(action.candidate)
        let detail = escaping.escape(action.detail)
        let when = zone.timestamp(action.timeSeconds)
        let step = action.step.map { " at \($0) %" } ?? ""
        let (store, release, resume) =
            action.store == .apple
            ? (
                "App Store", "phased release",
                // The menu path's ">" are markup in HTML and Slack: written as each output requires.
                escaping.escapeMarkup("resume it in App Store Connect > Apps > the app > Distribution > ") + version
                    + escaping.escapeMarkup(" > Phased Release for Automatic Updates > Resume Phased Release once fixed, or release a fixed build")
            )
            : (
                "Google Play", "staged rollout",
                escaping.escapeMarkup(
                    "resume it in Play Console > Test and release > the track > Releases > Resume rollout once fixed, or roll out a fixed build")
            )
        switch action.outcome {
        case .paused:
            return "\(store): \(release) of \(version) \(action.store == .apple ? "paused" : "halted")\(step) at \(when) on the "
                + "\(action.verdict) verdict (\(detail)); \(resume)"
        case .wouldPause:
            return "DRY RUN, \(store): \(detail) (\(when), on the \(action.verdict) verdict); nothing was changed: "
                + "--rollout-actions live acts"
        case .alreadyPaused:
            return "\(store): \(detail) (checked at \(when)): left alone"
        case .notInPhasedRelease:
            return "\(store): left alone: \(detail) (checked at \(when))"
        case .refused:
            let verb = action.store == .apple ? "pause" : "halt"
            return "\(store): COULD NOT \(verb) the \(release) of \(version) at \(when): \(detail); \(verb) it by hand"
        case .failed:
            return "\(store): pausing the \(release) of \(version) failed at \(when) (attempt \(action.attempts)): \(detail); "
                + "tried again at the next check"
        case .awaitingConfirmation:
            let verb = action.store == .apple ? "pause" : "halt"
            return "\(store): AWAITING CONFIRMATION to \(verb) the \(release) of \(version)\(step) on the \(action.verdict) verdict "
                + "(\(when)): nothing changes until a person confirms (purchase-sli rollout confirm \(action.id)); \(detail)"
        case .confirmed:
            let verb = action.store == .apple ? "pauses" : "halts"
            return "\(store): \(detail); serve's next rollout check \(verb) the \(release) of \(version)"
        }
    }

    /// One sentence per reason.
    var reasons: [String] {
        report.reasons.map(sentence)
    }

    /// One sentence per incident whose alerts named the candidate, from its record: "incident
    /// 20261117-1726-086dbf (settled): incident cost: ≈ 5 purchases (0–15) …".
    var incidents: [String] {
        report.incidents.map { record in
            var text = "incident \(record.id) (\(record.status.rawValue))"
            if let cost = record.costText { text += ": " + cost.rendered(escaping, zone: zone) }
            if let acknowledged = record.acknowledgementText { text += "; " + acknowledged.rendered(escaping, zone: zone) }
            return text
        }
    }

    /// "purchase" or "purchase, planID=pro_monthly".
    func sliceName(_ labels: SeriesLabels) -> String {
        labels.pairs.dropFirst().reduce(escaping.escape(labels.actionType)) { text, pair in
            text + ", \(pair.0)=\(escaping.escape(pair.1))"
        }
    }

    /// The comparison's numbers: both rates with their trials, the change and its bounds.
    func numbers(_ comparison: RolloutComparison) -> String {
        var text =
            "\(NumberText.percent(comparison.candidate.rate)) of \(NumberText.count(comparison.candidate.trials)) "
            + "on \(candidate) vs \(NumberText.percent(comparison.baseline.rate)) of "
            + "\(NumberText.count(comparison.baseline.trials)) on \(baseline)"
        if let effect = comparison.effect {
            text += " (\(NumberText.points(effect))"
            if let interval = comparison.effectInterval {
                text += "; 95 % bounds \(NumberText.signed(interval.lowerBound)) to \(NumberText.signed(interval.upperBound))"
            }
            text += ")"
        }
        return text
    }

    func sentence(_ reason: RolloutReport.Reason) -> String {
        switch reason {
        case .regression(let comparison):
            var text = "\(comparison.metric.title) of \(sliceName(comparison.slice)): \(numbers(comparison))"
            if let excess = comparison.excessEvents, excess >= 1 { text += "; \(cost(comparison, excess: excess))" }
            return text
        case .ruledOut(let comparison, let largestDrop, let allowed, let confidence):
            var text =
                "success rate of \(sliceName(comparison.slice)): \(numbers(comparison)); a drop of more than "
                + "\(NumberText.magnitude(allowed)) is ruled out with \(NumberText.percent(confidence)) confidence"
            if let largestDrop { text += " (the largest still possible: \(NumberText.magnitude(largestDrop)))" }
            return text
        case .notYetConclusive(let comparison, let allowed, let more, let expectedBy, let blocking):
            var text =
                "\(sliceName(comparison.slice)): not yet conclusive (\(NumberText.count(comparison.candidate.trials)) events on "
                + "\(candidate)"
            if let more, more > 0 {
                text += "; about \(NumberText.count(more)) more"
                if let expectedBy, expectedBy - report.toSeconds <= 30 * .secondsPerDay {
                    text += " expected by \(zone.timestamp(expectedBy)) at the current rate"
                    if let everyone = report.position?.reachesEveryoneSeconds, expectedBy > everyone {
                        text += ", after the release reaches everyone (\(zone.timestamp(everyone)))"
                    }
                } else {
                    text += expectedBy == nil ? " needed" : " needed, over a month away at the current rate"
                }
            }
            text += ") to rule out a drop of more than \(NumberText.magnitude(allowed))"
            return blocking ? text : text + "; does not hold the release back"
        case .noTraffic:
            return "the baseline has too few events of the actions that carry the purchase flow to compare with"
        case .staleData(let newest, let age):
            guard let newest, let age else { return "no event at all before \(zone.timestamp(report.toSeconds))" }
            return "STALE: the newest event is \(NumberText.duration(age)) old (\(zone.timestamp(newest)))"
        case .candidateGone(let lastSeen, _):
            return "GONE: no events of \(candidate) (under \(NumberText.percent(PhasedRelease.presenceShare)) of its platforms' events "
                + "each hour) since \(zone.timestamp(lastSeen)); a new release of it starts a new comparison"
        }
    }
}
