CREATE TABLE admitted_series_count (day integer NOT NULL, app bigint NOT NULL, series bigint NOT NULL, PRIMARY KEY (day, app));

INSERT INTO admitted_series_count (day, app, series)
SELECT a.day, s.app, count(*) FROM admitted_series a JOIN series s ON s.id = a.series GROUP BY 1, 2;
