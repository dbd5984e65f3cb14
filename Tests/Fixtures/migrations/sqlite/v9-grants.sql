ALTER TABLE client_report_minute ADD COLUMN grants BLOB;
