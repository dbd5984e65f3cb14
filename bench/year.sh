#!/usr/bin/env bash
# Storage per event over a long run: DAYS (default 365) of `simulate --scenario steady --rate 60` (about
# 173,000 events a day) ending today, ingested into a new SQLite database with the default retention, then
# its size per table and per event. The baseline, counted in the same run, is the NDJSON the database was
# made from. What `ingest` keeps is what serve keeps but for seen_second (eventIDs by the day they were
# received: a file read at once is all received today, while serve keeps 8 days of receipts); the
# stores' notifications are not simulated here (bench/notifications.sh measures them).
# Usage: [BIN=path] [DAYS=365] [RATE=60] bash bench/year.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
days=${DAYS:-365}
rate=${RATE:-60}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
rm -f "$work"/year.sqlite*
start=$(date -u -d "-$days days" +%Y-%m-%d)
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); $days days of steady traffic at $rate attempts a minute from $start"
"$bin" simulate --scenario steady --days "$days" --rate "$rate" --start "$start" \
    | tee >(wc -c > "$work/year.bytes") \
    | /usr/bin/time -f "%M %e" -o "$work/year.time" "$bin" ingest --quiet --db "$work/year.sqlite" - >/dev/null
sleep 1  # the byte count's subshell
read -r rss seconds < "$work/year.time"
events=$("$bin" query --db "$work/year.sqlite" --from "$start" --to "$(date -u -d tomorrow +%Y-%m-%d)" --format csv | awk -F, 'NR==2{print $2}')
python3 - "$work/year.sqlite" "$(cat "$work/year.bytes")" "$events" "$seconds" "$rss" <<'PY'
import os, sqlite3, sys
path, ndjson, events, seconds, rss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
size = os.path.getsize(path)
db = sqlite3.connect(path)
tables = db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
print(f"ingest: {events:,} events in {seconds:.0f} s, peak RSS {rss // 1024} MB")
free = db.execute("PRAGMA freelist_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
used = size - free
print(f"database: {size / 1e6:,.0f} MB file, {used / 1e6:,.0f} MB in use ({free / 1e6:,.0f} MB of free pages, which later writes reuse), "
      f"{used / events:.1f} B/event in use; the NDJSON (baseline): {ndjson / 1e6:,.0f} MB, {ndjson / events:.0f} B/event; "
      f"in use / NDJSON = {used / ndjson:.3f}")
for name, bytes_ in tables[:8]:
    print(f"  {name}: {bytes_ / 1e6:,.1f} MB")
seen = dict(tables).get("seen_second", 0)
print(f"in use without seen_second (serve keeps 8 days of receipts of it): {(used - seen) / 1e6:,.0f} MB")
PY
