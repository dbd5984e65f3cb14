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
