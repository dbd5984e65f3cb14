#if PostgreSQL
public import Logging
import PostgresNIO
public import PurchaseSLIStorage

/// Leadership among the `serve` nodes of one PostgreSQL database: a session advisory lock held on a
/// connection of its own. The lock lives as long as that session; when the leader dies (or its connection
/// does), PostgreSQL releases it and the next node that asks takes it, so a follower that asks every
/// minute leads within a minute of the leader's end.
public actor PostgresLeaderLease: StoreLeadership {
    /// The advisory lock key of the lease ("PSLI" and 2).
    static let lockKey: Int64 = 0x5053_4C49_0002

    private let url: PostgresURL
    private let logger: Logger
    private var connection: PostgresConnection?
    private var leads = false
    /// The question being asked, which callers meanwhile await rather than ask again: the actor is
    /// reentrant at each `await`, and services asking at once at start would each open a connection of
    /// their own, one of them taking the lock and being dropped, so that the node held the lease on a
    /// forgotten session and never led (found by bench/serve-soak.sh on PostgreSQL).
    private var asking: Task<Bool, Never>?

    /// A lease on the database at `url`; it connects when first asked.
    public init(url: PostgresURL, logger: Logger) {
        self.url = url
        self.logger = logger
    }

    /// Whether this node leads: it does while the session that took the lock is alive (checked with a
    /// query on it); else it tries to take the lock. Any failure to reach the database means it does not.
    public func isLeader() async -> Bool {
        if let asking { return await asking.value }
        let question = Task { await ask() }
        asking = question
        let answer = await question.value
        asking = nil
        return answer
    }

    /// One question to the database: ``isLeader()``'s, one at a time.
    private func ask() async -> Bool {
        do {
            let connection = try await openConnection()
            if leads {
                try await connection.run("SELECT 1", logger: logger)
                return true
            }
            for try await taken in try await connection.query("SELECT pg_try_advisory_lock(\(Self.lockKey))", logger: logger).decode(Bool.self) {
                leads = taken
            }
            if leads { logger.notice("this node now leads: it sends alert notifications, renders pages, posts rollout verdicts and prunes") }
            return leads
        } catch {
            if leads {
                logger.warning("this node no longer leads: its lease connection failed", metadata: ["error": "\(PostgresFailure.describe(error))"])
            }
            leads = false
            let broken = connection
            connection = nil
            try? await broken?.close()
            return false
        }
    }

    /// Gives the lease up and closes its connection (at graceful shutdown; a lease must not be dropped
    /// with its connection open), so that another node leads at its next round. The lock is released on
    /// the session first: the server ends a closed session's backend a moment after the close returns,
    /// and until then the lock would still be held.
    public func release() async {
        let closing = connection
        let led = leads
        connection = nil
        leads = false
        if led, let closing, !closing.isClosed { try? await closing.run("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger) }
        try? await closing?.close()
    }

    private func openConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        leads = false
        var configuration = try url.connectionConfiguration()
        configuration.options.connectTimeout = .seconds(10)
        let opened = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        connection = opened
        return opened
    }
}
#endif
