#!/usr/bin/env bash
# What the series cap buys: 136,000 events on one day whose productID, planID and appVersion (each
# within the per-dimension cap of 2,000 values) combine into about 136,000 distinct series, ingested
# with the default cap (20,000 series a day) and, as the baseline in the same run, with the cap raised
# out of the way. Reports time, peak RSS, series rows, database size and the total counted (exact in
# both: the events beyond the cap count in their action's __other__ series).
# Usage: [BIN=path] bash bench/series-cap.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
python3 - "$work/series.ndjson" <<'PY'
import json, random, sys, uuid
random.seed(3)
with open(sys.argv[1], "w") as out:
    for i in range(136000):
        out.write(json.dumps({
            "eventID": str(uuid.uuid4()),
            "timestamp": "2026-11-22T%02d:%02d:%02dZ" % ((i // 6000) % 24, (i // 100) % 60, i % 60),
            "productID": "p%d" % random.randrange(1990), "planID": "plan%d" % random.randrange(1990),
            "actionType": "purchase", "resultType": random.choice(["start", "success"]),
            "appVersion": "4.%d" % random.randrange(50)}) + "\n")
PY
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3 >/dev/null; }
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); 136,000 events"
for cap in 20000 1000000; do
    rm -f "$work"/series.sqlite*
    /usr/bin/time -f "%M %e" -o "$work/series.time" "$bin" ingest --quiet --db "$work/series.sqlite" --series-cap "$cap" \
        "$work/series.ndjson" >/dev/null
    read -r rss seconds < "$work/series.time"
    counted=$("$bin" query --db "$work/series.sqlite" --from 2026-11-22 --to 2026-11-23 --format csv | awk -F, 'NR==2{print $2}')
    echo "--series-cap $cap: ${seconds} s, peak RSS $((rss / 1024)) MB, $(sqlite3 "$work/series.sqlite" 'SELECT count(*) FROM series') series rows," \
         "database $(( $(stat -c %s "$work/series.sqlite") / 1024 )) kB, $counted events counted"
done
