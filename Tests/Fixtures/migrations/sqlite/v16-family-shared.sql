ALTER TABLE store_notification ADD COLUMN family_shared INTEGER NOT NULL DEFAULT 0;
