CREATE TABLE grant_fingerprint_minute (
    minute INTEGER NOT NULL, part INTEGER NOT NULL, fingerprints BLOB NOT NULL, PRIMARY KEY (minute, part)
) WITHOUT ROWID;

SELECT minute, grants FROM client_report_minute WHERE grants IS NOT NULL ORDER BY minute, part;
