CREATE TABLE client_report_settled (id INTEGER PRIMARY KEY CHECK (id = 0), before_minute INTEGER NOT NULL);
