CREATE TABLE make_whole_delivery (
    store text NOT NULL, transaction_id text NOT NULL, outcome text NOT NULL, status integer NOT NULL,
    detail text NOT NULL, attempts integer NOT NULL, last_attempt_millis bigint NOT NULL,
    PRIMARY KEY (store, transaction_id));
