#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of day, read in one place: the system's real-time clock in the product, any function in a
/// test. Analysis never reads it: the shells (a command, a request, a scheduled round) read it once and
/// pass the time down.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that answers `millis()` (milliseconds since the epoch) each time it is read.
    public init(millis: @escaping @Sendable () -> Int64) {
        read = millis
    }

    /// The system's real-time clock. NTP or a person may step it, so it never measures a duration
    /// (`ContinuousClock` does: the rate limiters' refills, timeouts).
    public static let system = WallClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * .millisPerSecond + Int64(now.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the epoch.
    public var nowMillis: Int64 { read() }

    /// Whole seconds since the epoch, rounded down.
    public var nowSeconds: Int64 { nowMillis.floorDividedBy(.millisPerSecond).quotient }
}
