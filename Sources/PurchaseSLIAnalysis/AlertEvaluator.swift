import PurchaseSLICore

/// Turns minute series and an explicit evaluation time into the alerts that fire. Pure: it never reads
/// the clock, and an evaluation at time T uses only minutes that end by T.
public struct AlertEvaluator: Sendable {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// Creates an evaluator for `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// The alerts firing at `time` (minute-aligned seconds), most urgent first.
    ///
    /// Per series only the most urgent alert counts (a page suppresses the ticket of the same incident).
    /// A slice alerts only when its action does not already alert at the same or a higher severity and
    /// it fails at least `sliceMinimumRatio` times as often as the rest of its action, beyond chance (the
    /// exact rate test at `burnSignificance`), so a regression in one plan is not hidden in the average and
    /// an outage is not paged once per product. A burn alert keeps firing for `keepFiringFor` after its rules
    /// go quiet. Equal to the firing set of ``episodes(from:to:stepSeconds:inputs:)`` at that minute.
    /// O(keepFiringFor in minutes × series × rules).
    public func findings(at time: Int64, inputs: AlertInputs) -> [AlertFinding] {
        var timeline = FiringTimeline(policy: policy)
        var moment = time - policy.keepFiringForSeconds
        while moment <= time {
            timeline.observe(instantFindings(at: moment, inputs: inputs), at: moment)
            moment += 60
        }
        return timeline.firing(at: time)
    }

    /// The alerts whose rules fire at exactly `time`, before keep-firing and suppression. Reads only the
    /// minutes of `[time − historySeconds, time)`, which makes a backtest and a live evaluation agree.
    func instantFindings(at time: Int64, inputs allInputs: AlertInputs) -> [AlertFinding] {
        let inputs = allInputs.restricted(from: time - policy.historySeconds, to: time)
        // Bonferroni: the significance is shared by every spike test made at this time.
        let versions = Set(inputs.slices.values.joined().filter { $0.labels.slice?.dimension == .appVersion }.map(\.labels.slice))
        let spikeTests = versions.count + inputs.actions.keys.reduce(0) { total, action in
            total + 3 + (inputs.slices[action] ?? []).filter { $0.labels.slice?.dimension == .productID }.count
        }
        let spikeSignificance = policy.spikes.significance / Double(max(1, spikeTests))
        // Loss of signal reads each action's whole series: it lasts until events flow again.
        return versionSpikes(at: time, significance: spikeSignificance, inputs: inputs)
            + allInputs.actions.values.compactMap { lossOfSignal($0, at: time) }
            + inputs.actions.keys.sorted().flatMap { action -> [AlertFinding] in
            guard let overall = inputs.actions[action], let dataSince = overall.firstEventSeconds else { return [] }
            var result = spikes(of: action, at: time, dataSince: dataSince, significance: spikeSignificance, inputs: inputs)
            guard let objective = policy.objectives.first(where: { $0.actionType == action }) else { return result }
            if let burn = burnFinding(overall, objective: objective, at: time, dataSince: dataSince) { result.append(burn) }
            var sliceWindows = Set<[OutcomeCounts]>()
            for slice in inputs.slices[action] ?? [] {
                guard var finding = burnFinding(slice, objective: objective, at: time, dataSince: dataSince),
                      // Slices with the very same traffic (a plan sold as one product) are one alert.
                      sliceWindows.insert([finding.longWindow, finding.shortWindow]).inserted
                else { continue }
                let actionWindow = overall.counts(last: finding.rule!.longWindowSeconds, before: time)
                let rest = actionWindow - finding.longWindow
                let sliceErrorRate = 1 - (finding.longWindow.successRate ?? 1)
                let restErrorRate = 1 - (rest.successRate ?? 1)
                // Twice the rest's error rate, and not by chance: a slice with most of the traffic (the app
                // version nearly everyone runs) against a rest with a handful of events is the action itself.
                guard sliceErrorRate >= policy.sliceMinimumRatio * restErrorRate,
                      RateTest.poissonRateExcess(
                        observed: finding.longWindow.failure, exposure: finding.longWindow.valid,
                        baselineObserved: rest.failure, baselineExposure: rest.valid) < policy.burnSignificance
                else { continue }
                finding.shareOfFailures = actionWindow.failure > 0
                    ? Double(finding.longWindow.failure) / Double(actionWindow.failure) : nil
                result.append(finding)
            }
            return result
        }
    }

