ALTER TABLE incident RENAME COLUMN start TO start_seconds;

ALTER TABLE incident RENAME COLUMN end TO end_seconds;
