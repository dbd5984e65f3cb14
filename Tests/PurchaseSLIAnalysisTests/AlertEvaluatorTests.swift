import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// The fixtures start at this minute; every case has three days of history before its incident.
private let origin: Int64 = 1_794_614_400  // 2026-11-14T00:00:00Z
private let minutes = 5 * 1440

private func minute(_ index: Int) -> Int64 { origin + Int64(index) * 60 }

/// Per-minute traffic of one action: `valid` events a minute of which `failures(minute)` fail.
private func rows(
    action: String = "purchase", key: [String?]? = nil, valid: (Int) -> Int64 = { _ in 100 }, failures: (Int) -> Int64
) -> [CountRow] {
    (0..<minutes).map { index in
        let bad = failures(index)
        let all = valid(index)
        return CountRow(
            timeSeconds: minute(index), key: key ?? [action],
            counts: OutcomeCounts(start: all, success: all - bad, failure: bad))
    }
}

private func inputs(_ overall: [CountRow], slices: [EventDimension: [CountRow]] = [:]) -> AlertInputs {
    AlertInputs(startSeconds: origin, endSeconds: minute(minutes), overall: overall, sliceRows: slices)
}

private let evaluator = AlertEvaluator(policy: .default)

/// The minute index at which each episode started and ended, with its severity.
private func episodeMinutes(_ inputs: AlertInputs) -> [(Severity, String, Int, Int?)] {
    evaluator.episodes(from: minute(4320), to: minute(minutes), stepSeconds: 60, inputs: inputs).map { episode in
        (
            episode.first.severity, episode.first.kind.rawValue, Int((episode.startsAt - origin) / 60),
            episode.endsAt.map { Int(($0 - origin) / 60) }
        )
    }
}

@Suite struct AlertEvaluatorTests {
    @Test func aHardOutagePagesWithinThreeMinutesAndResolvesFifteenMinutesAfterItEnds() {
        // 50 % failures from minute 4400 to 4459. The fast exact test fires once the last 3 minutes hold two
        // bad ones (4402: 100 failures of 300 against 13.44 %). The last bad minute is 4459; at 4475 the last
        // 15 minutes meet the objective again and the page resolves, although the 6 h / 30 min rule's short
        // window still holds failures until 4489 and keepFiringFor would hold it 30 minutes more.
        let outage = inputs(rows { (4400..<4460).contains($0) ? 50 : 0 })
        #expect(episodeMinutes(outage).map { "\($0.0) \($0.1) \($0.2) \($0.3 ?? -1)" } == ["page PurchaseSuccessRateBurn 4402 4475"])
        // Without the fast test, the 1 h / 5 min rule pages when the hour crosses 13.44 % (17 bad minutes).
        var multiWindowOnly = SLOPolicy.default
        multiWindowOnly.fastBurn = nil
        let slower = AlertEvaluator(policy: multiWindowOnly).episodes(from: minute(4320), to: minute(minutes), stepSeconds: 60, inputs: outage)
        #expect(slower.map { ($0.startsAt - origin) / 60 } == [4417] && slower.map { ($0.endsAt! - origin) / 60 } == [4475])
    }

    /// The fast test, table-driven: half or more of the attempts failing at 20 a minute or more, and every
    /// attempt failing from 2 a minute (the demo's traffic), pages within 3 minutes of the start.
    @Test(arguments: [(2, 2), (3, 3), (20, 10), (20, 20), (30, 15), (100, 50), (1000, 500), (1000, 1000)] as [(Int64, Int64)])
    func aHardOutagePagesWithinThreeMinutesAtAnyRateFromTwoAMinute(valid: Int64, failing: Int64) {
        let outage = inputs(rows(valid: { _ in valid }) { (4400..<4430).contains($0) ? failing : 0 })
        let first = episodeMinutes(outage).first
        #expect(first?.0 == .page && (4401...4403).contains(first?.2 ?? 0), "\(String(describing: first))")
    }

