ALTER TABLE client_report_minute ADD COLUMN received bigint;

UPDATE client_report_minute SET received = extract(epoch FROM now())::bigint;

ALTER TABLE client_report_minute ALTER COLUMN received SET NOT NULL;

CREATE INDEX client_report_by_receipt ON client_report_minute (received);

CREATE TABLE client_report_settled (id smallint PRIMARY KEY CHECK (id = 0), received_before bigint NOT NULL);
