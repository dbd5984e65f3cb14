CREATE TABLE maintenance_window (
    id text NOT NULL PRIMARY KEY, app text NOT NULL, start_seconds bigint NOT NULL, end_seconds bigint NOT NULL,
    rrule text, actions text[] NOT NULL, reason text NOT NULL, created bigint);
