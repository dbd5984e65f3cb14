import Foundation
import GRDB
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A task executor that runs nothing until told: the test decides when a suspended task may resume.
private final class HeldExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
    }

    /// How many jobs wait to run.
    var waiting: Int { lock.withLock { jobs.count } }

    /// Runs the jobs waiting now, on the calling thread.
    func runWaiting() {
        let taken = lock.withLock {
            defer { jobs = [] }
            return jobs
        }
        for job in taken { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

/// Whether the fail-safe had to let a held task resume.
private final class Rescue: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    func happened() { lock.withLock { flag = true } }
    var didHappen: Bool { lock.withLock { flag } }
}

/// The repositories' SQLite reads never hold one of the pool's readers while their caller waits for a
/// thread to resume on: were they to, blocking reads of the store on the threads the caller needs could
/// take the last reader and wait for it forever (two test evaluations on Swift's two cooperative threads
/// did, reading the sample logs' store).
@Suite struct SQLiteExecutorTests {
    @Test func anAsyncReadGivesItsReaderBackBeforeItsCallerResumes() async throws {
        let directory = try TemporaryDirectory()
        let statementRan = Rescue()
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        configuration.prepareDatabase { db in
            db.add(
                function: DatabaseFunction("ran", argumentCount: 0, pure: false) { _ in
                    statementRan.happened()
                    return 1
                })
        }
        let pool = try DatabasePool(path: directory.file("db.sqlite"), configuration: configuration)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t (v TEXT NOT NULL); INSERT INTO t VALUES ('kept')") }
        let executor = SQLiteExecutor(pool)
        let held = HeldExecutor()
        let read = Task(executorPreference: held) { try await executor.read("SELECT v FROM t WHERE ran() = 1", of: "t") }
        // A fail-safe, not a measurement: were the reader held until the caller resumes, the blocking read
        // below would wait forever; after a minute the caller is let run, and the test fails instead.
        let rescued = Rescue()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 60)
            for _ in 0..<6000 {
                if held.waiting > 0 {
                    rescued.happened()
                    held.runWaiting()
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        let whileHeld = try await onDedicatedThread { () throws -> String? in
            // The read's task starts (its one job until it suspends) and runs its statement; its caller's
            // resumption is then held back. Running only that first job, never a later one, leaves the
            // resumption to this test (a loop running whatever waits could run it unseen and wait forever).
            // Each wait gives up once the fail-safe has run the held jobs itself: the test then fails below.
            while held.waiting == 0 && !rescued.didHappen { Thread.sleep(forTimeInterval: 0.001) }
            held.runWaiting()
            while !statementRan.didHappen && !rescued.didHappen { Thread.sleep(forTimeInterval: 0.001) }
            while held.waiting == 0 && !rescued.didHappen { Thread.sleep(forTimeInterval: 0.001) }
            // The one reader is free while the caller has not resumed: a blocking read gets it.
            let value = try pool.read { db in try String.fetchOne(db, sql: "SELECT v FROM t") }
            held.runWaiting()
            return value
        }
        #expect(whileHeld == "kept")
        #expect(!rescued.didHappen, "the blocking read got the reader only once the async read's caller resumed")
        #expect(try await read.value.map { try $0.text(0) } == ["kept"])
    }
}
