import GRDB

/// The database schema as numbered migrations. A shipped migration is never edited: add a new one.
enum Schema {
    /// `PRAGMA application_id` of a purchase-sli database ("PSLI").
    static let applicationID: Int32 = 0x5053_4C49

    /// Stored codes of the dimensions; stable across releases, unlike enum order.
    static let dimensionCodes: [String: Int] = [
        "actionType": 1, "productID": 2, "planID": 3, "groupID": 4, "offerID": 5, "appVersion": 6,
        "platform": 7, "osVersion": 8, "variant": 9, "errorDescription": 10,
    ]

    /// The columns of the series table, in ``PurchaseSLICore/EventDimension/seriesDimensions`` order.
    static let seriesColumns = [
        "action", "product", "plan", "grp", "offer", "app_version", "platform", "os_version", "variant",
    ]

    /// The counter columns of a bucket row, in ``PurchaseSLICore/OutcomeCounts`` order.
    static let counterColumns = [
        "start", "success", "already_granted", "failure", "cancel", "pending", "conflicts", "server_errors",
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-buckets") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: """
                CREATE TABLE dimension_value (
                    id INTEGER PRIMARY KEY,
                    dimension INTEGER NOT NULL,
                    value TEXT NOT NULL,
                    UNIQUE (dimension, value)
                );
                CREATE TABLE series (
                    id INTEGER PRIMARY KEY,
                    \(seriesColumns.map { "\($0) INTEGER NOT NULL" }.joined(separator: ",\n    ")),
                    UNIQUE (\(seriesColumns.joined(separator: ", ")))
                );
                CREATE TABLE seen_event (
                    second INTEGER NOT NULL,
                    hash INTEGER NOT NULL,
                    PRIMARY KEY (second, hash)
                ) WITHOUT ROWID;
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
            for resolution in Resolution.allCases {
                try db.execute(sql: """
                    CREATE TABLE \(resolution.bucketTable) (
                        time INTEGER NOT NULL,
                        series INTEGER NOT NULL,
                        \(counterColumns.map { "\($0) INTEGER NOT NULL DEFAULT 0" }.joined(separator: ",\n    ")),
                        PRIMARY KEY (time, series)
                    ) WITHOUT ROWID;
                    CREATE TABLE \(resolution.errorTable) (
                        time INTEGER NOT NULL,
                        series INTEGER NOT NULL,
                        error INTEGER NOT NULL,
                        events INTEGER NOT NULL,
                        PRIMARY KEY (time, series, error)
                    ) WITHOUT ROWID;
                    """)
            }
        }
        return migrator
    }
}
