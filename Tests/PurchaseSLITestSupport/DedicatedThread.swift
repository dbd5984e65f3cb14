import Foundation

/// Runs blocking `work` (a socket read, a lock wait, a synchronous command) on a thread of its own and
/// returns its result without blocking the caller's thread.
///
/// Swift's cooperative pool has one thread per core: two tests blocking there stall every other task
/// in the process, timers of an in-process server included.
public func onDedicatedThread<Value: Sendable>(
    _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = "purchase-sli test: blocking work"
        thread.start()
    }
}

/// Runs async `work` (an evaluation that still reads the store with blocking calls) on the threads kept
/// for commands (``offCooperativePool(_:)``), never on Swift's cooperative pool.
public func onDedicatedThread<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await offCooperativePool(work)
}
