import PurchaseSLIAnalysis
import PurchaseSLICore

/// The words of a rollout verdict: what to do with the phased release, and why, with event data escaped
/// for one output.
struct RolloutNarrative {
    let report: RolloutReport
    let escaping: TextEscaping

    private var candidate: String { escaping.escape(report.candidate) }
    private var baseline: String { escaping.escape(report.baseline) }
    private var testedCount: Int { report.comparisons.filter(\.isTested).count }

    /// What to do, first thing said.
    var headline: String {
        switch report.verdict {
        case .rollback:
            "ROLL BACK \(candidate): purchases are lost on \(candidate) that succeed on \(baseline). Turn the feature "
                + "flag off for \(candidate) and pause its phased release in App Store Connect; resume with a fixed build."
        case .hold:
            "HOLD \(candidate): pause its phased release in App Store Connect and find out why before more users get it; "
                + "purchases still succeed, but the flow misbehaves."
        case .proceed:
            "PROCEED with \(candidate): nothing is worse than on \(baseline); let the phased release continue."
        case .insufficientData:
            "WAIT on \(candidate): too little data to decide; keep the phased release at its current step and check again later."
        case .stale:
            "NO VERDICT on \(candidate): no recent events, so nothing here describes the release now; find out why events "
                + "stopped arriving (the alerts page NoPurchaseEvents) before deciding."
        }
    }

    /// The range compared.
    var scope: String {
        "compared \(candidate) with \(baseline) over the same hours, \(RFC3339.format(seconds: report.fromSeconds)) "
            + "to \(RFC3339.format(seconds: report.toSeconds)); \(testedCount) comparisons tested"
    }

    /// One sentence per reason.
    var reasons: [String] {
        report.reasons.map(sentence)
    }

    /// "purchase" or "purchase, planID=pro_monthly".
    func sliceName(_ labels: SeriesLabels) -> String {
        labels.pairs.dropFirst().reduce(escaping.escape(labels.actionType)) { text, pair in
            text + ", \(pair.0)=\(escaping.escape(pair.1))"
        }
    }

    /// The comparison's numbers: both rates with their trials, the change and its interval.
    func numbers(_ comparison: RolloutComparison) -> String {
        var text = "\(NumberText.percent(comparison.candidate.rate)) of \(NumberText.count(comparison.candidate.trials)) "
            + "on \(candidate) vs \(NumberText.percent(comparison.baseline.rate)) of "
            + "\(NumberText.count(comparison.baseline.trials)) on \(baseline)"
        if let effect = comparison.effect, let interval = comparison.effectInterval {
            text += " (\(NumberText.points(effect)); 95 % interval \(NumberText.signed(interval.lowerBound)) to "
                + "\(NumberText.signed(interval.upperBound)))"
        }
        return text
    }

    private func sentence(_ reason: RolloutReport.Reason) -> String {
        switch reason {
        case .regression(let comparison):
            return "\(comparison.metric.title) of \(sliceName(comparison.slice)): \(numbers(comparison)); "
                + "\(NumberText.pValue(comparison.adjustedPValue ?? 1)) after correcting for \(testedCount) tests"
        case .tooFewEvents(let action, let trials, let needed):
            return "\(escaping.escape(action)): only \(NumberText.count(trials)) valid events on \(candidate) so far, "
                + "too few to compare (\(NumberText.count(needed)) needed)"
        case .cannotRuleOut(let comparison, let largestDrop, let allowed):
            return "success rate of \(sliceName(comparison.slice)): \(numbers(comparison)); a drop of up to "
                + "\(NumberText.magnitude(largestDrop)) is still possible, more than the \(NumberText.magnitude(allowed)) accepted"
        case .ruledOut(let comparison, let largestDrop, let tested):
            return "success rate of \(sliceName(comparison.slice)): \(numbers(comparison)); a drop of more than "
                + "\(NumberText.magnitude(largestDrop)) is ruled out, and none of \(tested) comparisons is significantly worse"
        case .noTraffic:
            return "neither version has enough events of an action with an objective to compare"
        case .staleData(let newest, let age):
            guard let newest, let age else { return "no event at all before \(RFC3339.format(seconds: report.toSeconds))" }
            return "STALE: the newest event is \(NumberText.duration(age)) old (\(RFC3339.format(seconds: newest)))"
        }
    }
}
