ALTER TABLE maintenance_window RENAME COLUMN start TO start_seconds;

ALTER TABLE maintenance_window RENAME COLUMN end TO end_seconds;

UPDATE maintenance_window SET actions = CASE actions WHEN '' THEN '[]'
    ELSE '["' || replace(actions, char(31), '","') || '"]' END;
