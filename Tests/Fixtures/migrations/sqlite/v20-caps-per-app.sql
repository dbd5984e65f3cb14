CREATE TABLE admitted_value_by_app (
    day INTEGER NOT NULL, dimension INTEGER NOT NULL, app INTEGER NOT NULL, value INTEGER NOT NULL,
    PRIMARY KEY (day, dimension, app, value)
) WITHOUT ROWID;

INSERT INTO admitted_value_by_app (day, dimension, app, value) SELECT day, dimension, 0, value FROM admitted_value;

DROP TABLE admitted_value;

ALTER TABLE admitted_value_by_app RENAME TO admitted_value;

CREATE TABLE overflow_by_app (
    day INTEGER NOT NULL, dimension INTEGER NOT NULL, app INTEGER NOT NULL, events INTEGER NOT NULL,
    PRIMARY KEY (day, dimension, app)
) WITHOUT ROWID;

INSERT INTO overflow_by_app (day, dimension, app, events) SELECT day, dimension, 0, events FROM overflow;

DROP TABLE overflow;

ALTER TABLE overflow_by_app RENAME TO overflow;