    /// The most urgent rule firing for `series`, or nil. A window with fewer than the minimum valid
    /// events has no burn rate, so low traffic never fires (and zero traffic gives no NaN); the long
    /// window's failures must exceed the error budget beyond chance (`burnSignificance`); a rule whose
    /// long window reaches back before the action's first event (`dataSince`) waits until it does not,
    /// so that a "3 day" window is never a few minutes of data.
    func burnFinding(
        _ series: MinuteSeries, objective: SLOPolicy.Objective, at time: Int64, dataSince: Int64
    ) -> AlertFinding? {
        var best: AlertFinding?
        for rule in policy.rules where (best.map { $0.severity < rule.severity } ?? true)
            && time - rule.longWindowSeconds >= dataSince {
            let long = series.counts(last: rule.longWindowSeconds, before: time)
            let short = series.counts(last: rule.shortWindowSeconds, before: time)
            guard long.valid >= policy.minimumValidEvents, short.valid >= policy.minimumValidEvents,
                  long.failure >= policy.minimumFailures, short.failure >= policy.minimumFailures
            else { continue }
            var finding = AlertFinding(
                kind: .successRateBurn, severity: rule.severity, labels: series.labels, time: time,
                objective: objective, rule: rule, longWindow: long, shortWindow: short)
            guard let longBurn = finding.burnRateLong, let shortBurn = finding.burnRateShort,
                  longBurn > rule.burnRate, shortBurn > rule.burnRate,
                  RateTest.binomialUpperTail(atLeast: long.failure, trials: long.valid, probability: objective.errorBudget)
                    < policy.burnSignificance
            else { continue }
            finding.time = time
            best = finding
        }
        return best
    }

    /// AlreadyGrantedSpike (409s per valid event) and CancelRateSpike (cancels per attempt) of one action
    /// against the same window of the previous days, and CancelRateSpike of each of its products against
    /// the product's own previous days. When a product spikes, the action's own cancel alert is left out.
    /// `significance` is already divided by the number of tests made at this time.
    func spikes(of action: String, at time: Int64, dataSince: Int64, significance: Double, inputs: AlertInputs) -> [AlertFinding] {
        guard let overall = inputs.actions[action] else { return [] }
        let window = policy.spikes.windowSeconds
        let total = overall.counts(last: window, before: time)
        var findings: [AlertFinding] = []
        if let spike = spike(
            .alreadyGrantedSpike, overall.labels, total, previousDays(overall, at: time, dataSince: dataSince),
            Self.conflictsPerValidEvent, significance, time) {
            findings.append(spike)
        }
        var productSpikes: [AlertFinding] = []
        for series in inputs.slices[action] ?? [] where series.labels.slice?.dimension == .productID {
            if let spike = spike(
                .cancelRateSpike, series.labels, series.counts(last: window, before: time),
                previousDays(series, at: time, dataSince: dataSince), Self.cancelsPerAttempt, significance, time) {
                productSpikes.append(spike)
            }
        }
        if productSpikes.isEmpty, let spike = spike(
            .cancelRateSpike, overall.labels, total, previousDays(overall, at: time, dataSince: dataSince),
            Self.cancelsPerAttempt, significance, time) {
            productSpikes.append(spike)
        }
        // Attempts of the window that ended `unfinishedAfter` ago with fewer terminal events than starts.
        let settled = time - policy.spikes.unfinishedAfterSeconds
        let settledWindow = overall.counts(last: window, before: settled)
        let (unfinished, attempts, _) = Self.unfinishedPerAttempt(settledWindow)
        if Double(unfinished) >= policy.spikes.unfinishedMinimumShare * Double(attempts), let spike = spike(
            .unfinishedPurchases, overall.labels, settledWindow,
            previousDays(overall, at: settled, dataSince: dataSince), Self.unfinishedPerAttempt, significance, time) {
            findings.append(spike)
        }
        return findings + productSpikes
    }

