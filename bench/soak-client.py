#!/usr/bin/env python3
"""The soak's client (bench/soak.sh): posts gzip NDJSON batches of synthetic events stamped with the
current time at a steady rate, re-sends a share of earlier batches (their events must all come back as
duplicates), reads its ingest key from a file before every request (so that the key can rotate), and
keeps re-sending a batch until it is acknowledged (so a restart of serve loses nothing). When told to
stop (SIGTERM) it writes its totals as JSON.

Usage: soak-client.py URL KEY_FILE RATE BATCH RESEND_PERCENT TOTALS_FILE"""
import gzip
import http.client
import json
import random
import signal
import sys
import time
import urllib.parse
import uuid

PRODUCTS = [("coins_100", "coins-small"), ("coins_500", "coins-medium"), ("coins_1200", "coins-large"),
            ("pro_monthly", "pro-monthly"), ("pro_yearly", "pro-yearly")]
VERSIONS = ["4.10.2", "4.11.0"]
stopping = False


def stop(*_):
    global stopping
    stopping = True


def events(count):
    now = time.time()
    lines = []
    for _ in range(count):
        product, plan = random.choice(PRODUCTS)
        result = random.choices(["start", "success", "failure", "cancel", "alreadyGranted"], [45, 45, 2, 6, 2])[0]
        event = {
            "eventID": str(uuid.uuid4()),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % int(now % 1 * 1000),
            "productID": product, "planID": plan, "actionType": random.choice(["purchase"] * 9 + ["restore"]),
            "resultType": result, "appVersion": random.choice(VERSIONS), "platform": "iOS",
        }
        if result == "failure":
            event["errorDescription"] = random.choice(["network timeout", "receipt invalid", "server 503"])
        lines.append(json.dumps(event, separators=(",", ":")))
    return gzip.compress(("\n".join(lines) + "\n").encode(), 1)


def main(url, key_file, rate, batch, resend_percent, totals_file):
    signal.signal(signal.SIGTERM, stop)
    target = urllib.parse.urlsplit(url)
    totals = {"requests": 0, "accepted": 0, "duplicates": 0, "rejected": 0, "resent_batches": 0,
              "resent_not_duplicate": 0, "retries": 0, "server_errors": 0}
    sent = []  # bodies already acknowledged, for re-sending
    interval = batch / rate
    next_time = time.monotonic()
    connection = None
    while not stopping:
        resend = sent and random.random() * 100 < resend_percent
        body = random.choice(sent) if resend else events(batch)
        while not stopping:
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
                key = open(key_file).read().strip()
                connection.request("POST", target.path, body, {
                    "Content-Type": "application/x-ndjson", "Content-Encoding": "gzip",
                    "Authorization": "Bearer " + key})
                response = connection.getresponse()
                answer = response.read()
                if response.status == 202:
                    break
                totals["retries"] += 1
                if response.status >= 500:
                    totals["server_errors"] += 1
                time.sleep(0.5)
            except (OSError, http.client.HTTPException):
                totals["retries"] += 1
                connection = None
                time.sleep(0.5)
        else:
            break
        result = json.loads(answer)
        totals["requests"] += 1
        totals["accepted"] += result.get("accepted", 0)
        totals["duplicates"] += result.get("duplicates", 0)
        totals["rejected"] += len(result.get("rejected", []))
        if resend:
            totals["resent_batches"] += 1
            totals["resent_not_duplicate"] += result.get("accepted", 0)
        elif len(sent) < 200:
            sent.append(body)
        else:
            sent[random.randrange(200)] = body
        next_time += interval
        time.sleep(max(0, next_time - time.monotonic()))
    with open(totals_file, "w") as out:
        json.dump(totals, out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6])
