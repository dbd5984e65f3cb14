@testable import PurchaseSLIServer
import Testing

/// The token buckets of ingestion and reads: a refusal's wait is a Retry-After in whole seconds.
@Suite struct RateLimiterTests {
    @Test("a refusal waits whole seconds, at least 1 and at most a day, whatever the rate", arguments: [
        (rate: 2.0, expected: 1),         // half a second, rounded up
        (rate: 0.001, expected: 1000),    // the smallest rate the config takes
        (rate: 1e-300, expected: 86_400), // a rate that once overflowed Int and trapped
    ])
    func retryAfter(rate: Double, expected: Int) {
        let limiter = RateLimiter(ratePerSecond: rate, burst: 1)
        #expect(limiter.take(for: "key", now: 0) == nil)
        #expect(limiter.take(for: "key", now: 0) == expected)
        #expect(limiter.take(for: "other", now: 0) == nil, "each key has a bucket of its own")
    }
}
