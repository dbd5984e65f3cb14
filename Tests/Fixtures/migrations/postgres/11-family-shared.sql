ALTER TABLE store_notification ADD COLUMN family_shared boolean NOT NULL DEFAULT false;
