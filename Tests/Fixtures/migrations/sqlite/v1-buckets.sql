PRAGMA application_id = 1347636297;

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

CREATE TABLE bucket_minute (
    time INTEGER PRIMARY KEY,
    series_counts BLOB NOT NULL
);

CREATE TABLE error_minute (
    time INTEGER PRIMARY KEY,
    error_counts BLOB NOT NULL
);

CREATE TABLE bucket_hour (
    time INTEGER PRIMARY KEY,
    series_counts BLOB NOT NULL
);

CREATE TABLE error_hour (
    time INTEGER PRIMARY KEY,
    error_counts BLOB NOT NULL
);

CREATE TABLE bucket_day (
    time INTEGER PRIMARY KEY,
    series_counts BLOB NOT NULL
);

CREATE TABLE error_day (
    time INTEGER PRIMARY KEY,
    error_counts BLOB NOT NULL
);
