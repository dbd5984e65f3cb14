import Foundation
import Testing

@testable import PurchaseSLIAnalysis

/// Hours of a release whose candidate has `shares[h]` of its platform's 10,000 events in hour h.
private func hours(_ shares: [Double]) -> [PhasedRelease.Hour] {
    shares.enumerated().map { hour, share in
        PhasedRelease.Hour(startSeconds: Int64(hour) * 3600, candidateEvents: Int64((share * 10_000).rounded()), platformEvents: 10_000)
    }
}

@Suite struct PhasedReleaseTests {
    @Test(
        arguments: [
            (0.009, 1), (0.013, 1), (0.015, 2), (0.03, 2), (0.04, 5), (0.07, 5), (0.15, 20), (0.33, 50), (0.8, 100), (1.0, 100),
        ] as [(Double, Int)])
    func theStepIsTheNearestOnALogScale(share: Double, step: Int) {
        #expect(PhasedRelease.nearestStep(toShare: share) == step)
    }

    /// Apple's schedule, a day per step: at the end of each day the release appears to be at that day's
    /// step, and a quiet night (a lower share for a few hours) does not take it back.
    @Test func eachDayOfTheScheduleIsItsStep() throws {
        let steps = [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0]
        var shares = steps.flatMap { Array(repeating: $0, count: 24) }
        for hour in 100..<106 { shares[hour] = 0.001 }
        let release = try #require(PhasedRelease(hours: hours(shares)))
        for (day, share) in steps.enumerated() {
            let end = Int64(day + 1) * 86_400
            #expect(release.step(at: end) == Int((share * 100).rounded()), "day \(day + 1)")
            #expect(release.day(at: end) == day + 1)
        }
        #expect(release.step(at: 106 * 3600) == 10)
        #expect(release.earlierRelease == nil && release.startSeconds == 0)
    }

    /// A version seen for two days, gone for a day and a half, then released again: the release is the
    /// latest one, and the earlier one is named. A tester's stray events (under 0.1 %) start nothing.
    @Test func aReReleaseStartsAfterADayWithoutTheVersion() throws {
        let shares =
            Array(repeating: 0.0005, count: 10) + Array(repeating: 0.01, count: 48) + Array(repeating: 0, count: 36)
            + Array(repeating: 0.01, count: 30)
        let release = try #require(PhasedRelease(hours: hours(shares)))
        #expect(release.startSeconds == 94 * 3600)
        #expect(release.earlierRelease == Int64(10 * 3600)..<Int64(58 * 3600))
        #expect(release.day(at: 94 * 3600 + 3600) == 1)

        // Twenty hours without it (a paused release at night) do not split it.
        let paused = Array(repeating: 0.01, count: 30) + Array(repeating: 0, count: 20) + Array(repeating: 0.02, count: 30)
        let one = try #require(PhasedRelease(hours: hours(paused)))
        #expect(one.startSeconds == 0 && one.earlierRelease == nil)
        #expect(PhasedRelease(hours: hours(Array(repeating: 0.0005, count: 30))) == nil)
    }

    /// Two days of one version at a third of the traffic, then the same version from 1 % climbing by the
    /// phased release's steps: once it has climbed, the release starts where the share collapsed (not at
    /// the hour whose next day first falls low, which is still the old one's), and the old one is named.
    /// Before the climb, and for a version users leave for a newer one, it stays one release.
    @Test func aCollapseThenAClimbIsANewRelease() throws {
        let old = Array(repeating: 0.35, count: 48)
        let shares = old + Array(repeating: 0.01, count: 24) + Array(repeating: 0.02, count: 24) + Array(repeating: 0.05, count: 10)
        let release = try #require(PhasedRelease(hours: hours(shares)))
        #expect(release.startSeconds == 48 * 3600)
        #expect(release.earlierRelease == Int64(0)..<Int64(48 * 3600))
        #expect(release.step(at: 96 * 3600) == 2)

        let beforeTheClimb = try #require(PhasedRelease(hours: hours(old + Array(repeating: 0.01, count: 30))))
        #expect(beforeTheClimb.startSeconds == 0 && beforeTheClimb.earlierRelease == nil)

        let declines = Array(repeating: 0.9, count: 48) + (0..<72).map { 0.9 * pow(0.95, Double($0)) } + Array(repeating: 0.02, count: 48)
        let superseded = try #require(PhasedRelease(hours: hours(declines)))
        #expect(superseded.startSeconds == 0 && superseded.earlierRelease == nil)
    }

    /// A version absent for a day or more before the evaluation time is gone; twenty hours is a quiet night.
    @Test(arguments: [(20, false), (23, false), (24, true), (40, true)] as [(Int, Bool)])
    func aVersionAbsentForADayIsGone(absentHours: Int, gone: Bool) throws {
        let shares = Array(repeating: 0.05, count: 48) + Array(repeating: 0, count: absentHours)
        let release = try #require(PhasedRelease(hours: hours(shares)))
        #expect(release.lastPresentSeconds == 47 * 3600)
        #expect(release.isGone(at: Int64(48 + absentHours) * 3600) == gone)
    }
}
