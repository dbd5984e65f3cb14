#if PostgreSQL
import PurchaseSLIStorage
import Synchronization

/// Runs `work`, and gives up on it after `timeout`: the work is cancelled and the caller
/// gets ``PurchaseSLIStorage/StorageError/unavailable(_:)`` at the deadline, even when the work does not
/// stop at once (a query on a connection whose server went silent).
///
/// The work runs on the global executor, not on the client's event loops: decoding rows there would keep
/// every store's connections of the process waiting behind it.
func withDeadline<Value: Sendable>(
    _ timeout: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let race = DeadlineRace<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.pending.withLock { $0 = continuation }
            let worker = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                race.finish(with: result)
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                guard race.expire() else { return }
                worker.cancel()
            }
            race.started(worker: worker, timer: timer, timeout: timeout)
        }
    } onCancel: {
        race.cancel()
    }
}

/// The work and the timer of one ``withDeadline(_:_:)``: whichever ends first resumes the caller.
private final class DeadlineRace<Value: Sendable>: Sendable {
    let pending = Mutex<CheckedContinuation<Value, any Error>?>(nil)
    private let tasks = Mutex<(worker: Task<Void, Never>, timer: Task<Void, Never>, timeout: Duration)?>(nil)

    /// The deadline passed: the caller gets ``PurchaseSLIStorage/StorageError/unavailable(_:)`` unless the
    /// work ended first; whether it did not.
    func expire() -> Bool {
        guard let continuation = pending.withLock({ $0.take() }) else { return false }
        let seconds = tasks.withLock { $0?.timeout.components.seconds } ?? 0
        continuation.resume(throwing: StorageError.unavailable("no answer from PostgreSQL within \(seconds) s"))
        return true
    }

    /// The work ended: its result goes to the caller unless the deadline passed, and the timer stops.
    func finish(with result: Result<Value, any Error>) {
        pending.withLock { $0.take() }?.resume(with: result)
        tasks.withLock { $0?.timer }?.cancel()
    }

    /// Both tasks run; the timer stops at once when the work ended before it was known.
    func started(worker: Task<Void, Never>, timer: Task<Void, Never>, timeout: Duration) {
        tasks.withLock { $0 = (worker, timer, timeout) }
        if pending.withLock({ $0 == nil }) { timer.cancel() }
    }

    /// The caller was cancelled: so are the work and the timer.
    func cancel() {
        guard let (worker, timer, _) = tasks.withLock({ $0 }) else { return }
        worker.cancel()
        timer.cancel()
    }
}
#endif