    /// AlreadyGrantedSpike of each app version: its 409s (of every action) per successful purchase against
    /// the other versions' over the same window. Phased releases make a new version's counts grow daily,
    /// so rates are compared; a version whose purchases each bring a 409 is named even when the total 409
    /// count barely moves.
    func versionSpikes(at time: Int64, significance: Double, inputs: AlertInputs) -> [AlertFinding] {
        let window = policy.spikes.windowSeconds
        var perVersion: [String: OutcomeCounts] = [:]
        for (action, slices) in inputs.slices {
            for series in slices where series.labels.slice?.dimension == .appVersion {
                guard let version = series.labels.slice?.value else { continue }
                let counts = series.counts(last: window, before: time)
                var measured = OutcomeCounts(conflicts: counts.conflicts)
                if action == ActionType.purchase.rawValue { measured.success = counts.success + counts.alreadyGranted }
                perVersion[version, default: OutcomeCounts()] += measured
            }
        }
        let all = perVersion.values.reduce(OutcomeCounts(), +)
        return perVersion.keys.sorted().compactMap { version in
            let now = perVersion[version]!
            return spike(
                .alreadyGrantedSpike,
                SeriesLabels(actionType: ActionType.purchase.rawValue, slice: .init(dimension: .appVersion, value: version)),
                now, ([all - now], "the other app versions over the same window"), Self.conflictsPerPurchase, significance, time)
        }
    }

    /// What a spike test counts: (events, exposure, the rate's name).
    typealias SpikeMeasure = @Sendable (OutcomeCounts) -> (Int64, Int64, String)
    static let conflictsPerValidEvent: SpikeMeasure = { ($0.conflicts, $0.valid, "409s (already granted) per valid event") }
    static let conflictsPerPurchase: SpikeMeasure = { ($0.conflicts, $0.success, "409s (already granted) per successful purchase") }
    static let cancelsPerAttempt: SpikeMeasure = { ($0.cancel, $0.valid + $0.cancel, "cancels per attempt") }
    static let unfinishedPerAttempt: SpikeMeasure = {
        (max(0, $0.start - ($0.total - $0.start)), $0.start, "attempts without a terminal event (unfinished) per attempt")
    }

    /// The same window on each of the previous `baselineDays` days; empty (so nothing is tested) until the
    /// data covers all of them.
    private func previousDays(_ series: MinuteSeries, at time: Int64, dataSince: Int64) -> ([OutcomeCounts], String) {
        let days = max(1, policy.spikes.baselineDays), window = policy.spikes.windowSeconds
        guard time - Int64(days) * 86_400 - window >= dataSince else { return ([], "") }
        let windows = (1...days).map { day in series.counts(last: window, before: time - Int64(day) * 86_400) }
        return (windows, "the same window on the previous \(days) day\(days == 1 ? "" : "s")")
    }

    /// A spike of `now` against the baseline's windows (the previous days, or the other versions): at least
    /// the minimum count, `minimumRatio` times the rate of each window (so that one previous day with an
    /// incident of its own, an outage's retries failing rather than answering 409, cannot make an ordinary
    /// day look like a spike), and the exact test against the windows summed below `significance`.
    private func spike(
        _ kind: AlertFinding.Kind, _ labels: SeriesLabels, _ now: OutcomeCounts, _ baseline: ([OutcomeCounts], String),
        _ measure: SpikeMeasure, _ significance: Double, _ time: Int64
    ) -> AlertFinding? {
        let rule = policy.spikes
        let (observed, exposure, name) = measure(now)
        let (baselineObserved, baselineExposure, _) = measure(baseline.0.reduce(OutcomeCounts(), +))
        guard observed >= rule.minimumCount, exposure > 0, baselineExposure > 0 else { return nil }
        let rate = Double(observed) / Double(exposure)
        let aboveEveryWindow = baseline.0.allSatisfy { window in
            let (windowObserved, windowExposure, _) = measure(window)
            return windowExposure == 0 || rate >= rule.minimumRatio * Double(windowObserved) / Double(windowExposure)
        }
        guard aboveEveryWindow else { return nil }
        let pValue = RateTest.poissonRateExcess(
            observed: observed, exposure: exposure, baselineObserved: baselineObserved, baselineExposure: baselineExposure)
        guard pValue < significance else { return nil }
        return AlertFinding(
            kind: kind, severity: rule.severity, labels: labels, time: time, longWindow: now,
            spike: AlertFinding.Spike(
                measure: name, windowSeconds: rule.windowSeconds, observed: observed, exposure: exposure, baselineObserved: baselineObserved,
                baselineExposure: baselineExposure, baseline: baseline.1, pValue: pValue))
    }

