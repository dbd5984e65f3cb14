CREATE TABLE bucket_change (
    seq bigserial PRIMARY KEY, xact bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
    from_time bigint NOT NULL, to_time bigint NOT NULL);

CREATE INDEX bucket_change_by_xact ON bucket_change (xact);

CREATE TABLE bucket_change_pruned (id smallint PRIMARY KEY CHECK (id = 0), xact bigint NOT NULL);

INSERT INTO bucket_change_pruned (id, xact) VALUES (0, 0);
