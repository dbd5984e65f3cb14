public import Logging
public import PurchaseSLICore
public import PurchaseSLIStorage

#if PostgreSQL
public import PurchaseSLIPostgres
#endif

/// Where the store is, a SQLite file or a PostgreSQL database, and the one place that opens it: the
/// command line and the service name a location and get the store every use case is given. Its
/// description never shows a password.
public enum StoreLocation: CustomStringConvertible, Sendable {
    /// A SQLite file.
    case sqlite(path: String)
    #if PostgreSQL
    /// A PostgreSQL database.
    case postgres(PostgresURL)
    #endif

    /// Why a text names no store this build can open.
    public struct Failure: UserFacingError, Sendable {
        /// The sentence that says so, naming the option or variable the text came from.
        public let description: String
        /// Whether the text itself is malformed (a usage error), rather than naming a store this build
        /// cannot open.
        public let isMalformed: Bool
    }

    /// What a build without the PostgreSQL trait says of a `postgres://` URL.
    private static let postgresNotBuilt =
        "this purchase-sli was built without PostgreSQL support (--disable-default-traits); build it with "
        + "its default traits, `swift build -c release` (docs/postgresql.md)"

    /// Whether `text` names a PostgreSQL database (a `postgres://` or `postgresql://` URL) rather than a file.
    public static func namesPostgres(_ text: String) -> Bool { DatabaseAddress.isPostgres(text) }

    /// Parses `--db`, `PURCHASE_SLI_DB` or the like, which `source` names in errors: a `postgres://` URL,
    /// else a file path.
    /// - Throws: ``Failure`` for a URL that does not parse (malformed, its password left out), or for any
    ///   URL when the PostgreSQL store was not built.
    public init(_ text: String, source: String) throws {
        guard Self.namesPostgres(text) else {
            self = .sqlite(path: text)
            return
        }
        #if PostgreSQL
        do {
            self = .postgres(try PostgresURL(text))
        } catch {
            throw Failure(description: "\(source): \(error)", isMalformed: true)
        }
        #else
        throw Failure(description: "\(source) names a PostgreSQL database, but \(Self.postgresNotBuilt)", isMalformed: false)
        #endif
    }

    /// Opens the store. PostgreSQL's driver logs to `postgresLogger` (warnings and above unless given).
    /// - Throws: ``PurchaseSLIStorage/StorageError`` when it cannot be opened.
    public func open(configuration: StoreConfiguration, postgresLogger: Logger? = nil) async throws -> any PurchaseStore {
        switch self {
        case .sqlite(let path): return try SQLiteBucketStore(path: path, configuration: configuration)
        #if PostgreSQL
        case .postgres(let url):
            return try await PostgresBucketStore(
                url: url, configuration: configuration, logger: postgresLogger ?? PostgresBucketStore.quietLogger)
        #endif
        }
    }

    /// Which node of those sharing the store speaks for them: a PostgreSQL database's leader lease, or
    /// this node alone for a SQLite file.
    public func leadership(logger: Logger) -> any StoreLeadership {
        switch self {
        case .sqlite: SoleLeadership()
        #if PostgreSQL
        case .postgres(let url): PostgresLeaderLease(url: url, logger: logger)
        #endif
        }
    }

    /// The SQLite file: what `/metrics` measures and the `--db` of the commands alert text and pages
    /// suggest. Nil for a PostgreSQL database, whose password belongs in no text: those commands then
    /// read `PURCHASE_SLI_DB`.
    public var filePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// The file path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        #if PostgreSQL
        case .postgres(let url): url.description
        #endif
        }
    }
}

/// The store the use cases are given, as ``StoreLocation/open(configuration:postgresLogger:)`` opens it:
/// the command line and the service hold it and hand it on, and reach what it holds only through the use
/// cases.
public typealias OpenedStore = any PurchaseStore