    /// An incident that pauses for less than the recovery window is one page: keepFiringFor and the
    /// recovery window hold it while it goes on.
    @Test func anIncidentThatFlickersIsOnePage() {
        // Ten bad minutes, then five good ones, three times over.
        let flickering = inputs(rows { index in (4400..<4445).contains(index) && (index - 4400) % 15 < 10 ? 50 : 0 })
        let episodes = episodeMinutes(flickering)
        #expect(episodes.map { "\($0.0) \($0.2) \($0.3 ?? -1)" } == ["page 4402 4455"])
    }

    /// Budget an incident spent while paged opens no ticket afterwards. 80 % failures for an hour spend
    /// 4,800 failures: the 1 d / 2 h ticket rule's windows burn over 2.8× for hours after the outage, but
    /// the minutes it was paged for are taken out of them.
    @Test func aRecoveredIncidentOpensNoTicketAfterItsPage() {
        let outage = inputs(rows { (4400..<4460).contains($0) ? 80 : 0 })
        let overall = outage.actions["purchase"]!
        let objective = SLOPolicy.default.objectives[0]
        // Without taking the paged minutes out, the ticket rule would fire an hour after the recovery.
        let later = minute(4535)
        #expect(objective.burnRate(overall.counts(last: 86_400, before: later))! > 2.8)
        #expect(objective.burnRate(overall.counts(last: 7200, before: later))! > 2.8)
        #expect(episodeMinutes(outage).map { "\($0.0) \($0.2) \($0.3 ?? -1)" } == ["page 4401 4475"])
    }

    @Test func aSlowBurnTicketsAndAnOutageOnTopOfItIsOneEpisodeThatPagesAndTicketsAgain() {
        // 5 % failures all along (a 5× burn: the 1 d / 2 h and 3 d / 6 h ticket rules fire), then an outage.
        // The slow burn never recovers, so the page holds until its rules are quiet (the 6 h / 30 min short
        // window falls under 5.6× at 4490) and keepFiringFor has passed; then the slow burn's ticket goes on.
        let burning = AlertEvaluator(policy: .default).episodes(
            from: minute(4320), to: minute(minutes), stepSeconds: 60, inputs: inputs(rows { (4400..<4460).contains($0) ? 60 : 5 }))
        #expect(burning.count == 1)
        let changes = burning.first?.severityChanges.map { "\($0.severity) \(($0.atSeconds - origin) / 60)" }
        #expect(changes == ["ticket 4320", "page 4401", "ticket 4520"], "\(changes ?? [])")
        #expect(burning.first?.severity == .page && burning.first?.peak.time == minute(4401))
        for time in [minute(4430), minute(4450)] {
            #expect(evaluator.findings(at: time, inputs: inputs(rows { (4400..<4460).contains($0) ? 60 : 5 })).map(\.severity) == [.page])
        }
    }

    /// At 2 valid events a minute a hard outage pages within 3 minutes and its page resolves within 30
    /// minutes of its end: 21 good events in the recovery window show it no longer fails as a page is about.
    @Test func aHardOutageAtTwoAMinuteResolvesWithinHalfAnHourOfItsEnd() {
        let outage = inputs(rows(valid: { _ in 2 }) { (4400..<4440).contains($0) ? 2 : 0 })
        let episodes = episodeMinutes(outage)
        #expect(episodes.count == 1 && episodes.first?.0 == .page, "\(episodes)")
        #expect((4401...4403).contains(episodes.first?.2 ?? 0) && (4441...4470).contains(episodes.first?.3 ?? 0), "\(episodes)")
    }

    @Test func lowTrafficNoiseDoesNotAlertAndZeroTrafficGivesNoNaN() {
        let sparse = inputs(rows(valid: { _ in 1 }) { [4400, 4410, 4420].contains($0) ? 1 : 0 })
        #expect(episodeMinutes(sparse).isEmpty)
        let silent = inputs(rows(valid: { _ in 0 }) { _ in 0 })
        #expect(episodeMinutes(silent).isEmpty)
        let finding = evaluator.findings(at: minute(4500), inputs: silent)
        #expect(finding.isEmpty)
    }

