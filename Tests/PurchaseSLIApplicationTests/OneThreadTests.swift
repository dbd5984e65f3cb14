import Foundation
import NIOPosix
import PurchaseSLIApplication
import Testing

/// `ingest` parses with `onOneThread`: every step on one thread (so malloc frees where it allocated), and
/// never an event loop's, where seconds of parsing stalled every connection of that loop (CI's tests of
/// outbound calls could not connect within 5 s while a test ingested the sample logs).
@Suite struct OneThreadTests {
    @Test func everyStepRunsOnOneThreadThatIsNoEventLoops() async throws {
        let threads = try await onOneThread {
            var seen: [UInt] = []
            for _ in 0..<20 {
                #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
                seen.append(UInt(pthread_self()))
                // A suspension that resumes elsewhere unless the executor keeps the task on its thread.
                try await Task.sleep(for: .milliseconds(1))
                await Task.yield()
            }
            return Set(seen)
        }
        #expect(threads.count == 1)
        #expect(!threads.contains(UInt(pthread_self())))
    }

    @Test func anErrorOfTheWorkReachesTheCaller() async {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await onOneThread { throw Refused() } }
    }
}
