package import GRDB
import PurchaseSLICore

/// The database schema as numbered migrations. A shipped migration is never edited: add a new one.
package enum Schema {
    /// `PRAGMA application_id` of a purchase-sli database ("PSLI").
    static let applicationID: Int32 = 0x5053_4C49

    /// The code under which `admitted_value` and `overflow` keep the series admitted per day (the series
    /// cap) and the events of those over it: one more "dimension", the combination of all of them.
    package static let seriesCode = 11

    /// One more than the largest code (of a dimension, ``PurchaseSLICore/EventDimension/storageCode``, or
    /// ``seriesCode``): the size of a table indexed by code.
    package static let codeLimit = max(seriesCode, EventDimension.allCases.compactMap(\.storageCode).max()!) + 1

    /// The names of the codes of `overflow` rows: the dimensions and `series`.
    package static let overflowNames = Dictionary(
        uniqueKeysWithValues: EventDimension.allCases.compactMap { dimension in dimension.storageCode.map { ($0, dimension.rawValue) } }
            + [(seriesCode, "series")])

    /// The columns of the series table, in ``PurchaseSLICore/EventDimension/seriesDimensions`` order (both stores').
    package static let seriesColumns = EventDimension.seriesDimensions.map { $0.seriesColumn! }

    /// The migrations, oldest first. Each is written out as it shipped, never from the column lists the
    /// code uses today, and never edited: `Tests/Fixtures/migrations/sqlite/` holds the SQL of each, which a
    /// test compares.
    ///
    /// - `seen_second`: per event second, the sorted 64-bit hashes of the eventIDs counted (dedup).
    /// - `bucket_*`: per bucket start time, the counts of every series (``BucketCodec``).
    /// - `error_*`: per bucket start time, the events per series and error description (``ErrorCodec``).
    /// - `dimension_value`, `series`: integer ids for dimension values and their combinations.
    /// - `admitted_value`, `overflow`: the cardinality caps' memory and what they turned away, per day,
    ///   dimension and app.
    /// - `seen_day`: when each event day last received an event, for the dedup horizon.
    /// - `rollup_pending`: per commit and minute, the counts added that the hour and day buckets do not
    ///   hold yet, nor the minute bucket when `in_minute` is 0 (``BucketWriter``); queries add them.
    /// - `seen_pending`: per commit, the (second, hash) keys of the eventIDs it counted that `seen_second`
    ///   does not hold yet (``PendingSeenIDs``).
    /// - `client_drop`: per minute of receipt, the events clients reported dropping unsent.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-buckets") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(
                sql: """
                    CREATE TABLE dimension_value (
                        id INTEGER PRIMARY KEY,
                        dimension INTEGER NOT NULL,
                        value TEXT NOT NULL,
                        UNIQUE (dimension, value)
                    );
                    CREATE TABLE series (
                        id INTEGER PRIMARY KEY,
                        action INTEGER NOT NULL,
                        product INTEGER NOT NULL,
                        plan INTEGER NOT NULL,
                        grp INTEGER NOT NULL,
                        offer INTEGER NOT NULL,
                        app_version INTEGER NOT NULL,
                        platform INTEGER NOT NULL,
                        os_version INTEGER NOT NULL,
                        variant INTEGER NOT NULL,
                        UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant)
                    );
                    CREATE TABLE seen_second (
                        second INTEGER PRIMARY KEY,
                        hashes BLOB NOT NULL
                    );
                    CREATE TABLE seen_day (
                        day INTEGER PRIMARY KEY,
                        last_received INTEGER NOT NULL
                    );
                    CREATE TABLE admitted_value (
                        day INTEGER NOT NULL,
                        dimension INTEGER NOT NULL,
                        value INTEGER NOT NULL,
                        PRIMARY KEY (day, dimension, value)
                    ) WITHOUT ROWID;
                    CREATE TABLE overflow (
                        day INTEGER NOT NULL,
                        dimension INTEGER NOT NULL,
                        events INTEGER NOT NULL,
                        PRIMARY KEY (day, dimension)
                    ) WITHOUT ROWID;
                    """)
            for resolution in ["minute", "hour", "day"] {
                try db.execute(
                    sql: """
                        CREATE TABLE bucket_\(resolution) (
                            time INTEGER PRIMARY KEY,
                            series_counts BLOB NOT NULL
                        );
                        CREATE TABLE error_\(resolution) (
                            time INTEGER PRIMARY KEY,
                            error_counts BLOB NOT NULL
                        );
                        """)
            }
        }
        migrator.registerMigration("v2-rollup-pending") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rollup_pending (
                        id INTEGER PRIMARY KEY,
                        time INTEGER NOT NULL,
                        series_counts BLOB NOT NULL,
                        error_counts BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3-deferred-writes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE seen_pending (id INTEGER PRIMARY KEY AUTOINCREMENT, keys BLOB NOT NULL);
                    ALTER TABLE rollup_pending ADD COLUMN in_minute INTEGER NOT NULL DEFAULT 1;
                    """)
        }
        migrator.registerMigration("v4-product-prices") { db in
            // The latest price events carried per product and plan ('' for none): what a rollout's lost
            // purchases cost.
            try db.execute(
                sql: """
                    CREATE TABLE product_price (
                        product_id TEXT NOT NULL, plan_id TEXT NOT NULL, price REAL NOT NULL, currency TEXT NOT NULL,
                        seen_millis INTEGER NOT NULL, PRIMARY KEY (product_id, plan_id)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v5-store-records") { db in
            // The stores' notifications, one row each (deduplicated by the store's id), and per
            // transaction id or account token what the app's events reported: the two sides that
            // reconciliation joins.
            try db.execute(
                sql: """
                    CREATE TABLE store_notification (
                        store TEXT NOT NULL, notification_id TEXT NOT NULL, environment TEXT NOT NULL, app_id TEXT NOT NULL,
                        type TEXT NOT NULL, subtype TEXT, kind TEXT NOT NULL, signed_millis INTEGER NOT NULL,
                        event_millis INTEGER NOT NULL, received_millis INTEGER NOT NULL, transaction_id TEXT,
                        original_transaction_id TEXT, product_id TEXT, purchase_millis INTEGER, price REAL, currency TEXT,
                        app_account_token TEXT, revocation_millis INTEGER,
                        PRIMARY KEY (store, notification_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX store_notification_by_time ON store_notification (event_millis);
                    CREATE INDEX store_notification_by_transaction ON store_notification (transaction_id);
                    CREATE TABLE client_report (
                        key_kind INTEGER NOT NULL, key TEXT NOT NULL, product_id TEXT NOT NULL, plan_id TEXT, action TEXT NOT NULL,
                        first_grant_millis INTEGER, last_millis INTEGER NOT NULL, last_result TEXT NOT NULL, last_status INTEGER,
                        last_error TEXT,
                        PRIMARY KEY (key_kind, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX client_report_by_time ON client_report (last_millis);
                    """)
        }
        migrator.registerMigration("v6-client-reports-by-minute") { db in
            // Appended per minute instead of kept per key: see ClientReportBlob.
            try db.execute(
                sql: """
                    CREATE TABLE client_report_minute (
                        minute INTEGER NOT NULL, part INTEGER NOT NULL, reports BLOB NOT NULL, PRIMARY KEY (minute, part)
                    ) WITHOUT ROWID
                    """)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT key_kind, key, product_id, plan_id, action, first_grant_millis, last_millis, last_result, last_status, last_error
                    FROM client_report
                    """)
            var encoder = ClientReportBlob.Encoder()
            for report in rows.map({ row in
                let kind: Int = row[0]
                let key: String = row[1]
                let result: String = row[7]
                return ClientReport(
                    key: kind == 0 ? .transactionID(key) : .appAccountToken(key), productID: row[2], planID: row[3], actionType: row[4],
                    firstGrantMillis: row[5], lastMillis: row[6], lastResult: ResultType(rawValue: result) ?? .start,
                    lastStatusCode: row[8], lastErrorDescription: row[9])
            }) {
                encoder.add(report)
            }
            let insert = try RawStatement(db, sql: "INSERT INTO client_report_minute (minute, part, reports) VALUES (?, 0, ?)")
            for part in encoder.blobs() {
                insert.bind(part.minute, at: 1)
                insert.bind(copying: part.reports, at: 2)
                try insert.run()
            }
            try db.execute(sql: "DROP TABLE client_report")
        }
        migrator.registerMigration("v7-client-drops") { db in
            // Per minute of receipt, the events clients dropped unsent (their queue was full).
            try db.execute(sql: "CREATE TABLE client_drop (minute INTEGER PRIMARY KEY, events INTEGER NOT NULL)")
        }
        migrator.registerMigration("v8-app-dimension") { db in
            // The app dimension (bundle id or package name): one more column of `series` and of its unique key.
            // SQLite cannot widen a constraint, so the table is rebuilt; every series keeps its id (the buckets
            // refer to it) and has no app (0).
            try db.execute(
                sql: """
                    CREATE TABLE series_with_app (
                        id INTEGER PRIMARY KEY,
                        action INTEGER NOT NULL,
                        product INTEGER NOT NULL,
                        plan INTEGER NOT NULL,
                        grp INTEGER NOT NULL,
                        offer INTEGER NOT NULL,
                        app_version INTEGER NOT NULL,
                        platform INTEGER NOT NULL,
                        os_version INTEGER NOT NULL,
                        variant INTEGER NOT NULL,
                        app INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant, app)
                    );
                    INSERT INTO series_with_app (id, action, product, plan, grp, offer, app_version, platform, os_version, variant, app)
                        SELECT id, action, product, plan, grp, offer, app_version, platform, os_version, variant, 0 FROM series;
                    DROP TABLE series;
                    ALTER TABLE series_with_app RENAME TO series;
                    """)
        }
        migrator.registerMigration("v9-grants") { db in
            // Beside each part of a minute's client reports, the grants of its events, by transaction id in full.
            try db.execute(sql: "ALTER TABLE client_report_minute ADD COLUMN grants BLOB")
        }
        migrator.registerMigration("v10-make-whole") { db in
            // What the grant server answered for each charge of the make-whole list posted to it.
            try db.execute(
                sql: """
                    CREATE TABLE make_whole_delivery (
                        store TEXT NOT NULL, transaction_id TEXT NOT NULL, outcome TEXT NOT NULL, status INTEGER NOT NULL,
                        detail TEXT NOT NULL, attempts INTEGER NOT NULL, last_attempt_millis INTEGER NOT NULL,
                        PRIMARY KEY (store, transaction_id)) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v11-rollout-actions") { db in
            // What serve did to a store's release of a candidate when a rollout verdict asked for it.
            try db.execute(
                sql: """
                    CREATE TABLE rollout_action (
                        store TEXT NOT NULL, app TEXT NOT NULL, candidate TEXT NOT NULL, release_start INTEGER NOT NULL,
                        verdict TEXT NOT NULL, dry_run INTEGER NOT NULL, outcome TEXT NOT NULL, status INTEGER NOT NULL,
                        detail TEXT NOT NULL, step INTEGER, time INTEGER NOT NULL, attempts INTEGER NOT NULL,
                        PRIMARY KEY (store, app, candidate, release_start, verdict, dry_run)) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v12-maintenance") { db in
            // Maintenance windows declared with `maintenance add` or POST /v1/maintenance; actions are joined
            // by U+001F.
            try db.execute(
                sql: """
                    CREATE TABLE maintenance_window (
                        id TEXT NOT NULL PRIMARY KEY, app TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, rrule TEXT,
                        actions TEXT NOT NULL, reason TEXT NOT NULL, created INTEGER) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v13-report-settlement") { db in
            // The minute up to which the app's reports are settled (`ClientReportSettlement`): one row.
            // The receipt time up to which the app's reports are settled (`ClientReportSettlement`): one row.
            try db.execute(sql: "CREATE TABLE client_report_settled (id INTEGER PRIMARY KEY CHECK (id = 0), received_before INTEGER NOT NULL)")
            // Parts of a few kilobytes: in a WITHOUT ROWID table all but the first kilobyte of each went to an
            // overflow page of its own, mostly empty (a settled part fills 55 % of its pages; 75 % with rowids).
            // Each part now says when it was received; those stored before count as received now, so none is
            // settled before 9 days have passed.
            try db.execute(
                sql: """
                    CREATE TABLE client_report_part (
                        minute INTEGER NOT NULL, part INTEGER NOT NULL, reports BLOB NOT NULL, grants BLOB, received INTEGER NOT NULL,
                        PRIMARY KEY (minute, part));
                    INSERT INTO client_report_part (minute, part, reports, grants, received)
                        SELECT minute, part, reports, grants, CAST(strftime('%s', 'now') AS INTEGER) FROM client_report_minute ORDER BY minute, part;
                    DROP TABLE client_report_minute;
                    ALTER TABLE client_report_part RENAME TO client_report_minute;
                    CREATE INDEX client_report_by_receipt ON client_report_minute (received)
                    """)
        }
        migrator.registerMigration("v14-grant-fingerprints") { db in
            // Each part's grants' times and transaction fingerprints (`GrantFingerprintBlob`), apart from the
            // reports and grants: the repeat audit reads two weeks of them per evaluation, which through the
            // parts' blobs read every page of those parts. Made here from the grants stored so far.
            try db.execute(
                sql: """
                    CREATE TABLE grant_fingerprint_minute (
                        minute INTEGER NOT NULL, part INTEGER NOT NULL, fingerprints BLOB NOT NULL, PRIMARY KEY (minute, part)
                    ) WITHOUT ROWID
                    """)
            let select = try RawStatement(db, sql: "SELECT minute, grants FROM client_report_minute WHERE grants IS NOT NULL ORDER BY minute, part")
            defer { select.reset() }
            let insert = try RawStatement(db, sql: "INSERT INTO grant_fingerprint_minute (minute, part, fingerprints) VALUES (?, ?, ?)")
            var (lastMinute, part): (Int64?, Int64) = (nil, 0)
            while try select.step() {
                let minute = select.int64(0)
                part = minute == lastMinute ? part + 1 : 0
                lastMinute = minute
                // A damaged blob gets no fingerprints rather than keeping the file from opening: reading its
                // grants still fails naming its row.
                guard let fingerprints = try? GrantFingerprintBlob.make(fromGrants: select.blob(1), minute: minute) else { continue }
                insert.bind(minute, at: 1)
                insert.bind(part, at: 2)
                insert.bind(copying: fingerprints, at: 3)
                try insert.run()
            }
        }
        migrator.registerMigration("v15-late-arrivals") { db in
            // Per hour of event time and series, the events that reached serve an hour or more after their
            // time (LateArrival): what a live rollout action must not rest on alone.
            try db.execute(
                sql: """
                    CREATE TABLE late_arrival (
                        hour INTEGER NOT NULL, series INTEGER NOT NULL, events INTEGER NOT NULL, PRIMARY KEY (hour, series)
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v16-family-shared") { db in
            // Whether a notification's transaction is a family member's share (StoreNotification.isFamilyShared).
            try db.execute(sql: "ALTER TABLE store_notification ADD COLUMN family_shared INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v17-incidents") { db in
            // One record per app ("" for every app) and incident id (IncidentRepository): its figures as a
            // JSON document of a few kilobytes (a rowid table: no overflow page per row), the acknowledgement
            // beside them so that a rebuild keeps it.
            try db.execute(
                sql: """
                    CREATE TABLE incident (
                        app TEXT NOT NULL, id TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER, status TEXT NOT NULL,
                        read_at INTEGER NOT NULL, document TEXT NOT NULL, ack_owner TEXT, ack_note TEXT, ack_at INTEGER,
                        UNIQUE (app, id));
                    CREATE INDEX incident_by_start ON incident (start);
                    """)
        }
        migrator.registerMigration("v18-maintenance-as-postgres") { db in
            // Maintenance windows are written once for every backend (MaintenanceWindowRepository): the
            // columns named as PostgreSQL names them, and the actions a JSON array where they were joined
            // by U+001F (an action is a token of letters, digits, `_` and `-`: nothing JSON escapes).
            try db.execute(
                sql: """
                    ALTER TABLE maintenance_window RENAME COLUMN start TO start_seconds;
                    ALTER TABLE maintenance_window RENAME COLUMN end TO end_seconds;
                    UPDATE maintenance_window SET actions = CASE actions WHEN '' THEN '[]'
                        ELSE '["' || replace(actions, char(31), '","') || '"]' END;
                    """)
        }
        migrator.registerMigration("v19-incidents-as-postgres") { db in
            // Incidents are written once for every backend (IncidentRepository): the span's columns named
            // as PostgreSQL names them (the index follows the column).
            try db.execute(
                sql: """
                    ALTER TABLE incident RENAME COLUMN start TO start_seconds;
                    ALTER TABLE incident RENAME COLUMN end TO end_seconds;
                    """)
        }
        migrator.registerMigration("v20-caps-per-app") { db in
            // Each app its own value budget (CapAdmission): a value is admitted per day, dimension and app
            // (the app's value id; 0 for events without one, for the app dimension itself and for series,
            // whose app is their own), and what overflowed is counted per app. What was admitted before
            // counted for every app: it stays, as the budget of events without an app.
            try db.execute(
                sql: """
                    CREATE TABLE admitted_value_by_app (
                        day INTEGER NOT NULL, dimension INTEGER NOT NULL, app INTEGER NOT NULL, value INTEGER NOT NULL,
                        PRIMARY KEY (day, dimension, app, value)
                    ) WITHOUT ROWID;
                    INSERT INTO admitted_value_by_app (day, dimension, app, value) SELECT day, dimension, 0, value FROM admitted_value;
                    DROP TABLE admitted_value;
                    ALTER TABLE admitted_value_by_app RENAME TO admitted_value;
                    CREATE TABLE overflow_by_app (
                        day INTEGER NOT NULL, dimension INTEGER NOT NULL, app INTEGER NOT NULL, events INTEGER NOT NULL,
                        PRIMARY KEY (day, dimension, app)
                    ) WITHOUT ROWID;
                    INSERT INTO overflow_by_app (day, dimension, app, events) SELECT day, dimension, 0, events FROM overflow;
                    DROP TABLE overflow;
                    ALTER TABLE overflow_by_app RENAME TO overflow;
                    """)
        }
        migrator.registerMigration("v21-bucket-changes") { db in
            // Each commit's span of minute buckets written to (and each prune's dropped), so that `serve`
            // keeps the minute series it read and reads again only the minutes written to since
            // (KeptMinuteSeries). Only the latest rows are kept (SQLiteBucketStore.changesKept).
            try db.execute(
                sql: """
                    CREATE TABLE bucket_change (
                        seq INTEGER PRIMARY KEY, from_time INTEGER NOT NULL, to_time INTEGER NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