    /// A page while an action sends no event at all, from the first minute at which its silence was
    /// unexpected until events flow again, however long that takes. The silence shows once the
    /// loss-of-signal window holds no event; it is unexpected at a minute when both the same window a day
    /// earlier and the average window of the day before held at least the policy's minimum (so a burst
    /// yesterday does not make today's quiet look like an outage, and a quiet night is not one). Both fall
    /// into the silence a day after it began, so only that first day is searched. Reads the series from a
    /// day before its last event; O(minutes of that day).
    func lossOfSignal(_ series: MinuteSeries, at time: Int64) -> AlertFinding? {
        let window = policy.lossOfSignalWindowSeconds
        guard let lastEvent = series.lastEvent(before: time) else { return nil }
        let silentSince = lastEvent + 60
        for moment in stride(from: silentSince + window, through: min(time, silentSince + window + 86_400), by: 60) {
            let dayEarlier = series.counts(last: window, before: moment - 86_400).total
            let averageWindow = series.counts(last: 86_400, before: moment - window).total * window / 86_400
            let expected = min(dayEarlier, averageWindow)
            guard expected >= policy.lossOfSignalMinimumExpected else { continue }
            return AlertFinding(
                kind: .noEvents, severity: .page, labels: series.labels, time: time,
                longWindow: series.counts(last: window, before: time), expectedEvents: expected,
                silentSeconds: time - silentSince, firingSince: moment)
        }
        return nil
    }

    /// When the alert `identity`, firing at `time`, started, as far back as the inputs reach: the start
    /// of its episode in a backtest ending at `time`.
    public func startOfFiring(_ identity: AlertFinding.Identity, at time: Int64, inputs: AlertInputs) -> Int64 {
        startsOfFiring([identity], at: time, inputs: inputs)[identity] ?? time
    }

    /// ``startOfFiring(_:at:inputs:)`` of several alerts firing at `time`: walks back a minute at a time
    /// until each was not firing the minute before (or the inputs end). Whether an alert fires at a
    /// minute depends only on the rules' findings over the keepFiringFor before it, so each minute's
    /// findings are computed once, whatever the number of alerts. O(minutes back × series × rules).
    public func startsOfFiring(
        _ identities: Set<AlertFinding.Identity>, at time: Int64, inputs: AlertInputs
    ) -> [AlertFinding.Identity: Int64] {
        // As far back as a timeline can be built from the inputs. The minutes before the inputs' start are
        // missing from the rules' history there, so a start found before `startSeconds + firingHistory`
        // may be cut short: a caller wanting to be sure reads further back.
        let earliest = inputs.startSeconds + policy.keepFiringForSeconds
        var instants: [Int64: [AlertFinding]] = [:]
        func firing(at minute: Int64) -> Set<AlertFinding.Identity> {
            var timeline = FiringTimeline(policy: policy)
            for moment in stride(from: minute - policy.keepFiringForSeconds, through: minute, by: 60) {
                if instants[moment] == nil { instants[moment] = instantFindings(at: moment, inputs: inputs) }
                timeline.record(instants[moment]!)
            }
            instants[minute] = nil  // walking back, the next window ends a minute earlier
            return Set(timeline.firing(at: minute).map(\.identity))
        }
        var starts: [AlertFinding.Identity: Int64] = [:]
        var pending = identities
        var minute = time
        while !pending.isEmpty {
            guard minute > earliest else {
                for identity in pending { starts[identity] = max(earliest, minute) }
                break
            }
            let before = firing(at: minute - 60)
            for identity in pending where !before.contains(identity) {
                starts[identity] = minute
                pending.remove(identity)
            }
            minute -= 60
        }
        return starts
    }

