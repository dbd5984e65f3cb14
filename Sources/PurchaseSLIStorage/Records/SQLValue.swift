/// A value bound to an ``SQLStatement`` or read from an ``SQLRow``: the types the low-volume records' columns hold.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    /// A truth value: PostgreSQL's `boolean`; SQLite keeps it as the integer 1 or 0, and reads it back so.
    case boolean(Bool)
    /// A list of text, bound only where a statement asks whether a value is one of them
    /// (``SQLStatement/StringInterpolation/appendInterpolation(oneOf:)``): PostgreSQL's `text[]`, and a
    /// JSON array that SQLite reads with `json_each`. Never a column's value.
    case texts([String])
}

/// One row a statement gave back, its columns in the order selected. Its readers name the table and
/// column at fault when a value is not of the type the code keeps there.
public struct SQLRow: Sendable, Hashable {
    /// The columns' values.
    public var values: [SQLValue]
    /// The table read, for the error a damaged value gets.
    public var table: String

    /// Creates a row of `table`.
    public init(_ values: [SQLValue], table: String) {
        self.values = values
        self.table = table
    }

    /// Column `index` as text.
    public func text(_ index: Int) throws -> String {
        guard case .text(let text) = try value(index) else { throw damaged(index, expected: "text") }
        return text
    }

    /// Column `index` as text, or nil for NULL.
    public func optionalText(_ index: Int) throws -> String? {
        if case .null = try value(index) { return nil }
        return try text(index)
    }

    /// Column `index` as an integer.
    public func integer(_ index: Int) throws -> Int64 {
        guard case .integer(let integer) = try value(index) else { throw damaged(index, expected: "an integer") }
        return integer
    }

    /// Column `index` as a truth value: a boolean, or the integer 1 or 0 that SQLite keeps for one.
    public func boolean(_ index: Int) throws -> Bool {
        switch try value(index) {
        case .boolean(let truth): return truth
        case .integer(let integer) where integer == 0 || integer == 1: return integer == 1
        default: throw damaged(index, expected: "a truth value")
        }
    }

    /// Column `index` as an integer, or nil for NULL.
    public func optionalInteger(_ index: Int) throws -> Int64? {
        if case .null = try value(index) { return nil }
        return try integer(index)
    }

    private func value(_ index: Int) throws -> SQLValue {
        guard values.indices.contains(index) else { throw damaged(index, expected: "a value") }
        return values[index]
    }

    private func damaged(_ index: Int, expected: String) -> StorageError {
        let found = values.indices.contains(index) ? "\(values[index])" : "no column"
        return StorageError.damaged(
            table: table, row: "\(values.first.map { "\($0)" } ?? "?")", detail: "column \(index + 1): expected \(expected), found \(found)")
    }
}
