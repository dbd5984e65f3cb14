import Testing

@testable import PurchaseSLIServer

/// The token buckets of ingestion and reads: a refusal's wait is a Retry-After in whole seconds.
@Suite struct RateLimiterTests {
    @Test(
        "a refusal waits whole seconds, at least 1 and at most a day, whatever the rate",
        arguments: [
            (rate: 2.0, expected: 1),  // half a second, rounded up
            (rate: 0.001, expected: 1000),  // the smallest rate the config takes
            (rate: 1e-300, expected: 86_400),  // a rate that once overflowed Int and trapped
        ])
    func retryAfter(rate: Double, expected: Int) {
        let limiter = RateLimiter(ratePerSecond: rate, burst: 1)
        #expect(limiter.take(for: "key", now: 0) == nil)
        #expect(limiter.take(for: "key", now: 0) == expected)
        #expect(limiter.take(for: "other", now: 0) == nil, "each key has a bucket of its own")
    }

    @Test("memory follows the clients active lately: buckets full again are forgotten once thousands are kept")
    func forgetsIdleClients() {
        let limiter = RateLimiter(ratePerSecond: 2, burst: 1)
        for address in 0..<5000 { #expect(limiter.take(for: "a\(address)", now: 0) == nil) }
        for address in 0..<5000 { #expect(limiter.take(for: "b\(address)", now: 10) == nil) }
        #expect(limiter.keptBuckets == 5000, "the first 5,000 were full again at t = 10 s and forgotten")
        #expect(limiter.take(for: "b0", now: 10) == 1, "a client still limited keeps its bucket")
    }
}

/// Reads in progress at once per client.
@Suite struct ConcurrencyLimiterTests {
    @Test("a client has at most its limit of requests in progress; a hold dropped gives its place back; clients are apart")
    func holds() {
        let limiter = ConcurrencyLimiter(limit: 2)
        var holds = [limiter.take(for: "a"), limiter.take(for: "a")]
        #expect(holds.allSatisfy { $0 != nil })
        #expect(limiter.take(for: "a") == nil)
        #expect(limiter.take(for: "b") != nil, "another client's places are its own")
        holds.removeLast()
        #expect(limiter.count(for: "a") == 1)
        #expect(limiter.take(for: "a") != nil)
        holds.removeAll()
        #expect(limiter.count(for: "a") == 0)
    }
}
