import Synchronization

/// A token bucket per ingest key: each request takes a token; tokens refill at a steady rate up to a burst.
///
/// The clock is passed in (seconds as a `Double`), so the limiter is a pure function of its calls.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Double
    }

    private let ratePerSecond: Double
    private let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(ratePerSecond: Double, burst: Double) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
    }

    /// Takes a token for `key` at time `now`; returns nil when allowed, else the whole seconds until a token
    /// is free, a Retry-After: at least 1, at most a day, whatever the rate.
    func take(for key: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updatedAt) * ratePerSecond)
            bucket.updatedAt = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return Int(min(max((1 - bucket.tokens) / ratePerSecond, 1), 86_400).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }
}
