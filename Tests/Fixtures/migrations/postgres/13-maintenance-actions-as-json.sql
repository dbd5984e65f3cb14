ALTER TABLE maintenance_window ALTER COLUMN actions TYPE text USING array_to_json(actions)::text;