    @Test func steadyTrafficAtTheObjectiveStaysQuiet() {
        // 0.8 % failures, under the 1 % budget, with random-looking minutes up to 3 %.
        let steady = inputs(rows { index in index % 7 == 0 ? 3 : (index % 13 == 0 ? 1 : 0) })
        #expect(episodeMinutes(steady).isEmpty)
    }

    @Test func aLowVolumeActionAtItsObjectiveDoesNotTicketOnAThreeDayRateAHairOverIt() {
        // 3 valid events a minute, one failure every 33 minutes: 1.01 % over every window, a 1.01× burn of
        // the 1 % budget, which 12,960 events over 3 days cannot tell from 1 % (p ≈ 0.45). Only the
        // significance test keeps the 3 d / 6 h rule quiet; at 1.67 % (one every 20 minutes) it tickets.
        let atObjective = inputs(rows(valid: { _ in 3 }) { $0 % 33 == 0 ? 1 : 0 })
        #expect(episodeMinutes(atObjective).isEmpty)
        var withoutTest = SLOPolicy.default
        withoutTest.burnSignificance = 0.999
        #expect(!AlertEvaluator(policy: withoutTest).findings(at: minute(4400), inputs: atObjective).isEmpty)
        let burning = inputs(rows(valid: { _ in 3 }) { $0 % 20 == 0 ? 1 : 0 })
        #expect(episodeMinutes(burning).map { "\($0.0) \($0.2)" } == ["ticket 4320"])
    }

    @Test func aRegressionInOnePlanAlertsAsTheSliceWithItsShareOfTheFailures() {
        // Plan "pro-monthly" (5 % of traffic) fails 40 % from minute 4400; the action overall burns 2×: no page.
        let overall = rows { (4400...).contains($0) ? 2 : 0 }
        let plans =
            rows(key: ["purchase", "pro-monthly"], valid: { _ in 5 }, failures: { (4400...).contains($0) ? 2 : 0 })
            + rows(key: ["purchase", "coins-small"], valid: { _ in 95 }, failures: { _ in 0 })
        let regression = inputs(overall, slices: [.planID: plans])
        let findings = evaluator.findings(at: minute(4500), inputs: regression)
        let page = findings.first { $0.severity == .page }
        #expect(page?.labels == SeriesLabels(actionType: "purchase", slice: .init(dimension: .planID, value: "pro-monthly")))
        #expect(page?.evidence(as: BurnEvidence.self)?.shareOfFailures == 1)
        #expect(!findings.contains { $0.labels.slice == nil && $0.severity == .page })
    }

