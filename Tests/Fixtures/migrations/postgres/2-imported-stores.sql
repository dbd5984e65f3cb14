CREATE TABLE imported_store (fingerprint text PRIMARY KEY, source text NOT NULL, imported_at timestamptz NOT NULL DEFAULT now());
