CREATE TABLE late_arrival (hour bigint NOT NULL, series bigint NOT NULL, events bigint NOT NULL, PRIMARY KEY (hour, series));
