ALTER TABLE admitted_value ADD COLUMN app text NOT NULL DEFAULT '';

ALTER TABLE admitted_value DROP CONSTRAINT admitted_value_pkey;

ALTER TABLE admitted_value ADD PRIMARY KEY (day, dimension, app, value);

ALTER TABLE overflow ADD COLUMN app text NOT NULL DEFAULT '';

ALTER TABLE overflow DROP CONSTRAINT overflow_pkey;

ALTER TABLE overflow ADD PRIMARY KEY (day, dimension, app);
