CREATE TABLE series_with_app (
    id INTEGER PRIMARY KEY,
    action INTEGER NOT NULL,
    product INTEGER NOT NULL,
    plan INTEGER NOT NULL,
    grp INTEGER NOT NULL,
    offer INTEGER NOT NULL,
    app_version INTEGER NOT NULL,
    platform INTEGER NOT NULL,
    os_version INTEGER NOT NULL,
    variant INTEGER NOT NULL,
    app INTEGER NOT NULL DEFAULT 0,
    UNIQUE (action, product, plan, grp, offer, app_version, platform, os_version, variant, app)
);

INSERT INTO series_with_app (id, action, product, plan, grp, offer, app_version, platform, os_version, variant, app)
    SELECT id, action, product, plan, grp, offer, app_version, platform, os_version, variant, 0 FROM series;

DROP TABLE series;

ALTER TABLE series_with_app RENAME TO series;
