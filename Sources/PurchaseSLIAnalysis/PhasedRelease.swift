import Foundation
import PurchaseSLICore

/// An App Store phased release as the events show it: hour by hour, the candidate's share of the events
/// of its platforms, read against Apple's steps (1, 2, 5, 10, 20, 50, 100 % of automatic-update users,
/// a day each). Users who update by hand come on top of the step, so the share is what the release
/// *appears* to be at.
public struct PhasedRelease: Sendable, Hashable {
    /// Apple's steps, in percent of automatic-update users, one a day (``StoreRelease/appleSteps``).
    public static let steps = StoreRelease.appleSteps

    /// An hour's events: the candidate's, and all of its platforms'.
    public struct Hour: Sendable, Hashable {
        /// Start of the hour, seconds since the epoch.
        public var startSeconds: Int64
        /// Events of the candidate.
        public var candidateEvents: Int64
        /// Events of every version on the candidate's platforms (the candidate's included).
        public var platformEvents: Int64

        /// Creates an hour.
        public init(startSeconds: Int64, candidateEvents: Int64, platformEvents: Int64) {
            self.startSeconds = startSeconds
            self.candidateEvents = candidateEvents
            self.platformEvents = platformEvents
        }
    }

    /// A candidate below this share of its platforms' events in an hour is absent from it (a tester's
    /// stray events are not a release).
    public static let presenceShare = 0.001
    /// This many hours absent in a row end a release: the next hour present starts another. A candidate
    /// absent this long before the evaluation time is gone (``isGone(at:)``).
    public static let gapHours = 24
    /// A release whose share over a whole day falls below this fraction of the highest it had reached
    /// collapsed: when the version climbs again from there, that day starts another release.
    public static let collapseFraction = 0.1
    /// A climb after a collapse: the share over a day at least this many times the collapsed day's, on at
    /// least ``climbEvents`` events of the candidate (a phased release doubles its share at each step but
    /// the last; a version users leave for a newer one never climbs back).
    public static let climbFactor = 1.5
    /// The fewest candidate events over the day a climb is read from.
    public static let climbEvents: Int64 = 10

    /// The hours of the latest release, from its first, in time order.
    public let hours: [Hour]
    /// The latest release's first hour.
    public var startSeconds: Int64 { hours[0].startSeconds }
    /// The hours of an earlier release of the same version, when one was seen before the latest
    /// (from its first hour to the end of its last).
    public let earlierRelease: Range<Int64>?
    /// The start of the last hour the candidate was present in.
    public let lastPresentSeconds: Int64
    /// The step each hour appears to be at (nil before the candidate is seen): the highest reached over
    /// settled windows, or the hour's own when higher (see ``settledWindowHours``).
    private let reachedSteps: [Int?]

    /// The latest release in `hours` (every hour with events on the candidate's platforms, in time
    /// order). A release starts at the first hour present, and another one starts
    /// - at the first hour present after ``gapHours`` hours absent, or
    /// - at a collapse: the first hour from which a whole day's share is below ``collapseFraction`` of
    ///   the highest settled share the release had reached, when the version later climbs to
    ///   ``climbFactor`` times that day's share (a version pulled and released again, where one that
    ///   stopped without coming back stays one release).
    ///
    /// Nil when the candidate is present in no hour.
    public init?(hours: [Hour]) {
        let present = hours.map { $0.platformEvents > 0 && Double($0.candidateEvents) >= Self.presenceShare * Double($0.platformEvents) }
        guard var start = present.firstIndex(of: true), let last = present.lastIndex(of: true) else { return nil }
        let days = DayShares(hours)
        var earlier: Range<Int64>?
        var absentRun = 0
        var lastPresent = start
        var peak = 0.0
        var index = start
        while index < hours.count {
            let time = hours[index].startSeconds
            let presentBefore = lastPresent
            if present[index] {
                if absentRun >= Self.gapHours {
                    earlier = hours[start].startSeconds..<(hours[lastPresent].startSeconds + .secondsPerHour)
                    (start, peak) = (index, 0)
                }
                absentRun = 0
                lastPresent = index
            } else {
                absentRun += 1
            }
            let threshold = peak * Self.collapseFraction
            func isLow(_ hour: Int) -> Bool {
                present[hour] && Double(hours[hour].candidateEvents) < threshold * Double(hours[hour].platformEvents)
            }
            // A day without the version at all is a gap, which the rule above ends.
            if peak > 0, let day = days.share(from: time, to: time + .secondsPerDay, complete: true), day.events > 0, day.share < threshold,
                days.climbs(after: time + .secondsPerDay, to: day.share * Self.climbFactor),
                // The day's first hours may still be the old release's: the new one starts at its first
                // hour present below the threshold.
                let first = (index..<hours.count).prefix(while: { hours[$0].startSeconds < time + .secondsPerDay }).first(where: isLow)
            {
                let oldEnd = (index..<first).last { present[$0] } ?? presentBefore
                earlier = hours[start].startSeconds..<(hours[oldEnd].startSeconds + .secondsPerHour)
                (start, lastPresent, peak, absentRun, index) = (first, first, 0, 0, first + 1)
                continue
            }
            // The share over the day up to this hour's end, once the release is old enough to settle it.
            if time - hours[start].startSeconds >= Int64(Self.settledWindowHours - 1) * .secondsPerHour,
                let day = days.share(from: max(hours[start].startSeconds, time - 82_800), to: time + .secondsPerHour)
            {
                peak = max(peak, day.share)
            }
            index += 1
        }
        let release = Array(hours[start...])
        self.hours = release
        earlierRelease = earlier
        lastPresentSeconds = hours[last].startSeconds
        reachedSteps = Self.reachedSteps(release)
    }

