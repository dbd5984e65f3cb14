#!/usr/bin/env python3
"""The simple baseline that purchase-sli's ingest is compared with: json.loads per line, dicts for the
eventIDs seen and the per-minute counts, and sqlite3 executemany upserts in batches like purchase-sli.
(Its dedup memory is a Python set, so it forgets everything between runs: the easy version.)"""
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
    keys = ", ".join(["minute"] + [d for d in DIMENSIONS] + ["result"])
    db.execute(f"CREATE TABLE IF NOT EXISTS buckets ({keys}, count INTEGER, PRIMARY KEY ({keys})) WITHOUT ROWID")
    placeholders = ", ".join("?" * (len(DIMENSIONS) + 3))
    upsert = f"INSERT INTO buckets VALUES ({placeholders}) ON CONFLICT DO UPDATE SET count = count + excluded.count"
    started = time.time()
    accepted = duplicates = 0
    seen = set()
    minutes = {}

    def minute_of(timestamp):
        prefix = timestamp[:16]
        if prefix not in minutes:
            minutes[prefix] = int(datetime.fromisoformat(prefix + ":00+00:00").timestamp())
        return minutes[prefix]

    def flush(batch):
        nonlocal accepted, duplicates
        counts = {}
        for event in batch:
            if event["eventID"] in seen:
                duplicates += 1
                continue
            seen.add(event["eventID"])
            accepted += 1
            key = (minute_of(event["timestamp"]),) + tuple(event.get(d) or "" for d in DIMENSIONS) + (event["resultType"],)
            counts[key] = counts.get(key, 0) + 1
        with db:
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