    @Test func theVersionNearlyEveryoneRunsIsNotASliceOfItsOwn() {
        // 4.11.0 has 91 % of the purchases and all the failures, 5.9 % of them (over the 6 h page threshold
        // of 5.6×); the action burns 5.4× (a ticket). Its 4.10.2 rest has 90 purchases in 6 h and no
        // failure, which 55 failures in 936 purchases do not tell apart from chance (p = 0.91⁵⁵ ≈ 0.006):
        // no page for 4.11.0.
        let failing = { (index: Int) -> Int64 in index % 13 == 0 || index % 13 == 6 ? 1 : 0 }
        let main = rows(key: ["purchase", "4.11.0"], valid: { $0 % 5 < 3 ? 3 : 2 }, failures: failing)
        let rest = rows(key: ["purchase", "4.10.2"], valid: { $0 % 4 == 0 ? 1 : 0 }, failures: { _ in 0 })
        let overall = rows(valid: { ($0 % 5 < 3 ? 3 : 2) + ($0 % 4 == 0 ? 1 : 0) }, failures: failing)
        let versions = inputs(overall, slices: [.appVersion: main + rest])
        let findings = evaluator.findings(at: minute(4400), inputs: versions)
        #expect(findings.map(\.labels) == [SeriesLabels(actionType: "purchase")] && findings.map(\.severity) == [.ticket])
        var withoutTest = SLOPolicy.default
        withoutTest.burnSignificance = 0.999
        #expect(
            AlertEvaluator(policy: withoutTest).findings(at: minute(4400), inputs: versions).contains {
                $0.severity == .page && $0.labels.slice?.value == "4.11.0"
            })
    }

    @Test func anActionThatStopsSendingEventsIsALossOfSignal() {
        let stopped = inputs(rows(valid: { (4400..<4450).contains($0) ? 0 : 100 }) { _ in 0 })
        let episodes = episodeMinutes(stopped)
        #expect(episodes.count == 1)
        #expect(episodes.first.map { "\($0.0) \($0.1) \($0.2) \($0.3 ?? -1)" } == "page NoPurchaseEvents 4430 4451")
    }

    /// Traffic for three days, then none for ten: one page from 30 minutes after the last event that
    /// never resolves by itself (it used to resolve when the day-earlier window fell silent too), still
    /// firing ten days on with the silence's length and its start; a new event ends it.
    @Test func aFeedThatStopsForGoodPagesUntilEventsFlowAgain() {
        let days = 13
        let lastTrafficMinute = 4319
        let rows = (0..<(days * 1440)).map { index in
            CountRow(
                timeSeconds: minute(index), key: ["purchase"],
                counts: index <= lastTrafficMinute ? OutcomeCounts(start: 100, success: 100) : OutcomeCounts())
        }
        let dead = AlertInputs(startSeconds: origin, endSeconds: minute(days * 1440), overall: rows, sliceRows: [:])
        let episodes = evaluator.episodes(from: minute(4320), to: minute(days * 1440), stepSeconds: 60, inputs: dead)
        #expect(
            episodes.map { "\($0.first.kind.rawValue) \(($0.startsAt - origin) / 60) \($0.endsAt.map(String.init) ?? "open")" }
                == ["NoPurchaseEvents 4350 open"])
        let late = minute(days * 1440 - 1)
        let finding = evaluator.findings(at: late, inputs: dead).first
        #expect(finding?.kind == .noEvents && finding?.severity == .page)
        let silence = finding?.evidence(as: SilenceEvidence.self)
        #expect(silence?.firingSince == minute(4350) && silence?.silentSince == minute(4320))
        var resumed = rows
        resumed[days * 1440 - 10].counts = OutcomeCounts(start: 1, success: 1)
        let revived = AlertInputs(startSeconds: origin, endSeconds: minute(days * 1440), overall: resumed, sliceRows: [:])
        #expect(evaluator.findings(at: late, inputs: revived).isEmpty)
    }

    @Test func backtestEpisodesEqualRepeatedEvaluationsAtEachMinute() {
        let burning = inputs(rows { (4400..<4460).contains($0) ? 60 : 5 })
        let episodes = evaluator.episodes(from: minute(4320), to: minute(minutes), stepSeconds: 60, inputs: burning)
        for time in stride(from: minute(4320), to: minute(minutes), by: 97 * 60) {
            let firing = evaluator.findings(at: time, inputs: burning)
            let fromEpisodes = episodes.filter { $0.startsAt <= time && ($0.endsAt.map { time < $0 } ?? true) }
            #expect(Set(firing.map(\.identity)) == Set(fromEpisodes.map(\.first.identity)))
            // What a live evaluation at `time` finds of each firing alert's episode (its incident, walked back).
            let live = evaluator.incidents(from: time, to: time + 60, inputs: burning, grouping: IncidentGrouping(rules: evaluator.rules))
                .incidents.flatMap(\.episodes).filter { $0.endsAt == nil }
            for finding in firing {
                let history = live.first { $0.first.identity == finding.identity }
                // An episode open at the backtest's start may have started earlier, as far back as the inputs go.
                #expect(
                    fromEpisodes.contains { episode in
                        episode.first.identity == finding.identity
                            && (episode.startsAt == history?.startsAt || episode.startsAt == minute(4320) && (history?.startsAt ?? 0) <= minute(4320))
                            && episode.severityChanges.filter { $0.atSeconds <= time }.dropFirst().map(\.severity)
                                == (history?.severityChanges ?? []).dropFirst().map(\.severity)
                    })
            }
        }
    }

    /// A plan and the group it makes up nearly alone fail together: one slice alert, naming the other.
    @Test func slicesWithTheSameFailuresAreOneAlert() {
        let overall = rows { (4400...).contains($0) ? 2 : 0 }
        let plans =
            rows(key: ["purchase", "pro-monthly"], valid: { _ in 5 }, failures: { (4400...).contains($0) ? 2 : 0 })
            + rows(key: ["purchase", "coins-small"], valid: { _ in 95 }, failures: { _ in 0 })
        let groups =
            rows(key: ["purchase", "premium"], valid: { _ in 6 }, failures: { (4400...).contains($0) ? 2 : 0 })
            + rows(key: ["purchase", "coins"], valid: { _ in 94 }, failures: { _ in 0 })
        let findings = evaluator.findings(at: minute(4500), inputs: inputs(overall, slices: [.planID: plans, .groupID: groups]))
        let slices = findings.filter { $0.labels.slice != nil }
        #expect(slices.map(\.labels.slice?.value) == ["pro-monthly"], "\(findings.map(\.labels))")
        #expect(slices.first?.evidence(as: BurnEvidence.self)?.sameFailuresIn == [SeriesLabels.Slice(dimension: .groupID, value: "premium")])
    }
}