    /// Whether the candidate is gone at `time`: absent for ``gapHours`` or more before it (its events
    /// stopped, or fell below ``presenceShare`` of its platforms'), so no release of it is live.
    public func isGone(at time: Int64) -> Bool {
        time - (lastPresentSeconds + .secondsPerHour) >= Int64(Self.gapHours) * .secondsPerHour
    }

    /// A share read over fewer hours than this (the release's first hours) gives the step of its own
    /// hour but does not raise the highest step reached: a few early events are not a step.
    static let settledWindowHours = 12

    /// For each hour, the step nearest to the share over the day before its end (or since the start, on
    /// the first day), and the highest such step over windows of ``settledWindowHours`` or more.
    private static func reachedSteps(_ hours: [Hour]) -> [Int?] {
        var result: [Int?] = []
        var highest: Int?
        var (candidateSum, platformSum) = (Int64(0), Int64(0))
        var windowStart = 0
        for hour in hours {
            candidateSum += hour.candidateEvents
            platformSum += hour.platformEvents
            while hours[windowStart].startSeconds <= hour.startSeconds - .secondsPerDay {
                candidateSum -= hours[windowStart].candidateEvents
                platformSum -= hours[windowStart].platformEvents
                windowStart += 1
            }
            guard platformSum > 0, candidateSum > 0 else {
                result.append(highest)
                continue
            }
            let step = nearestStep(toShare: Double(candidateSum) / Double(platformSum))
            if hour.startSeconds - hours[windowStart].startSeconds >= Int64(settledWindowHours - 1) * .secondsPerHour {
                highest = max(highest ?? step, step)
                result.append(highest)
            } else {
                result.append(max(highest ?? step, step))
            }
        }
        return result
    }

    /// The step nearest to `share` (0 to 1) on a log scale.
    public static func nearestStep(toShare share: Double) -> Int {
        steps.min { abs(log(share * 100 / Double($0))) < abs(log(share * 100 / Double($1))) }!
    }

    /// The step after `step`, nil after 100 %.
    public static func nextStep(after step: Int) -> Int? {
        steps.first { $0 > step }
    }

    /// The step the release appears to be at by `time`: the highest reached in its hours before `time`.
    public func step(at time: Int64) -> Int? {
        let end = hours.firstIndex(millis: \.startSeconds, notBefore: time)
        return end == 0 ? nil : reachedSteps[end - 1]
    }

    /// The candidate's share of its platforms' events over the day before `time` (since the start, on
    /// the first day), nil without events.
    public func share(at time: Int64) -> Double? {
        let day = hours[
            hours.firstIndex(millis: \.startSeconds, notBefore: time - .secondsPerDay)..<hours.firstIndex(millis: \.startSeconds, notBefore: time)]
        let platform = day.reduce(0) { $0 + $1.platformEvents }
        return platform == 0 ? nil : Double(day.reduce(0) { $0 + $1.candidateEvents }) / Double(platform)
    }

    /// The day of the release `time` falls on: 1 during its first 24 hours.
    public func day(at time: Int64) -> Int {
        Int(max(0, time - 1 - startSeconds) / .secondsPerDay) + 1
    }
}

/// The candidate's share of its platforms' events over any range of hours, from running sums.
private struct DayShares {
    private let starts: [Int64]
    /// Running sums: the candidate's and the platforms' events before each hour.
    private let candidateSums: [Int64]
    private let platformSums: [Int64]
    /// For each hour, the highest share over a day ending with it (on ``PhasedRelease/climbEvents`` or
    /// more), from that hour on.
    private let laterHighest: [Double]

    init(_ hours: [PhasedRelease.Hour]) {
        starts = hours.map(\.startSeconds)
        var (candidate, platform): ([Int64], [Int64]) = ([0], [0])
        for hour in hours {
            candidate.append(candidate.last! + hour.candidateEvents)
            platform.append(platform.last! + hour.platformEvents)
        }
        (candidateSums, platformSums) = (candidate, platform)
        var highest = [Double](repeating: 0, count: hours.count + 1)
        for index in hours.indices.reversed() {
            let end = hours[index].startSeconds + .secondsPerHour
            let (lower, upper) = (Self.firstIndex(in: starts, atOrAfter: end - .secondsPerDay), index + 1)
            let events = candidate[upper] - candidate[lower]
            let total = platform[upper] - platform[lower]
            let share = events >= PhasedRelease.climbEvents && total > 0 ? Double(events) / Double(total) : 0
            highest[index] = max(highest[index + 1], share)
        }
        laterHighest = highest
    }

    /// The share over the hours starting in `[from, to)`, nil without events; with `complete`, also nil
    /// when the hours seen end before `to` (the day is not over yet).
    func share(from: Int64, to: Int64, complete: Bool = false) -> (share: Double, events: Int64)? {
        if complete, (starts.last ?? 0) + .secondsPerHour < to { return nil }
        let (lower, upper) = (Self.firstIndex(in: starts, atOrAfter: from), Self.firstIndex(in: starts, atOrAfter: to))
        let total = platformSums[upper] - platformSums[lower]
        guard total > 0 else { return nil }
        let events = candidateSums[upper] - candidateSums[lower]
        return (Double(events) / Double(total), events)
    }

    /// Whether a day ending at or after `time` has a share of `share` or more.
    func climbs(after time: Int64, to share: Double) -> Bool {
        let index = Self.firstIndex(in: starts, atOrAfter: time - .secondsPerHour)
        return index < laterHighest.count - 1 && laterHighest[index] >= share
    }

    /// The index of the first start at or after `time` (the count when none is).
    private static func firstIndex(in starts: [Int64], atOrAfter time: Int64) -> Int {
        var (low, high) = (0, starts.count)
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
