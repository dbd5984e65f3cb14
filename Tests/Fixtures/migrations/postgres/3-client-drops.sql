CREATE TABLE client_drop (minute bigint PRIMARY KEY, events bigint NOT NULL);
