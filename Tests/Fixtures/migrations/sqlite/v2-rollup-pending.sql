CREATE TABLE rollup_pending (
    id INTEGER PRIMARY KEY,
    time INTEGER NOT NULL,
    series_counts BLOB NOT NULL,
    error_counts BLOB NOT NULL
);
