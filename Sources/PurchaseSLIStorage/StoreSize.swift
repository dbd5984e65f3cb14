import Foundation

/// How much room a store takes, as `/metrics` reports it on each scrape.
public struct StoreSize: Sendable, Equatable {
    /// The database's bytes: SQLite's file, or PostgreSQL's `pg_database_size` (tables, indexes, TOAST).
    public var databaseBytes: Int64
    /// SQLite's write-ahead log not yet checkpointed into the file; nil for a server that keeps its own.
    public var walBytes: Int64?

    /// Creates a size.
    public init(databaseBytes: Int64, walBytes: Int64?) {
        self.databaseBytes = databaseBytes
        self.walBytes = walBytes
    }
}

/// A store that can say how much room it takes.
public protocol StoreSizeReporting: Sendable {
    /// The store's size now.
    /// - Throws: when the store cannot be asked (a database server that does not answer).
    func size() async throws -> StoreSize
}

extension SQLiteBucketStore: StoreSizeReporting {
    /// The file's size and its `-wal`'s (0 for a file that does not exist).
    public func size() async throws -> StoreSize {
        StoreSize(databaseBytes: Self.fileSize(path), walBytes: Self.fileSize(path + "-wal"))
    }

    private static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
