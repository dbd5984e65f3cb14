import Synchronization

/// At most so many requests at once per client (a read key or an address): a client's slow, large
/// queries cannot take every thread and megabytes of memory at once, whatever its rate.
final class ConcurrencyLimiter: Sendable {
    /// Requests one client may have in progress.
    let limit: Int
    private let inProgress = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// A request's hold on one of the client's places, given back when the hold is released (its last
    /// reference dropped): once its answer is written, which for a streamed answer is after the handler.
    final class Hold: Sendable {
        private let limiter: ConcurrencyLimiter
        private let client: String

        fileprivate init(_ limiter: ConcurrencyLimiter, _ client: String) {
            self.limiter = limiter
            self.client = client
        }

        deinit { limiter.giveBack(client) }
    }

    /// A hold for `client`, or nil when it has ``limit`` requests in progress.
    func take(for client: String) -> Hold? {
        let taken = inProgress.withLock { counts in
            guard counts[client, default: 0] < limit else { return false }
            counts[client, default: 0] += 1
            return true
        }
        return taken ? Hold(self, client) : nil
    }

    /// Requests `client` has in progress.
    func count(for client: String) -> Int { inProgress.withLock { $0[client] ?? 0 } }

    fileprivate func giveBack(_ client: String) {
        inProgress.withLock { counts in
            let remaining = (counts[client] ?? 1) - 1
            counts[client] = remaining > 0 ? remaining : nil
        }
    }
}