    /// Evaluates every `step` in `[from, to)` and returns each alert episode once, in order of start.
    /// Equal to repeated ``findings(at:inputs:)`` at those times when the step is one minute.
    /// O(steps × series × rules).
    public func episodes(from: Int64, to: Int64, stepSeconds: Int64, inputs: AlertInputs) -> [AlertEpisode] {
        var timeline = FiringTimeline(policy: policy)
        var moment = from - policy.keepFiringForSeconds
        while moment < from {
            timeline.observe(instantFindings(at: moment, inputs: inputs), at: moment)
            moment += stepSeconds
        }
        var open: [AlertFinding.Identity: AlertEpisode] = [:]
        var closed: [AlertEpisode] = []
        var time = from
        while time < to {
            timeline.observe(instantFindings(at: time, inputs: inputs), at: time)
            let firing = Dictionary(uniqueKeysWithValues: timeline.firing(at: time).map { ($0.identity, $0) })
            for (identity, episode) in open where firing[identity] == nil {
                var ended = episode
                ended.endsAt = time
                closed.append(ended)
                open[identity] = nil
            }
            for (identity, finding) in firing where open[identity] == nil {
                open[identity] = AlertEpisode(first: finding, startsAt: time, endsAt: nil)
            }
            time += stepSeconds
        }
        return (closed + open.values).sorted {
            ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity)
        }
    }
}

/// Which alerts fire over time: what the rules said at each moment, kept firing for `keepFiringFor`
/// (all but loss of signal, which ends as soon as events flow), then suppressed where a more urgent
/// alert covers the same incident.
struct FiringTimeline {
    let policy: SLOPolicy
    private var latest: [AlertFinding.Identity: AlertFinding] = [:]

    init(policy: SLOPolicy) {
        self.policy = policy
    }

    /// Records the instant findings of `time`.
    mutating func observe(_ findings: [AlertFinding], at time: Int64) {
        record(findings)
        latest = latest.filter { isActive($0.value, at: time) }
    }

    /// Records findings, in time order, without letting older ones expire: for a timeline built from
    /// just the keepFiringFor before the time asked about.
    mutating func record(_ findings: [AlertFinding]) {
        for finding in findings { latest[finding.identity] = finding }
    }

    private func isActive(_ finding: AlertFinding, at time: Int64) -> Bool {
        finding.kind == .noEvents ? finding.time == time : finding.time >= time - policy.keepFiringForSeconds
    }

    /// The alerts firing at `time`, most urgent first.
    func firing(at time: Int64) -> [AlertFinding] {
        let active = latest.values.filter { isActive($0, at: time) }
        let strongest = Dictionary(grouping: active) { KindAndLabels(kind: $0.kind, labels: $0.labels) }
            .compactMap { $0.value.max { $0.severity < $1.severity } }
        let overallSeverity = Dictionary(
            strongest.filter { $0.kind == .successRateBurn && $0.labels.slice == nil }.map { ($0.labels.actionType, $0.severity) },
            uniquingKeysWith: max)
        // A version's 409 spike explains the actions' 409 spikes; a product's cancel spike its action's.
        let versionConflicts = strongest.contains { $0.kind == .alreadyGrantedSpike && $0.labels.slice != nil }
        let productCancels = Set(strongest.filter { $0.kind == .cancelRateSpike && $0.labels.slice != nil }.map(\.labels.actionType))
        return strongest.filter { finding in
            switch finding.kind {
            case .alreadyGrantedSpike: return finding.labels.slice != nil || !versionConflicts
            case .cancelRateSpike: return finding.labels.slice != nil || !productCancels.contains(finding.labels.actionType)
            case .noEvents, .unfinishedPurchases: return true
            case .successRateBurn:
                guard finding.labels.slice != nil, let overall = overallSeverity[finding.labels.actionType] else { return true }
                return overall < finding.severity
            }
        }.sorted { $0.identity < $1.identity }
    }

    private struct KindAndLabels: Hashable {
        var kind: AlertFinding.Kind
        var labels: SeriesLabels
    }
}
