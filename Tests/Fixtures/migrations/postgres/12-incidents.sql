CREATE TABLE incident (
    app text NOT NULL, id text NOT NULL, start_seconds bigint NOT NULL, end_seconds bigint, status text NOT NULL,
    read_at bigint NOT NULL, document text NOT NULL, ack_owner text, ack_note text, ack_at bigint,
    PRIMARY KEY (app, id));

CREATE INDEX incident_by_start ON incident (start_seconds);
