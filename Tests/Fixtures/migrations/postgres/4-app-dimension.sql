ALTER TABLE series ADD COLUMN app bigint NOT NULL DEFAULT 0;

DO $$
DECLARE nine_columns text;
BEGIN
    SELECT conname INTO STRICT nine_columns FROM pg_constraint WHERE conrelid = 'series'::regclass AND contype = 'u';
    EXECUTE format('ALTER TABLE series DROP CONSTRAINT %I', nine_columns);
END
$$;

ALTER TABLE series ADD CONSTRAINT series_dimensions_key
    UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant, app);
