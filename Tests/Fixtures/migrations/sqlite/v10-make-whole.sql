CREATE TABLE make_whole_delivery (
    store TEXT NOT NULL, transaction_id TEXT NOT NULL, outcome TEXT NOT NULL, status INTEGER NOT NULL,
    detail TEXT NOT NULL, attempts INTEGER NOT NULL, last_attempt_millis INTEGER NOT NULL,
    PRIMARY KEY (store, transaction_id)) WITHOUT ROWID;