/// Burn-rate thresholds derived from each rule's budget share, its long window and the SLO window.
@Suite struct BurnRateThresholdTests {
    /// (SLO window, budget share, long window, evaluation time, threshold).
    static let cases: [(SLOWindow, Double, Int64, String, Double)] = [
        (.rolling(seconds: 30 * 86_400), 0.02, 3600, "2026-11-14T00:00:00Z", 14.4),
        (.rolling(seconds: 28 * 86_400), 0.02, 3600, "2026-11-14T00:00:00Z", 13.44),
        (.rolling(seconds: 28 * 86_400), 0.05, 6 * 3600, "2026-11-14T00:00:00Z", 5.6),
        (.rolling(seconds: 28 * 86_400), 0.1, 86_400, "2026-11-14T00:00:00Z", 2.8),
        (.rolling(seconds: 7 * 86_400), 0.02, 3600, "2026-11-14T00:00:00Z", 3.36),
        (.calendarMonth, 0.02, 3600, "2026-02-10T12:00:00Z", 13.44),
        (.calendarMonth, 0.02, 3600, "2026-01-31T23:59:00Z", 14.88),
        (.calendarMonth, 0.02, 3600, "2028-02-29T00:00:00Z", 13.92),
    ]

    @Test(arguments: cases)
    func theThresholdIsTheBudgetShareOfTheWindowOverTheLongWindow(
        window: SLOWindow, share: Double, long: Int64, at time: String, expected: Double
    ) {
        let rule = SLOPolicy.BurnRateRule(severity: .page, longWindowSeconds: long, shortWindowSeconds: 300, budgetShare: share)
        let objective = SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: window)
        let threshold = rule.burnRate(for: objective, at: RFC3339.parseMillis(time)! / 1000)
        #expect(abs(threshold - expected) < 1e-9, "\(threshold)")
    }

    @Test func aCalendarMonthRunsFromItsFirstSecond() {
        let period = SLOWindow.calendarMonth.period(at: RFC3339.parseMillis("2026-11-22T10:00:00Z")! / 1000)
        #expect(RFC3339.format(seconds: period.startSeconds) == "2026-11-01T00:00:00Z" && period.lengthSeconds == 30 * 86_400)
    }
}
