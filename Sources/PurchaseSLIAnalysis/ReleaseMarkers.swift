/// When each app version reached 1 % of its platform's events: the moment a release shows on the charts,
/// read from hourly counts per platform and version. A version marks the first hour its share is at least
/// ``share`` after a day below it (a version already there when the counts begin is not marked). Hours
/// with fewer than ``minimumPlatformEvents`` events on the platform tell nothing either way (1 of 30 is
/// not a release) and do not count toward the day: a quiet weekend or a gap in the data re-marks nothing.
public enum ReleaseMarkers {
    /// The share of its platform's events an hour that marks a version as released.
    public static let share = 0.01
    /// Hours of the platform that could tell (``minimumPlatformEvents``) below the share before an hour that
    /// marks.
    public static let quietHours = 24
    /// The fewest events of a platform in an hour for its shares to count.
    public static let minimumPlatformEvents: Int64 = 100

    /// One version reaching the share on one platform.
    public struct Reach: Sendable, Hashable {
        /// The hour it first reached the share (its start, seconds).
        public var timeSeconds: Int64
        /// The platform (`iOS`, `Android`), empty when the events name none.
        public var platform: String
        /// The app version.
        public var version: String
        /// Its share of the platform's events that hour.
        public var share: Double
    }

    /// The reaches in `[from, to)` from `hours`: per hour start, the events of each (platform, version),
    /// covering at least a day before `from` (an hour missing has no events); in time order.
    public static func reaches(
        hours: [Int64: [PlatformVersion: Int64]], from: Int64, to: Int64
    ) -> [Reach] {
        // Hours are counted per platform, thin ones left out: a day below is 24 hours that could tell.
        var observed: [String: Int] = [:]
        var lastAbove: [PlatformVersion: Int] = [:]
        var reaches: [Reach] = []
        for hour in hours.keys.sorted() {
            let counts = hours[hour] ?? [:]
            var platformTotals: [String: Int64] = [:]
            for (key, events) in counts { platformTotals[key.platform, default: 0] += events }
            var index: [String: Int] = [:]
            for (platform, total) in platformTotals where total >= minimumPlatformEvents {
                index[platform] = observed[platform, default: 0]
                observed[platform, default: 0] += 1
            }
            for (key, events) in counts.sorted(by: { ($0.key.platform, $0.key.version) < ($1.key.platform, $1.key.version) }) {
                guard let position = index[key.platform], let total = platformTotals[key.platform] else { continue }
                let share = Double(events) / Double(total)
                guard share >= Self.share else { continue }
                let quiet = lastAbove[key].map { position - $0 - 1 >= quietHours } ?? (position >= quietHours)
                if quiet, hour >= from, hour < to {
                    reaches.append(Reach(timeSeconds: hour, platform: key.platform, version: key.version, share: share))
                }
                lastAbove[key] = position
            }
        }
        return reaches
    }

    /// A platform and an app version.
    public struct PlatformVersion: Sendable, Hashable {
        /// The platform, empty when the events name none.
        public var platform: String
        /// The app version.
        public var version: String

        /// Creates the pair.
        public init(platform: String, version: String) {
            self.platform = platform
            self.version = version
        }
    }
}
