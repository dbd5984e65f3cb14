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
