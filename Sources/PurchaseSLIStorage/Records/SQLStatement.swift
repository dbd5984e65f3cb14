/// One SQL statement of the low-volume records (``MaintenanceWindowRepository`` and its kin), written once
/// for every backend: its text is the code's own, and each interpolated value is bound, never spliced, as
/// a placeholder each dialect spells its way (`?` in SQLite, `$1` in PostgreSQL).
///
/// ```swift
/// let statement: SQLStatement = "DELETE FROM maintenance_window WHERE id = \(id) RETURNING \(sql: columns)"
/// ```
public struct SQLStatement: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// A piece of the statement: code's text, a bound value, or a word each dialect spells its way.
    enum Part: Sendable, Hashable {
        case text(String)
        case value(SQLValue)
        case byteOrder
        case oneOf([String])
    }

    var parts: [Part]

    /// A statement of the code's text alone.
    public init(stringLiteral text: String) {
        parts = [.text(text)]
    }

    /// A statement with values bound where they are interpolated.
    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// `statements` one after the other, `separator` between each two: the rows of a multi-row `VALUES`.
    public static func joined(_ statements: some Sequence<SQLStatement>, separator: String = ", ") -> SQLStatement {
        var joined = SQLStatement(stringLiteral: "")
        for (index, statement) in statements.enumerated() {
            if index > 0 { joined.parts.append(.text(separator)) }
            joined.parts += statement.parts
        }
        return joined
    }

    /// The statements that insert `rows` (each a parenthesized tuple of values) through `insert`, which
    /// places the multi-row `VALUES` list it is given: one statement per `rowsPerStatement` rows, far
    /// below either backend's limit of bound values, to be written together in one transaction.
    public static func inserting(
        _ rows: [SQLStatement], rowsPerStatement: Int = 500, _ insert: (_ values: SQLStatement) -> SQLStatement
    ) -> [SQLStatement] {
        stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
            insert(joined(rows[start..<min(start + rowsPerStatement, rows.count)]))
        }
    }

    /// The text for `dialect` with its placeholders, and the values they stand for, in order.
    public func rendered(for dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        var sql = ""
        var values: [SQLValue] = []
        for part in parts {
            switch part {
            case .text(let text): sql += text
            case .value(let value):
                values.append(value)
                sql += dialect == .postgres ? "$\(values.count)" : "?"
            case .byteOrder: sql += dialect == .postgres ? #"COLLATE "C""# : "COLLATE BINARY"
            case .oneOf(let texts):
                values.append(.texts(texts))
                sql += dialect == .postgres ? "= ANY($\(values.count))" : "IN (SELECT value FROM json_each(?))"
            }
        }
        return (sql, values)
    }

    /// Builds a statement: literal text is the code's, interpolations are bound values unless marked.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        /// Starts a statement.
        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        /// The code's own text.
        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        /// A value, bound.
        public mutating func appendInterpolation(_ value: SQLValue) { parts.append(.value(value)) }

        /// Text, bound.
        public mutating func appendInterpolation(_ value: String) { appendInterpolation(.text(value)) }

        /// Text or NULL, bound.
        public mutating func appendInterpolation(_ value: String?) { appendInterpolation(value.map(SQLValue.text) ?? .null) }

        /// An integer, bound.
        public mutating func appendInterpolation(_ value: Int64) { appendInterpolation(.integer(value)) }

        /// An integer or NULL, bound.
        public mutating func appendInterpolation(_ value: Int64?) { appendInterpolation(value.map(SQLValue.integer) ?? .null) }

        /// A truth value, bound.
        public mutating func appendInterpolation(_ value: Bool) { appendInterpolation(.boolean(value)) }

        /// Whether the value before is one of `texts`: `column \(oneOf: ids)` is true when `column` is
        /// among `ids` (false for none), with the list bound as one value however long it is.
        public mutating func appendInterpolation(oneOf texts: some Sequence<String>) { parts.append(.oneOf(Array(texts))) }

        /// Another statement spliced in whole (a column list the code keeps once), its values bound in place.
        public mutating func appendInterpolation(sql statement: SQLStatement) { parts += statement.parts }

        /// A collation, spelled as the dialect spells it.
        public mutating func appendInterpolation(_ collation: SQLCollation) {
            switch collation {
            case .byteOrder: parts.append(.byteOrder)
            }
        }
    }
}

/// The SQL each backend speaks; statements differ only in what ``SQLStatement`` spells for them.
public enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres
}

/// How text compares in an `ORDER BY` the backends must agree on.
public enum SQLCollation: Sendable, Hashable {
    /// By bytes (UTF-8), as Swift's `<` orders ASCII ids: SQLite's `BINARY`, PostgreSQL's `"C"`.
    case byteOrder
}
