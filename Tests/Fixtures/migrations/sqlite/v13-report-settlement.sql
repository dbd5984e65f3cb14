CREATE TABLE client_report_settled (id INTEGER PRIMARY KEY CHECK (id = 0), received_before INTEGER NOT NULL);

CREATE TABLE client_report_part (
    minute INTEGER NOT NULL, part INTEGER NOT NULL, reports BLOB NOT NULL, grants BLOB, received INTEGER NOT NULL,
    PRIMARY KEY (minute, part));

INSERT INTO client_report_part (minute, part, reports, grants, received)
    SELECT minute, part, reports, grants, CAST(strftime('%s', 'now') AS INTEGER) FROM client_report_minute ORDER BY minute, part;

DROP TABLE client_report_minute;

ALTER TABLE client_report_part RENAME TO client_report_minute;

CREATE INDEX client_report_by_receipt ON client_report_minute (received);
