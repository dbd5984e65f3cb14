CREATE TABLE product_price (
    product_id TEXT NOT NULL, plan_id TEXT NOT NULL, price REAL NOT NULL, currency TEXT NOT NULL,
    seen_millis INTEGER NOT NULL, PRIMARY KEY (product_id, plan_id)
) WITHOUT ROWID;
