#if PostgreSQL
import Logging
import PostgresNIO
import PurchaseSLIStorage

/// The PostgreSQL schema as numbered migrations, applied at start under an advisory lock so that nodes
/// starting at once apply each migration once. A shipped migration is never edited: add a new one.
///
/// The tables mirror the SQLite store's, with a row per bucket and series instead of a blob per bucket
/// (rows upsert concurrently from several nodes; a blob would serialize them on each bucket):
/// - `seen_event`: the (second, eventID hash) of every event counted within the dedup horizon.
/// - `bucket_*`, `error_*`: counts per bucket start and series, and events per series, result and error.
/// - `dimension_value`, `series`: integer ids for dimension values and their combinations (0: none).
/// - `admitted_value`, `admitted_series`, `overflow`: what the caps admitted per day, and turned away.
/// - `seen_day`: when each event day last received an event, for the dedup horizon.
package enum PostgresSchema {
    /// The advisory lock key held while migrating ("PSLI" and 1).
    static let migrationLock: Int64 = 0x5053_4C49_0001

    /// The migrations: version, name and statements, each written out as it shipped (never from the column
    /// lists the code uses today) and never edited: `Tests/Fixtures/migrations/postgres/` holds the SQL of
    /// each, which a test compares.
    package static let migrations: [(version: Int32, name: String, statements: [String])] = [
        (1, "buckets-and-store-records", version1),
        // The SQLite stores `migrate` copied, by fingerprint, so that running it again copies nothing.
        (
            2, "imported-stores",
            [
                "CREATE TABLE imported_store (fingerprint text PRIMARY KEY, source text NOT NULL, imported_at timestamptz NOT NULL DEFAULT now())"
            ]
        ),
        // Per minute of receipt, the events clients dropped unsent (their queue was full).
        (3, "client-drops", ["CREATE TABLE client_drop (minute bigint PRIMARY KEY, events bigint NOT NULL)"]),
        // The app dimension (bundle id or package name): one more column of `series` and of its unique key,
        // which replaces the nine-column one (named by PostgreSQL, so found by what it constrains). Existing
        // series keep their ids and have no app (0).
        (
            4, "app-dimension",
            [
                "ALTER TABLE series ADD COLUMN app bigint NOT NULL DEFAULT 0",
                """
                DO $$
                DECLARE nine_columns text;
                BEGIN
                    SELECT conname INTO STRICT nine_columns FROM pg_constraint WHERE conrelid = 'series'::regclass AND contype = 'u';
                    EXECUTE format('ALTER TABLE series DROP CONSTRAINT %I', nine_columns);
                END
                $$
                """,
                """
                ALTER TABLE series ADD CONSTRAINT series_dimensions_key
                    UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant, app)
                """,
            ]
        ),
        // Beside each part of a minute's client reports, the grants of its events, by transaction id in full.
        (5, "grants", ["ALTER TABLE client_report_minute ADD COLUMN grants bytea"]),
        // What the grant server answered for each charge of the make-whole list posted to it.
        (
            6, "make-whole",
            [
                """
                CREATE TABLE make_whole_delivery (
                    store text NOT NULL, transaction_id text NOT NULL, outcome text NOT NULL, status integer NOT NULL,
                    detail text NOT NULL, attempts integer NOT NULL, last_attempt_millis bigint NOT NULL,
                    PRIMARY KEY (store, transaction_id))
                """
            ]
        ),
        // What serve did to a store's release of a candidate when a rollout verdict asked for it.
        (
            7, "rollout-actions",
            [
                """
                CREATE TABLE rollout_action (
                    store text NOT NULL, app text NOT NULL, candidate text NOT NULL, release_start bigint NOT NULL,
                    verdict text NOT NULL, dry_run boolean NOT NULL, outcome text NOT NULL, status integer NOT NULL,
                    detail text NOT NULL, step integer, time bigint NOT NULL, attempts integer NOT NULL,
                    PRIMARY KEY (store, app, candidate, release_start, verdict, dry_run))
                """
            ]
        ),
        // Maintenance windows declared with `maintenance add` or POST /v1/maintenance.
        (
            8, "maintenance",
            [
                """
                CREATE TABLE maintenance_window (
                    id text NOT NULL PRIMARY KEY, app text NOT NULL, start_seconds bigint NOT NULL, end_seconds bigint NOT NULL,
                    rrule text, actions text[] NOT NULL, reason text NOT NULL, created bigint)
                """
            ]
        ),
        // When each part of the app's reports was received (those stored before count as received now), and
        // the receipt time up to which they are settled (`settleClientReports`): one row.
        (
            9, "report-settlement",
            [
                "ALTER TABLE client_report_minute ADD COLUMN received bigint",
                "UPDATE client_report_minute SET received = extract(epoch FROM now())::bigint",
                "ALTER TABLE client_report_minute ALTER COLUMN received SET NOT NULL",
                "CREATE INDEX client_report_by_receipt ON client_report_minute (received)",
                "CREATE TABLE client_report_settled (id smallint PRIMARY KEY CHECK (id = 0), received_before bigint NOT NULL)",
            ]
        ),
        // Per hour of event time and series, the events that reached serve an hour or more after their time
        // (LateArrival): what a live rollout action must not rest on alone.
        (
            10, "late-arrivals",
            [
                "CREATE TABLE late_arrival (hour bigint NOT NULL, series bigint NOT NULL, events bigint NOT NULL, PRIMARY KEY (hour, series))"
            ]
        ),
        // Whether a notification's transaction is a family member's share (StoreNotification.isFamilyShared).
        (11, "family-shared", ["ALTER TABLE store_notification ADD COLUMN family_shared boolean NOT NULL DEFAULT false"]),
        // One record per app ("" for every app) and incident id (IncidentRepository): its figures as a JSON
        // document (TOASTed when long), the acknowledgement beside them so that a rebuild keeps it.
        (
            12, "incidents",
            [
                """
                CREATE TABLE incident (
                    app text NOT NULL, id text NOT NULL, start_seconds bigint NOT NULL, end_seconds bigint, status text NOT NULL,
                    read_at bigint NOT NULL, document text NOT NULL, ack_owner text, ack_note text, ack_at bigint,
                    PRIMARY KEY (app, id))
                """,
                "CREATE INDEX incident_by_start ON incident (start_seconds)",
            ]
        ),
        // Maintenance windows are written once for every backend (MaintenanceWindowRepository): their
        // actions a JSON array, as SQLite keeps them, where they were a text[].
        (
            13, "maintenance-actions-as-json",
            ["ALTER TABLE maintenance_window ALTER COLUMN actions TYPE text USING array_to_json(actions)::text"]
        ),
        // Each app its own value budget (CapAdmission): a value is admitted per day, dimension and app (as
        // the events named it; "" for events without one and for the apps themselves), and what overflowed
        // is counted per app. What was admitted before counted for every app: it stays, as the budget of
        // events without an app.
        (
            14, "caps-per-app",
            [
                "ALTER TABLE admitted_value ADD COLUMN app text NOT NULL DEFAULT ''",
                "ALTER TABLE admitted_value DROP CONSTRAINT admitted_value_pkey",
                "ALTER TABLE admitted_value ADD PRIMARY KEY (day, dimension, app, value)",
                "ALTER TABLE overflow ADD COLUMN app text NOT NULL DEFAULT ''",
                "ALTER TABLE overflow DROP CONSTRAINT overflow_pkey",
                "ALTER TABLE overflow ADD PRIMARY KEY (day, dimension, app)",
            ]
        ),
        // How many series each app admitted per day, kept beside `admitted_series` in the same transaction:
        // the series cap's budgets are read from a row per app, where counting a day's admitted series by
        // their app (a join of the day's 135,000 series of ten apps: 240 ms) cost each commit with a new
        // series that much.
        (
            15, "admitted-series-counts",
            [
                "CREATE TABLE admitted_series_count (day integer NOT NULL, app bigint NOT NULL, series bigint NOT NULL, PRIMARY KEY (day, app))",
                """
                INSERT INTO admitted_series_count (day, app, series)
                SELECT a.day, s.app, count(*) FROM admitted_series a JOIN series s ON s.id = a.series GROUP BY 1, 2
                """,
            ]
        ),
        // The spans of minute buckets each transaction wrote to or a pruning dropped, with the writing
        // transaction's id (BucketStore.bucketChanges): a reader's mark is the oldest transaction still
        // running when it asked, so a node's commit that lands after a later one is still reported. The
        // largest transaction id pruned from it tells how far back it still reaches.
        (
            16, "bucket-changes",
            [
                """
                CREATE TABLE bucket_change (
                    seq bigserial PRIMARY KEY, xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
                    from_time bigint NOT NULL, to_time bigint NOT NULL)
                """,
                "CREATE INDEX bucket_change_by_xact ON bucket_change (xact)",
                "CREATE TABLE bucket_change_pruned (id smallint PRIMARY KEY CHECK (id = 0), xact bigint NOT NULL)",
                "INSERT INTO bucket_change_pruned (id, xact) VALUES (0, 0)",
            ]
        ),
    ]

    private static let version1: [String] =
        [
            """
            CREATE TABLE dimension_value (
                id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, dimension smallint NOT NULL, value text NOT NULL,
                UNIQUE (dimension, value))
            """,
            """
            CREATE TABLE series (
                id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                action bigint NOT NULL, product bigint NOT NULL, plan bigint NOT NULL, grp bigint NOT NULL, offer bigint NOT NULL, \
            app_version bigint NOT NULL, platform bigint NOT NULL, os_version bigint NOT NULL, variant bigint NOT NULL,
                UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant))
            """,
            "CREATE TABLE admitted_value (day integer NOT NULL, dimension smallint NOT NULL, value text NOT NULL, PRIMARY KEY (day, dimension, value))",
            "CREATE TABLE admitted_series (day integer NOT NULL, series bigint NOT NULL, PRIMARY KEY (day, series))",
            "CREATE TABLE overflow (day integer NOT NULL, dimension smallint NOT NULL, events bigint NOT NULL, PRIMARY KEY (day, dimension))",
            "CREATE TABLE seen_event (second bigint NOT NULL, hash bigint NOT NULL, PRIMARY KEY (second, hash))",
            "CREATE TABLE seen_day (day integer PRIMARY KEY, last_received bigint NOT NULL)",
        ]
        + ["minute", "hour", "day"].flatMap { resolution in
            [
                """
                CREATE TABLE bucket_\(resolution) (time bigint NOT NULL, series bigint NOT NULL, start bigint NOT NULL, success bigint NOT NULL, \
                already_granted bigint NOT NULL, failure bigint NOT NULL, cancel bigint NOT NULL, pending bigint NOT NULL, conflicts bigint NOT NULL, \
                server_errors bigint NOT NULL, PRIMARY KEY (time, series))
                """,
                """
                CREATE TABLE error_\(resolution) (time bigint NOT NULL, series bigint NOT NULL, result smallint NOT NULL, error bigint NOT NULL,
                    events bigint NOT NULL, PRIMARY KEY (time, series, result, error))
                """,
            ]
        } + [
            """
            CREATE TABLE product_price (
                product_id text NOT NULL, plan_id text NOT NULL, price double precision NOT NULL, currency text NOT NULL,
                seen_millis bigint NOT NULL, PRIMARY KEY (product_id, plan_id))
            """,
            """
            CREATE TABLE store_notification (
                store text NOT NULL, notification_id text NOT NULL, environment text NOT NULL, app_id text NOT NULL,
                type text NOT NULL, subtype text, kind text NOT NULL, signed_millis bigint NOT NULL,
                event_millis bigint NOT NULL, received_millis bigint NOT NULL, transaction_id text,
                original_transaction_id text, product_id text, purchase_millis bigint, price double precision, currency text,
                app_account_token text, revocation_millis bigint,
                PRIMARY KEY (store, notification_id))
            """,
            "CREATE INDEX store_notification_by_time ON store_notification (event_millis)",
            "CREATE INDEX store_notification_by_transaction ON store_notification (transaction_id)",
            """
            CREATE TABLE client_report_minute (
                minute bigint NOT NULL, part bigint GENERATED ALWAYS AS IDENTITY, reports bytea NOT NULL, PRIMARY KEY (minute, part))
            """,
            "CREATE TABLE readiness (id smallint PRIMARY KEY, checks bigint NOT NULL)",
        ]

    /// Brings the schema up to date on `connection`, holding the migration lock meanwhile.
    /// - Throws: ``PurchaseSLIStorage/StorageError`` when the database holds other tables and no
    ///   purchase-sli schema, or was migrated by a newer version.
    static func migrate(_ connection: PostgresConnection, location: String, logger: Logger) async throws {
        try await connection.run("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
        do {
            try await migrateLocked(connection, location: location, logger: logger)
            try await connection.run("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
        } catch {
            try? await connection.run("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
            throw error
        }
    }

    private static func migrateLocked(_ connection: PostgresConnection, location: String, logger: Logger) async throws {
        var tables: [String] = []
        for try await name in try await connection.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1", logger: logger
        ).decode(String.self) { tables.append(name) }
        if !tables.isEmpty, !tables.contains("purchase_sli_migration") {
            throw StorageError.foreignDatabase(path: location, detail: "tables: \(tables.prefix(5).joined(separator: ", "))")
        }
        try await connection.run(
            """
            CREATE TABLE IF NOT EXISTS purchase_sli_migration (
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied: [Int32: String] = [:]
        for try await (version, name) in try await connection.query(
            "SELECT version, name FROM purchase_sli_migration", logger: logger
        ).decode((Int32, String).self) { applied[version] = name }
        let known = Set(migrations.map(\.version))
        let unknown = applied.filter { !known.contains($0.key) }
        if !unknown.isEmpty {
            throw StorageError.newerSchema(path: location, unknownMigrations: unknown.sorted { $0.key < $1.key }.map { "\($0.key)-\($0.value)" })
        }
        for migration in migrations where applied[migration.version] == nil {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migration.statements { try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.run(
                    "INSERT INTO purchase_sli_migration (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
            }
            logger.info("schema migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
        }
    }
}
#endif
