import Foundation

/// An App Store phased release as the events show it: hour by hour, the candidate's share of the events
/// of its platforms, read against Apple's steps (1, 2, 5, 10, 20, 50, 100 % of automatic-update users,
/// a day each). Users who update by hand come on top of the step, so the share is what the release
/// *appears* to be at.
public struct PhasedRelease: Sendable, Hashable {
    /// Apple's steps, in percent of automatic-update users, one a day.
    public static let steps = [1, 2, 5, 10, 20, 50, 100]

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
    /// This many hours absent in a row end a release: the next hour present starts another.
    public static let gapHours = 24

    /// The hours of the latest release, from its first, in time order.
    public let hours: [Hour]
    /// The latest release's first hour.
    public var startSeconds: Int64 { hours[0].startSeconds }
    /// The hours of an earlier release of the same version, when one was seen before the latest
    /// (from its first hour to the end of its last).
    public let earlierRelease: Range<Int64>?
    /// The step each hour appears to be at (nil before the candidate is seen): the highest reached over
    /// settled windows, or the hour's own when higher (see ``settledWindowHours``).
    private let reachedSteps: [Int?]

    /// The latest release in `hours` (every hour with events on the candidate's platforms, in time
    /// order): it starts at the first hour present after ``gapHours`` hours absent, or at the first hour
    /// present. Nil when the candidate is present in no hour.
    public init?(hours: [Hour]) {
        let present = hours.map { $0.platformEvents > 0 && Double($0.candidateEvents) >= Self.presenceShare * Double($0.platformEvents) }
        guard var start = present.firstIndex(of: true) else { return nil }
        var earlier: Range<Int64>?
        var absentRun = 0
        var lastPresent = start
        for index in start..<hours.count {
            if present[index] {
                if absentRun >= Self.gapHours {
                    earlier = hours[start].startSeconds..<(hours[lastPresent].startSeconds + 3600)
                    start = index
                }
                absentRun = 0
                lastPresent = index
            } else {
                absentRun += 1
            }
        }
        let release = Array(hours[start...])
        self.hours = release
        earlierRelease = earlier
        reachedSteps = Self.reachedSteps(release)
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
            while hours[windowStart].startSeconds <= hour.startSeconds - 86_400 {
                candidateSum -= hours[windowStart].candidateEvents
                platformSum -= hours[windowStart].platformEvents
                windowStart += 1
            }
            guard platformSum > 0, candidateSum > 0 else {
                result.append(highest)
                continue
            }
            let step = nearestStep(toShare: Double(candidateSum) / Double(platformSum))
            if hour.startSeconds - hours[windowStart].startSeconds >= Int64(settledWindowHours - 1) * 3600 {
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
        guard let last = hours.lastIndex(where: { $0.startSeconds < time }) else { return nil }
        return reachedSteps[last]
    }

    /// The candidate's share of its platforms' events over the day before `time` (since the start, on
    /// the first day), nil without events.
    public func share(at time: Int64) -> Double? {
        let day = hours.filter { $0.startSeconds < time && $0.startSeconds >= time - 86_400 }
        let platform = day.reduce(0) { $0 + $1.platformEvents }
        return platform == 0 ? nil : Double(day.reduce(0) { $0 + $1.candidateEvents }) / Double(platform)
    }

    /// The day of the release `time` falls on: 1 during its first 24 hours.
    public func day(at time: Int64) -> Int {
        Int(max(0, time - 1 - startSeconds) / 86_400) + 1
    }
}
