CREATE TABLE incident (
    app TEXT NOT NULL, id TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER, status TEXT NOT NULL,
    read_at INTEGER NOT NULL, document TEXT NOT NULL, ack_owner TEXT, ack_note TEXT, ack_at INTEGER,
    UNIQUE (app, id));

CREATE INDEX incident_by_start ON incident (start);
