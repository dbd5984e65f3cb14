package import PurchaseSLIStorage
import ServiceLifecycle

/// Runs `round` at once, then every `intervalSeconds` after the minute that round started in, until
/// graceful shutdown: the loop of every service that works on a schedule. Each round gets the wall
/// clock it started at (milliseconds) and the state the previous round left. A round runs only while
/// this node leads the nodes sharing the store (``PurchaseSLIStorage/StoreLeadership``); a follower asks
/// again at each of its rounds, so it takes over within one interval of the leader's end.
package func runScheduledRounds<State: Sendable>(
    every intervalSeconds: Int64, leadership: any StoreLeadership, nowMillis: @escaping @Sendable () -> Int64, state: State,
    _ round: @escaping @Sendable (_ millis: Int64, _ state: inout State) async -> Void
) async throws {
    do {
        try await cancelWhenGracefulShutdown { () async throws -> Void in
            var state = state
            while true {
                let millis = nowMillis()
                if await leadership.isLeader() { await round(millis, &state) }
                try await Task.sleep(
                    for: .milliseconds(max(0, (millis / .millisPerMinute * .secondsPerMinute + intervalSeconds) * .millisPerSecond - nowMillis())))
            }
        }
    } catch is CancellationError {}
}
