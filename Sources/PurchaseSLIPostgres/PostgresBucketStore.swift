#if PostgreSQL
public import Logging
import PostgresNIO
public import PurchaseSLICore
public import PurchaseSLIStorage
public import ServiceLifecycle
import Synchronization

/// The shared store: time buckets in a PostgreSQL database that several `serve` nodes write at once.
///
/// Each `record` is one transaction in which the eventIDs' dedup rows, the capped dimension values and
/// series, and the bucket rows of every resolution are written with a few statements of arrays (never a
/// statement per event); the dedup rows' primary key makes a batch sent to two nodes count once, as the
/// second transaction waits for the first and then finds its keys taken. Migrations run at start under
/// an advisory lock. Credentials never appear in errors or logs (``PostgresURL`` redacts them).
public final class PostgresBucketStore: BucketStore, StoreRecordStore {
    /// Where the database is (its description hides the password).
    public let url: PostgresURL
    /// Limits and retention in force.
    public let configuration: StoreConfiguration
    let client: PostgresClient
    let logger: Logger
    /// How long a call waits for PostgreSQL before it fails as unavailable.
    let timeout: Duration
    /// The writer's memory of ids and admissions, all committed facts: a `record` starts from a copy and
    /// adds what it learned once it committed (two at once each learn the same facts; the admission lock
    /// in the database keeps the caps).
    let writer = Mutex(WriterCache())
    /// The task that runs the client, when the store runs it itself; nil when a ServiceGroup runs it
    /// (``clientService``).
    private let runTask: Task<Void, Never>?

    /// Connects to the database at `url` and brings its schema up to date, running its client in a task of
    /// its own until the store is released: for a command or a test, which has no ServiceGroup.
    /// - Parameters:
    ///   - timeout: how long each call may wait for the database (connecting included).
    ///   - maximumConnections: the pool's size.
    /// - Throws: ``PurchaseSLIStorage/StorageError`` when the database cannot be reached, holds other
    ///   tables, or was migrated by a newer version.
    public convenience init(
        url: PostgresURL, configuration: StoreConfiguration = .default, timeout: Duration = .seconds(10), maximumConnections: Int = 8,
        logger: Logger = PostgresBucketStore.quietLogger
    ) async throws {
        self.init(
            url: url, configuration: configuration, timeout: timeout, maximumConnections: maximumConnections, logger: logger,
            runsItsClient: true)
        do {
            try await prepare()
        } catch {
            runTask?.cancel()
            throw error
        }
    }

    /// A store whose client runs as a service of a ServiceGroup (``clientService``), started before the
    /// services that call through it and shut down after them: `serve`'s. Nothing is asked of the
    /// database until the group runs; ``prepare()`` then brings the schema up to date, before any other
    /// call.
    public convenience init(
        servedURL url: PostgresURL, configuration: StoreConfiguration = .default, timeout: Duration = .seconds(10), maximumConnections: Int = 8,
        logger: Logger = PostgresBucketStore.quietLogger
    ) {
        self.init(
            url: url, configuration: configuration, timeout: timeout, maximumConnections: maximumConnections, logger: logger,
            runsItsClient: false)
    }

    private init(
        url: PostgresURL, configuration: StoreConfiguration, timeout: Duration, maximumConnections: Int, logger: Logger, runsItsClient: Bool
    ) {
        self.url = url
        self.configuration = configuration
        self.timeout = timeout
        self.logger = logger
        var clientConfiguration = url.clientConfiguration()
        clientConfiguration.options.maximumConnections = maximumConnections
        clientConfiguration.options.connectTimeout = timeout
        let client = PostgresClient(configuration: clientConfiguration, eventLoopGroup: PostgresClient.defaultEventLoopGroup)
        self.client = client
        runTask = runsItsClient ? Task { await client.run() } : nil
    }

    /// The service that runs the client of a store made with `init(servedURL:…)`: to go into the
    /// ServiceGroup before every service that calls the store, so that it is shut down after them.
    public var clientService: any Service { client }

