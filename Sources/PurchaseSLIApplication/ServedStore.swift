public import Logging
public import PurchaseSLICore
import PurchaseSLIStorage
public import ServiceLifecycle

#if PostgreSQL
import PurchaseSLIPostgres
#endif

/// A store opened for a long-running service: the store, the services that keep it (PostgreSQL's client),
/// and what readies it once they run (its migrations). ``services(around:)`` orders them in one
/// ServiceGroup: the store's services start first and stop last, after every service that calls through
/// them has finished its graceful shutdown (the group committer's last commit included).
public struct ServedStore: Sendable {
    /// The store the use cases are given.
    public let store: OpenedStore
    /// What runs the store: nothing for SQLite, the PostgreSQL client.
    public let storeServices: [any Service]
    /// Brings the store up to date once its services run: PostgreSQL's migrations; nothing for SQLite,
    /// which was migrated when opened.
    public let prepare: @Sendable () async throws -> Void

    /// The services of one ServiceGroup: the store's first, then `service` (the application), which
    /// starts once the store is ready.
    public func services(around service: some Service) -> [any Service] {
        storeServices + [AfterPreparing(prepare: prepare, service: service)]
    }
}

/// Runs a service once the store it calls is ready.
private struct AfterPreparing<Wrapped: Service>: Service {
    let prepare: @Sendable () async throws -> Void
    let service: Wrapped

    func run() async throws {
        try await prepare()
        try await service.run()
    }
}

extension StoreLocation {
    /// Opens the store for a ServiceGroup: a SQLite file at once; a PostgreSQL database with its client as a
    /// service of the group, migrated by ``ServedStore/prepare`` once the group runs. PostgreSQL's driver
    /// logs to `postgresLogger`.
    /// - Throws: ``PurchaseSLIStorage/StorageError`` when a SQLite file cannot be opened (a database, from
    ///   `prepare`).
    public func openServed(configuration: StoreConfiguration, postgresLogger: Logger) async throws -> ServedStore {
        switch self {
        case .sqlite:
            return ServedStore(store: try await open(configuration: configuration), storeServices: [], prepare: {})
        #if PostgreSQL
        case .postgres(let url):
            let store = PostgresBucketStore(servedURL: url, configuration: configuration, logger: postgresLogger)
            return ServedStore(store: store, storeServices: [store.clientService], prepare: { try await store.prepare() })
        #endif
        }
    }
}
