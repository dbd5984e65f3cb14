#!/usr/bin/env python3
"""The simple baseline that purchase-sli's ingest is compared with: json.loads per line, a dict of
per-minute counts, and sqlite3 executemany upserts, with eventID dedup, in batches like purchase-sli."""
import json
import sqlite3
import sys
import time
from datetime import datetime

DIMENSIONS = ["actionType", "productID", "planID", "groupID", "offerID", "appVersion", "platform", "osVersion", "variant"]


def main(path, db_path):
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS seen (event_id TEXT PRIMARY KEY) WITHOUT ROWID")
    keys = ", ".join(["minute"] + [d for d in DIMENSIONS] + ["result"])
    db.execute(f"CREATE TABLE IF NOT EXISTS buckets ({keys}, count INTEGER, PRIMARY KEY ({keys})) WITHOUT ROWID")
    placeholders = ", ".join("?" * (len(DIMENSIONS) + 3))
    upsert = f"INSERT INTO buckets VALUES ({placeholders}) ON CONFLICT DO UPDATE SET count = count + excluded.count"
    started = time.time()
    accepted = duplicates = 0

    def flush(batch):
        nonlocal accepted, duplicates
        counts = {}
        with db:
            for event in batch:
                if db.execute("INSERT OR IGNORE INTO seen VALUES (?)", (event["eventID"],)).rowcount == 0:
                    duplicates += 1
                    continue
                accepted += 1
                stamp = datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")).timestamp()
                key = (int(stamp // 60 * 60),) + tuple(event.get(d) or "" for d in DIMENSIONS) + (event["resultType"],)
                counts[key] = counts.get(key, 0) + 1
            db.executemany(upsert, [key + (count,) for key, count in counts.items()])

    batch = []
    with open(path, "rb") as lines:
        for line in lines:
            batch.append(json.loads(line))
            if len(batch) == 16384:
                flush(batch)
                batch = []
    flush(batch)
    seconds = time.time() - started
    print(f"accepted {accepted} duplicates {duplicates} took {seconds:.2f} s, {int((accepted + duplicates) / seconds)} events/s")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