    /// Brings the database's schema up to date (under an advisory lock, so that nodes starting at once
    /// migrate it once), waiting at most three timeouts for it.
    /// - Throws: ``PurchaseSLIStorage/StorageError`` when the database cannot be reached, holds other
    ///   tables, or was migrated by a newer version.
    public func prepare() async throws {
        let (client, logger, location) = (client, logger, url.description)
        do {
            try await withDeadline(timeout * 3) {
                try await client.withConnection { try await PostgresSchema.migrate($0, location: location, logger: logger) }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError.cannotOpen(path: location, detail: PostgresFailure.describe(error))
        }
    }

    deinit {
        runTask?.cancel()
    }

    /// The default logger: warnings and errors only.
    public static var quietLogger: Logger {
        var logger = Logger(label: "purchase-sli.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `work` with a pooled connection, giving up after `timeout` (default ``timeout``).
    func connection<Value: Sendable>(
        timeout: Duration? = nil, _ work: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let client = client
        do {
            return try await withDeadline(timeout ?? self.timeout) { try await client.withConnection { try await work($0) } }
        } catch {
            throw PostgresFailure.storageError(error)
        }
    }

    /// Runs `work` in a transaction, again (up to 5 times) when PostgreSQL aborted it for a deadlock or a
    /// serialization failure with another node's. The transaction runs on its connection's event loop
    /// (``EventLoopTaskExecutor``); a read outside one runs on the global executor (``withDeadline(_:_:)``).
    func transaction<Value: Sendable>(
        timeout: Duration? = nil, _ work: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let logger = logger
        var attempt = 1
        while true {
            do {
                return try await connection(timeout: timeout) { connection in
                    try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                        try await connection.withTransaction(logger: logger) { try await work($0) }
                    }
                }
            } catch let error as PostgresFailure where error.isRetryable && attempt < 5 {
                attempt += 1
                logger.debug("transaction retried", metadata: ["reason": "\(error)"])
            }
        }
    }

    /// Updates a row now, so that a full disk or a read-only server fails here as it would for events.
    public func checkWritable() async throws {
        let logger = logger
        try await connection { connection in
            try await connection.run(
                "INSERT INTO readiness (id, checks) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET checks = readiness.checks + 1",
                logger: logger)
        }
    }
}

extension PostgresBucketStore: StoreSizeReporting {
    /// The database's size as PostgreSQL counts it (`pg_database_size`); the server keeps its own WAL.
    /// Waits at most 2 s, so that a scrape of `/metrics` stays quick while the database is away.
    public func size() async throws -> StoreSize {
        let logger = logger
        let bytes = try await connection(timeout: .seconds(2)) { connection in
            let rows = try await connection.query("SELECT pg_database_size(current_database())", logger: logger)
            var total: Int64 = 0
            for try await (bytes) in rows.decode(Int64.self) { total = bytes }
            return total
        }
        return StoreSize(databaseBytes: bytes, walBytes: nil)
    }
}

/// A PostgreSQL error as the store reports it: its SQLSTATE and message, never the connection's
/// credentials.
struct PostgresFailure: Error, CustomStringConvertible {
    /// The SQLSTATE, when the server sent one.
    let sqlState: String?
    let description: String

    /// Deadlocks and serialization failures between concurrent transactions: worth running again.
    var isRetryable: Bool { sqlState == "40P01" || sqlState == "40001" }

    /// The store's error for `error`: ``PurchaseSLIStorage/StorageError/unavailable(_:)`` when the
    /// server cannot be reached or is shutting down, else a failure naming the SQLSTATE.
    static func storageError(_ error: any Error) -> any Error {
        if error is StorageError { return error }
        let underlying = (error as? PostgresTransactionError).flatMap { $0.closureError ?? $0.commitError ?? $0.beginError } ?? error
        if let psql = underlying as? PSQLError {
            let state = psql.serverInfo?[.sqlState]
            if psql.code != .server || state.map(isUnavailableState) == true {
                return StorageError.unavailable("PostgreSQL: \(describe(psql))")
            }
            return PostgresFailure(sqlState: state, description: "PostgreSQL: \(describe(psql))")
        }
        if underlying is StorageError || underlying is PostgresFailure { return underlying }
        return StorageError.unavailable("PostgreSQL: \(underlying)")
    }

    /// Connection exceptions (class 08), server shutdown and "cannot connect now" (57P0x), too many
    /// connections (53300).
    private static func isUnavailableState(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300"
    }

    /// What went wrong, in words: the server's SQLSTATE and message, or the client's error code.
    static func describe(_ error: any Error) -> String {
        let underlying = (error as? PostgresTransactionError).flatMap { $0.closureError ?? $0.commitError ?? $0.beginError } ?? error
        guard let psql = underlying as? PSQLError else { return "\(underlying)" }
        if let message = psql.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(psql.serverInfo?[.sqlState] ?? "?"))"
        }
        return "\(psql.code)"
    }
}
#endif
