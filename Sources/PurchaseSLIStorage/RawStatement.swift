import GRDB
import GRDBSQLite

/// A prepared statement driven through the SQLite C API, for the hot paths where GRDB's per-value
/// conversions cost more than the work itself (bulk upserts and bucket scans).
struct RawStatement {
    private let statement: Statement
    private let db: Database
    private var handle: OpaquePointer { statement.sqliteStatement }

    /// The statement for `sql`, prepared on the connection's first use and reused after that (reset,
    /// without bindings, whatever its last user left it in).
    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
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

    /// Binds NULL at `index`.
    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Binds a copy of `blob` at `index` (an empty blob, not NULL, when it has no bytes).
    func bind(copying blob: [UInt8], at index: Int32) {
        guard !blob.isEmpty else {
            sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        _ = blob.withUnsafeBytes { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), sqliteTransient)
        }
    }

    /// Binds `blob` at `index` without copying it, runs the statement and resets it for the next
    /// bindings (the blob then bound no more).
    func run(binding blob: UnsafeRawBufferPointer, at index: Int32) throws {
        defer { sqlite3_bind_null(handle, index) }
        sqlite3_bind_blob(handle, index, blob.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(blob.count), nil)
        try run()
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

    /// Whether the column's value is an integer (not NULL, text, a real or a blob).
    func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_INTEGER }

    /// Whether the column's value is NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column's text, or nil when it is NULL.
    func text(_ column: Int32) -> String? {
        guard let characters = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: characters, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// The column's integer, or nil when it is NULL.
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column's number, or nil when it is NULL.
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    /// Rows changed by the last statement of this connection.
    var changes: Int32 { sqlite3_changes(db.sqliteConnection) }
}

private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
