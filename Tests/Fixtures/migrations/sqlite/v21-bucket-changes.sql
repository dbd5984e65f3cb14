CREATE TABLE bucket_change (
    seq INTEGER PRIMARY KEY, from_time INTEGER NOT NULL, to_time INTEGER NOT NULL
);
