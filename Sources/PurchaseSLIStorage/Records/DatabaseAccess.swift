import GRDB

extension DatabaseReader {
    /// Runs `work` on one of the database's readers, in a read transaction, and gives the reader back on
    /// its own queue before the caller resumes (GRDB's async `read` gives it back only after): a caller
    /// waiting for a busy thread holds no reader meanwhile, so that blocking reads on those threads cannot
    /// take the last reader and wait for it forever.
    func readGivingReaderBack<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            asyncRead { database in continuation.resume(with: Result { try work(try database.get()) }) }
        }
    }
}

extension DatabaseReader {
    /// Runs `work` on one of the database's readers as ``readGivingReaderBack(_:)`` does, handing it `body`,
    /// a closure of the caller's that `work` may call: on the reader's queue, while the caller is suspended
    /// awaiting this read, so never at the same time as the caller runs (a scan's visitor, say).
    func read<Time, Entries>(
        calling body: (Time, Entries) throws -> Void, _ work: @escaping @Sendable (Database, (Time, Entries) throws -> Void) throws -> Void
    ) async throws {
        try await withoutActuallyEscaping(body) { body in
            // The reader's queue may let go of `work` only after the caller resumed: the box does, and
            // forgets the closure before it leaves this block, whose end checks that it did not escape.
            let visitor = SuspendedCallersClosure(body)
            defer { visitor.closure = nil }
            try await readGivingReaderBack { db in try work(db, visitor.closure!) }
        }
    }
}

/// A closure of a caller that is suspended while another thread calls it: it is never called at the same
/// time as its owner runs, which the compiler cannot see.
private final class SuspendedCallersClosure<Closure>: @unchecked Sendable {
    var closure: Closure?

    init(_ closure: Closure) {
        self.closure = closure
    }
}

extension DatabaseWriter {
    /// Runs `work` in an immediate transaction (the write lock taken at its start) on the writer's queue,
    /// committed when it returns; the caller resumes once it is.
    func inImmediateTransaction<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await writeWithoutTransaction { db in
            var value: Value?
            try db.inTransaction(.immediate) {
                value = try work(db)
                return .commit
            }
            return value!
        }
    }
}
