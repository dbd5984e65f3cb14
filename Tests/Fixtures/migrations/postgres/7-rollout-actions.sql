CREATE TABLE rollout_action (
    store text NOT NULL, app text NOT NULL, candidate text NOT NULL, release_start bigint NOT NULL,
    verdict text NOT NULL, dry_run boolean NOT NULL, outcome text NOT NULL, status integer NOT NULL,
    detail text NOT NULL, step integer, time bigint NOT NULL, attempts integer NOT NULL,
    PRIMARY KEY (store, app, candidate, release_start, verdict, dry_run));
