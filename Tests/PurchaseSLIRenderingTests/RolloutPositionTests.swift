import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

@testable import PurchaseSLIRendering

/// Rollout text that knows the store's schedule: Apple's 1, 2, 5, 10, 20, 50, 100 % over 7 days, what App
/// Store Connect or the Play Console report when read, a WAIT that cannot conclude in time, and no advice
/// to hold a release that reaches everyone already.
@Suite struct RolloutPositionTests {
    /// 2026-11-15T00:00:00Z.
    static let at: Int64 = 1_794_700_800

    /// A report at `at` of an iOS release that began `days` days before, on day `days + 1`, whose events
    /// are 48 % of iOS's (users who update by hand on top of the step).
    static func report(_ verdict: RolloutReport.Verdict, days: Int, reasons: [RolloutReport.Reason] = []) -> RolloutReport {
        var progress = RolloutReport.Progress(
            step: 50, nextStep: 100, share: 0.48, day: days + 1, startSeconds: at - Int64(days) * 86_400, earlierRelease: nil, confidence: 0.99)
        progress.releaseStartSeconds = at - Int64(days) * 86_400
        progress.followsAppleSchedule = true
        var report = RolloutReport(
            candidate: "4.12.0", baseline: "4.11.0", fromSeconds: progress.startSeconds, toSeconds: at, verdict: verdict, reasons: reasons,
            comparisons: [], progress: progress)
        report.platforms = ["iOS"]
        return report
    }

    /// The purchase flow not yet conclusive: `more` events expected by `expectedBy`.
    static func waiting(expectedBy: Int64) -> RolloutReport.Reason {
        .notYetConclusive(
            RolloutComparison(
                metric: .successRate, slice: SeriesLabels(actionType: "purchase"), candidate: .init(count: 64, trials: 65),
                baseline: .init(count: 990, trials: 1000)),
            allowed: 0.01, moreTrials: 935, expectedBySeconds: expectedBy, blocking: true)
    }

    @Test("day 3 of an App Store release is Apple's 5 %, whatever share its events have")
    func theDayGivesApplesStep() {
        let text = RolloutOutput.text(Self.report(.proceed, days: 2), zone: .utc)
        #expect(
            text.contains(
                "phased release day 3: 5 % of automatic-update users on Apple's schedule (1, 2, 5, 10, 20, 50, 100 % over 7 days, unless "
                    + "paused); its events are 48.0 % of its platform's over the last day (users who update by hand come on top)"), "\(text)")
        #expect(text.contains("PROCEED with 4.12.0: nothing is worse than on 4.11.0; let the phased release go on: day 4 takes it from 5 % to 10 %."))
        #expect(!text.contains("appears to be at 50 %"))
    }

    @Test("a WAIT whose evidence comes after the release reaches everyone says so and what to do")
    func aWaitThatCannotConcludeInTimeSaysSo() {
        let late = Self.report(.insufficientData, days: 2, reasons: [Self.waiting(expectedBy: Self.at + 18 * 86_400)])
        let text = RolloutOutput.text(late, zone: .utc)
        #expect(
            text.hasPrefix(
                "WAIT on 4.12.0: not enough seen yet to rule out a drop of the purchase flow; at the current rate that takes longer than the "
                    + "release has: it reaches everyone by 2026-11-19T00:00:00Z. Pause it in App Store Connect to hold it at 5 % while the "
                    + "evidence grows (Apple allows 30 days of pauses in all), or decide without it; check again later."), "\(text)")
        #expect(text.contains("expected by 2026-12-03T00:00:00Z at the current rate, after the release reaches everyone (2026-11-19T00:00:00Z)"))
        let inTime = RolloutOutput.text(Self.report(.insufficientData, days: 2, reasons: [Self.waiting(expectedBy: Self.at + 86_400)]), zone: .utc)
        #expect(
            inTime.contains("keep the phased release at 5 % (pause it in App Store Connect before day 4 takes it to 10 %) and check again later."))
    }

    @Test("at 100 % neither a WAIT nor a PROCEED asks to hold or take a step")
    func aReleaseAtEveryoneIsNotHeld() {
        let wait = RolloutOutput.text(Self.report(.insufficientData, days: 8, reasons: [Self.waiting(expectedBy: Self.at + 86_400)]), zone: .utc)
        #expect(
            wait.hasPrefix(
                "WAIT on 4.12.0: not enough seen yet to rule out a drop of the purchase flow; it reaches everyone already (100 %), so "
                    + "pausing no longer keeps users from it: keep the feature flag at hand and check again later."), "\(wait)")
        #expect(wait.contains("phased release day 9: past Apple's 7 days: 100 % of automatic-update users unless it was paused"))
        let proceed = RolloutOutput.text(Self.report(.proceed, days: 6), zone: .utc)
        #expect(
            proceed.contains("nothing is worse than on 4.11.0; it reaches everyone already (100 %): keep the feature flag at hand."), "\(proceed)")
    }

    @Test("what the stores report wins over the schedule: App Store Connect's day and pause, Play's user fraction")
    func theStoresReportIsShown() {
        var apple = Self.report(.insufficientData, days: 2)
        apple.storeReleases = [StoreRelease(store: .apple, name: "4.12.0", isPaused: true, dayNumber: 4, pausedDays: 29)]
        let paused = RolloutOutput.text(apple, zone: .utc)
        #expect(
            paused.contains(
                "App Store phased release day 4 of 7 (App Store Connect): 10 % of automatic-update users, PAUSED; 1 day left of Apple's "
                    + "30-day pause limit, after which the release goes on"), "\(paused)")
        #expect(paused.contains("keep it paused at 10 %; 1 day left of Apple's 30-day pause limit"), "\(paused)")
        var play = Self.report(.proceed, days: 2)
        play.platforms = ["Android"]
        play.progress?.followsAppleSchedule = false
        play.storeReleases = [StoreRelease(store: .google, name: "4.12.0 (412)", isPaused: false, userFraction: 0.2)]
        let text = RolloutOutput.text(play, zone: .utc)
        #expect(text.contains("Google Play staged rollout at 20 % of users (Play Console); its events are 48.0 %"), "\(text)")
        #expect(text.contains("you may raise its staged rollout in the Play Console from 20 %"), "\(text)")
    }
}
