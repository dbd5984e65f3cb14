CREATE TABLE client_report_minute (
    minute INTEGER NOT NULL, part INTEGER NOT NULL, reports BLOB NOT NULL, PRIMARY KEY (minute, part)
) WITHOUT ROWID;

SELECT key_kind, key, product_id, plan_id, action, first_grant_millis, last_millis, last_result, last_status, last_error
FROM client_report;

DROP TABLE client_report;
