public import PurchaseSLICore

extension AlertFinding.Kind {
    /// An action that normally has traffic has none.
    public static let noEvents = AlertFinding.Kind(rawValue: "NoPurchaseEvents")
}

/// NoPurchaseEvents: a page while an action sends no event at all, from the first minute at which its
/// silence was unexpected until events flow again, however long that takes. The silence shows once the
/// loss-of-signal window holds no event; it is unexpected at a minute when both the same window a day
/// earlier and the average window of the day before held at least the policy's minimum (so a burst
/// yesterday does not make today's quiet look like an outage, and a quiet night is not one). Both fall
/// into the silence a day after it began, so only that first day is searched. Reads each action's whole
/// series from a day before its last event; O(minutes of that day).
public struct NoEventsRule: AlertRule {
    /// The policy it applies.
    public let policy: SLOPolicy

    /// The rule of `policy`.
    public init(policy: SLOPolicy) {
        self.policy = policy
    }

    public var kind: AlertFinding.Kind { .noEvents }
    public var shortName: String { "no events" }
    /// It lasts until events flow again, no longer.
    public var holdSeconds: Int64 { 0 }
    public var reachSeconds: Int64 { .secondsPerDay + policy.lossOfSignalWindowSeconds }
    /// No slice of the events (its own series are the store's or the ledger's).
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { false }

    public func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        AlertRuleOutcome(
            findings: context.allInputs.actions.keys.sorted().compactMap { action in
                silence(of: context.allInputs.actions[action]!, at: time)
            })
    }

    private func silence(of series: MinuteSeries, at time: Int64) -> AlertFinding? {
        let window = policy.lossOfSignalWindowSeconds
        guard let lastEvent = series.lastEvent(before: time) else { return nil }
        let silentSince = lastEvent + .secondsPerMinute
        for moment in stride(from: silentSince + window, through: min(time, silentSince + window + .secondsPerDay), by: .secondsPerMinute) {
            let dayEarlier = series.counts(last: window, before: moment - .secondsPerDay).total
            let averageWindow = series.counts(last: .secondsPerDay, before: moment - window).total * window / .secondsPerDay
            let expected = min(dayEarlier, averageWindow)
            guard expected >= policy.lossOfSignalMinimumExpected else { continue }
            return AlertFinding(
                kind: kind, severity: .page, labels: series.labels, time: time,
                evidence: SilenceEvidence(windowSeconds: window, expectedEvents: expected, silentSince: silentSince, firingSince: moment))
        }
        return nil
    }

    /// No events is the action's flow failing as a whole, as a burn is.
    public func causes(of finding: AlertFinding) -> Set<IncidentCause> { [.outage(of: finding.labels.actionType), .anyOutage] }
}

/// What a loss of signal found.
public struct SilenceEvidence: AlertEvidence {
    /// The loss-of-signal window, in seconds.
    public var windowSeconds: Int64
    /// The events expected in the window (the lesser of the same window a day earlier and the average
    /// window of the day before) when the silence became unexpected.
    public var expectedEvents: Int64
    /// The minute after the last event.
    public var silentSince: Int64
    /// The minute it started firing (the first at which the silence was unexpected).
    public var firingSince: Int64?

    /// Creates evidence of a silence since `silentSince` (the minute after the last event).
    public init(windowSeconds: Int64, expectedEvents: Int64, silentSince: Int64, firingSince: Int64? = nil) {
        self.windowSeconds = windowSeconds
        self.expectedEvents = expectedEvents
        self.silentSince = silentSince
        self.firingSince = firingSince
    }

    public var chartMetric: AlertChartMetric? { .events }
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? { silentSince }

    public func summary(of alert: AlertFinding) -> AlertText {
        "no \(words: alert.labels.actionType) events at all for \(duration: alert.time - silentSince) (\(count: expectedEvents) expected in "
            + "the loss-of-signal window when the silence was noticed)"
    }

    public func details(of alert: AlertFinding) -> [AlertText] { ["the last event arrived at \(time: silentSince - .secondsPerMinute)"] }

    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        .query(of: alert.labels, from: min(from, silentSince) - .secondsPerHour, to: to, ["--step", "5m"])
    }
}
