import Synchronization

/// A token bucket per client (an ingest or read key, or an address): each request takes a token; tokens
/// refill at a steady rate up to a burst.
///
/// Refills are measured on a clock that only moves forward (``take(for:)``), never the wall clock, which
/// NTP or a person may step: back, it would starve every client; forward, refill them all. Tests pass
/// the time in (``take(for:now:)``), so the limiter is a pure function of its calls.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Double
    }

    private let ratePerSecond: Double
    private let burst: Double
    /// The buckets, and the count past which the full ones are forgotten: a full bucket is what a new
    /// one would be, so memory follows the clients active lately, not every address ever seen.
    private let buckets = Mutex<(byKey: [String: Bucket], pruneAt: Int)>(([:], minimumPruneCount))
    private static let minimumPruneCount = 4096

    /// Buckets kept now (clients not back to a full bucket since the last pruning).
    var keptBuckets: Int { buckets.withLock { $0.byKey.count } }

    init(ratePerSecond: Double, burst: Double) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
    }

    /// Takes a token for `key` now, on the monotonic clock; see ``take(for:now:)``.
    func take(for key: String) -> Int? {
        take(for: key, now: Self.origin.duration(to: .now) / .seconds(1))
    }

    /// When the monotonic clock's seconds count from: the first use of a limiter.
    private static let origin = ContinuousClock.now

    /// Takes a token for `key` at time `now`; returns nil when allowed, else the whole seconds until a token
    /// is free, a Retry-After: at least 1, at most a day, whatever the rate.
    func take(for key: String, now: Double) -> Int? {
        buckets.withLock { state in
            var bucket = state.byKey[key] ?? Bucket(tokens: burst, updatedAt: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updatedAt) * ratePerSecond)
            bucket.updatedAt = now
            defer {
                state.byKey[key] = bucket
                if state.byKey.count >= state.pruneAt {
                    state.byKey = state.byKey.filter { $0.value.tokens + max(0, now - $0.value.updatedAt) * ratePerSecond < burst }
                    state.pruneAt = max(Self.minimumPruneCount, 2 * state.byKey.count)
                }
            }
            guard bucket.tokens >= 1 else { return Int(min(max((1 - bucket.tokens) / ratePerSecond, 1), .secondsPerDay).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }
}
