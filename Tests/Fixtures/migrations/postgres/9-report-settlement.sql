CREATE TABLE client_report_settled (id smallint PRIMARY KEY CHECK (id = 0), before_minute bigint NOT NULL);
