import Logging
import PurchaseSLIApplication
import ServiceLifecycle

/// `serve`'s memory keeper: every interval (a minute, after the minute's alert, render and rollout jobs
/// have run at its start) it hands the allocator's free pages back to the system
/// (``ProcessMemory/returnFreeMemory()``), so that what the jobs allocated and freed is not kept as
/// resident memory until the next peak. Stops at graceful shutdown.
struct MemoryTrimmer: Service {
    /// Seconds between trims.
    let intervalSeconds: Int64
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { () async throws -> Void in
                while true {
                    // Half a minute past the minute: the jobs of the minute have run and freed what they held.
                    let now = wallClockMillis()
                    let period = intervalSeconds * .millisPerSecond
                    var next = now / period * period + period / 2
                    if next <= now { next += period }
                    try await Task.sleep(for: .milliseconds(next - now))
                    let released = ProcessMemory.returnFreeMemory()
                    logger.trace("free memory returned to the system", metadata: ["released": "\(released)"])
                }
            }
        } catch is CancellationError {}
    }
}
