/// A problem with the database itself (not with one event): it stops the run.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case foreignDatabase(path: String, detail: String)
        case newerSchema(path: String, unknownMigrations: [String])
        case cannotOpen(path: String, detail: String)
        case invalidQuery(String)
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
        }
    }
}
