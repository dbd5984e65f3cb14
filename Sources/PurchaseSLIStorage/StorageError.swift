public import PurchaseSLICore

/// A problem with the database itself (not with one event): it stops the run.
public struct StorageError: UserFacingError, Sendable {
    private enum Kind: Sendable {
        case foreignDatabase(path: String, detail: String)
        case newerSchema(path: String, unknownMigrations: [String])
        case cannotOpen(path: String, detail: String)
        case invalidQuery(String)
        case damaged(table: String, row: String, detail: String)
        case unavailable(String)
    }

    private let kind: Kind

    /// The file exists but is not a purchase-sli database.
    public static func foreignDatabase(path: String, detail: String) -> Self {
        Self(kind: .foreignDatabase(path: path, detail: detail))
    }

    /// The database was written by a newer purchase-sli.
    public static func newerSchema(path: String, unknownMigrations: [String]) -> Self {
        Self(kind: .newerSchema(path: path, unknownMigrations: unknownMigrations))
    }

    /// The database cannot be opened or created.
    public static func cannotOpen(path: String, detail: String) -> Self {
        Self(kind: .cannotOpen(path: path, detail: detail))
    }

    /// A query that the store cannot answer as asked.
    public static func invalidQuery(_ message: String) -> Self {
        Self(kind: .invalidQuery(message))
    }

    /// A query whose answer would hold more than `limit` rows.
    static func tooManyRows(limit: Int, groups: Int, query: CountQuery) -> Self {
        let range = TimeStep(seconds: max(.secondsPerMinute, query.toSeconds - query.fromSeconds))
        return invalidQuery(
            "the answer would hold more than \(limit) rows (\(groups) group\(groups == 1 ? "" : "s") over \(range)"
                + (query.step.map { " at steps of \($0)" } ?? "") + "), this server's limit: use a larger step, a shorter range, "
                + "fewer by dimensions or where filters")
    }

    /// The database cannot be reached or did not answer in time; trying again later may work.
    public static func unavailable(_ detail: String) -> Self {
        Self(kind: .unavailable(detail))
    }

    /// Whether the database could not be reached or did not answer in time: what was being written may
    /// or may not have committed.
    public var isUnavailable: Bool {
        if case .unavailable = kind { return true }
        return false
    }

    /// Whether the query, not the database, is at fault (a client error).
    public var isInvalidQuery: Bool {
        if case .invalidQuery = kind { return true }
        return false
    }

    /// A row of the database does not hold what purchase-sli writes: the file was damaged or edited.
    public static func damaged(table: String, row: String, detail: String) -> Self {
        Self(kind: .damaged(table: table, row: row, detail: detail))
    }

    public var description: String {
        switch kind {
        case let .foreignDatabase(path, detail):
            "\(path) is not a purchase-sli database (\(detail)); choose another --db path"
        case let .newerSchema(path, migrations):
            "\(path) was written by a newer purchase-sli (unknown schema migrations: "
                + "\(migrations.joined(separator: ", "))); upgrade purchase-sli to read it"
        case let .cannotOpen(path, detail):
            "cannot open database \(path): \(detail)"
        case let .invalidQuery(message):
            message
        case let .unavailable(detail):
            "the database is unavailable: \(detail)"
        case let .damaged(table, row, detail):
            "the database is damaged: \(row) of table \(table) does not decode (\(detail)); restore the file from a "
                + "backup, or delete that row to go on without its counts"
        }
    }
}
