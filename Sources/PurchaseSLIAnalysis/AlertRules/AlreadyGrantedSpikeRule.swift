public import PurchaseSLICore

extension AlertFinding.Kind {
    /// 409s far above their baseline (a retry loop double-sending receipts).
    public static let alreadyGrantedSpike = AlertFinding.Kind(rawValue: "AlreadyGrantedSpike")
}

/// AlreadyGrantedSpike: each action's 409s per valid event against the same window of the previous days,
/// and each app version's 409s (of every action) per successful purchase against the other versions' over
/// the same window. Phased releases make a new version's counts grow daily, so rates are compared; a
/// version whose purchases each bring a 409 is named even when the total 409 count barely moves. A
/// version's spike covers its actions'.
public struct AlreadyGrantedSpikeRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy
    private var test: RateSpikeTest { RateSpikeTest(policy: policy) }

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .alreadyGrantedSpike }
    public var shortName: String { "409 spike" }
    /// Held for keepFiringFor and its window, as every spike (``RateSpikeTest/holdSeconds``).
    public var holdSeconds: Int64 { test.holdSeconds }
    public var reachSeconds: Int64 { test.reachSeconds }
    /// Every app version: each version's 409s are tested against all the other versions' purchases.
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { dimension == .appVersion }

    /// Each action, and each app version with an event in what the rules read.
    public func spikeTestCount(in context: AlertRuleContext) -> Int {
        context.inputs.actions.count + context.valueCount(of: .appVersion, holding: 0, .total, last: context.reachSeconds)
    }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        let inputs = context.inputs
        var findings: [AlertFinding] = []
        for action in inputs.actions.keys.sorted() {
            guard let overall = inputs.actions[action], let dataSince = overall.firstEventSeconds else { continue }
            let window = test.window { overall.counts(last: $0, before: time).valid }
            guard
                let spike = test.spike(
                    overall.counts(last: window, before: time), against: test.previousDays(overall, at: time, dataSince: dataSince, window: window),
                    measure: RateSpikeTest.measure(.conflictRate), named: RateMetric.conflictRate.definition,
                    units: (CountedNoun("409", "409s"), CountedNoun("valid event", "valid events")), window: window,
                    significance: context.spikeSignificance)
            else { continue }
            findings.append(
                AlertFinding(
                    kind: kind, severity: policy.spikes.severity, labels: overall.labels, time: time, evidence: AlreadyGrantedEvidence(spike: spike)))
        }
        // Every window tested ends at the time within the widest: a version with fewer 409s there than a
        // spike needs has none (most versions at most minutes), and is not tested; the others' are read
        // from every version's sum, made once a version is tested.
        let candidates = context.values(
            of: .appVersion, holding: Int64(policy.spikes.minimumCount), .conflicts, last: RateSpikeTest.widestWindows * policy.spikes.windowSeconds)
        let every =
            candidates.isEmpty ? [] : context.run.shared("\(kind.rawValue) every version") { Shared(Self.everyVersion(of: context.allInputs)) }.value
        for (version, slices) in candidates {
            let counts = { (window: Int64) in Self.measured(slices, last: window, before: time) }
            let window = test.window { counts($0).success }
            let now = counts(window)
            let all = Self.measured(every, last: window, before: time)
            guard
                let spike = test.spike(
                    now, against: ([all - now], "the other app versions over the same window"), measure: { ($0.conflicts, $0.success) },
                    named: "409s (already granted) per successful purchase",
                    units: (CountedNoun("409", "409s"), CountedNoun("successful purchase", "successful purchases")), window: window,
                    significance: context.spikeSignificance)
            else { continue }
            findings.append(
                AlertFinding(
                    kind: kind, severity: policy.spikes.severity,
                    labels: SeriesLabels(actionType: ActionType.purchase.rawValue, slice: .init(dimension: .appVersion, value: version)),
                    time: time, evidence: AlreadyGrantedEvidence(spike: spike)))
        }
        return AlertRuleOutcome(findings: findings)
    }

    /// An action's 409 spike is covered by a version's: the version explains it.
    public func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool {
        finding.labels.slice == nil && firing.contains { $0.kind == kind && $0.labels.slice != nil }
    }

    /// The 409s of a retry loop; a version's, of that version too.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> {
        Set([IncidentCause("409s")] + (finding.labels.slice.map { [IncidentCause.slice($0)] } ?? []))
    }

    /// The 409s (of every action) and successful purchases of `slices` (of the app version dimension) over the
    /// `window` before `time`.
    private static func measured(_ slices: [MinuteSeries], last window: Int64, before time: Int64) -> OutcomeCounts {
        var total = OutcomeCounts()
        for series in slices {
            let counts = series.counts(last: window, before: time)
            total.conflicts += counts.conflicts
            if series.labels.actionType == ActionType.purchase.rawValue { total.success += counts.good }
        }
        return total
    }

    /// The slices of every app version of each action of `inputs`, as they hold them, summed minute by
    /// minute into one series per action: what every version together counts (``measured(_:last:before:)``).
    /// O(minutes + minutes with events of the slices), summed in one array of the minutes (not a list of
    /// every slice's minutes sorted: a large catalog's versions hold hundreds of thousands).
    private static func everyVersion(of inputs: AlertInputs) -> [MinuteSeries] {
        inputs.actionsWithSlices.sorted().compactMap { action in
            let slices = inputs.unfilteredSlices(of: action, dimension: .appVersion).map(inputs.viewedSlice)
            guard let first = slices.map(\.startSeconds).min(), let end = slices.map(\.endSeconds).max() else { return nil }
            // From the minute of the first (a restriction may start within one), through the last.
            let start = first - (first % .secondsPerMinute + .secondsPerMinute) % .secondsPerMinute
            let minuteCount = Int((end - start + .secondsPerMinute - 1) / .secondsPerMinute)
            var minutes = [OutcomeCounts](repeating: OutcomeCounts(), count: minuteCount)
            for series in slices {
                series.forEachMinute(from: series.startSeconds, to: series.endSeconds) { minute, counts in
                    minutes[Int((minute - start) / .secondsPerMinute)] += counts
                }
            }
            return MinuteSeries(
                labels: SeriesLabels(actionType: action), startSeconds: start, minuteCount: minuteCount, counts: StepCounts(dense: minutes))
        }
    }
}

/// What a 409 spike found.
public struct AlreadyGrantedEvidence: AlertEvidence {
    /// The spike's numbers.
    public var spike: SpikeStatistics

    public var windowSeconds: Int64 { spike.windowSeconds }
    public var chartMetric: AlertChartMetric? { .rate(.conflictRate) }

    public func summary(of alert: AlertFinding) -> AlertText { spike.summary("\(scope: alert.labels)") }
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? {
        spike.current(
            counts, over: seconds,
            measure: alert.labels.slice == nil ? RateSpikeTest.measure(.conflictRate) : { ($0.conflicts, $0.success + $0.alreadyGranted) })
    }

    public func details(of alert: AlertFinding) -> [AlertText] { [spike.countsLine] }

    /// 409s carry no error: the query compares them by app version and action.
    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        var arguments = ["--from", RFC3339.format(seconds: from), "--to", RFC3339.format(seconds: to)]
        if alert.labels.slice == nil { arguments += ["--where", "actionType=\(alert.labels.actionType)"] }
        return LookNextCommand("query", arguments + ["--by", "appVersion,actionType"])
    }
}
