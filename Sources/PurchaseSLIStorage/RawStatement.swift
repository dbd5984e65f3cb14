import GRDB
import GRDBSQLite

/// A prepared statement driven through the SQLite C API, for the hot paths where GRDB's per-value
/// conversions cost more than the work itself (bulk upserts and bucket scans).
struct RawStatement {
    private let statement: Statement
    private let db: Database
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
    }

    func bind(_ values: Int64...) {
        for (offset, value) in values.enumerated() { sqlite3_bind_int64(handle, Int32(offset + 1), value) }
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(text: String, at index: Int32) {
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            sqlite3_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1), sqliteTransient)
        }
    }

    func bind(blob: [UInt8], at index: Int32) {
        _ = blob.withUnsafeBytes { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), sqliteTransient)
        }
    }

    /// The bytes of a blob column of the current row, valid until the next step or reset.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, column), count: count)
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// Runs a statement that returns no row, then resets it for the next bindings.
    func run() throws {
        defer { sqlite3_reset(handle) }
        _ = try step()
    }

    func reset() { sqlite3_reset(handle) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// Rows changed by the last statement of this connection.
    var changes: Int32 { sqlite3_changes(db.sqliteConnection) }
}

private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
