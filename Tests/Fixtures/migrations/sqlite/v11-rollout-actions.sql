CREATE TABLE rollout_action (
    store TEXT NOT NULL, app TEXT NOT NULL, candidate TEXT NOT NULL, release_start INTEGER NOT NULL,
    verdict TEXT NOT NULL, dry_run INTEGER NOT NULL, outcome TEXT NOT NULL, status INTEGER NOT NULL,
    detail TEXT NOT NULL, step INTEGER, time INTEGER NOT NULL, attempts INTEGER NOT NULL,
    PRIMARY KEY (store, app, candidate, release_start, verdict, dry_run)) WITHOUT ROWID;
