#!/usr/bin/env bash
# Storage per event over a long run: DAYS (default 364) of `simulate --scenario steady --rate 60` (about
# 173,000 events a day) ending today, into a new SQLite database with the default retention, measured two
# ways (MODE=serve, ingest or both, the default):
# - serve: as `serve` holds it, the traffic received as it happens: one file a week, each ingested with the
#   clock (libfaketime) at its week's end, so retention, the dedup horizon and the settling of the app's
#   reports run on receipt times as they do live;
# - ingest: the whole run in one file read today (nothing is 9 days past its receipt: every report stays,
#   and every eventID, all received today).
# Reports the size in use per table and per event; the baseline, counted in the same run, is the NDJSON the
# database was made from. The stores' notifications are not simulated here (bench/notifications.sh).
# Usage: [BIN=path] [DAYS=364] [RATE=60] [MODE=both] bash bench/year.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
days=${DAYS:-364}
rate=${RATE:-60}
mode=${MODE:-both}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=$(realpath "${BIN:-.build/release/purchase-sli}")
command -v faketime >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null; }
start=$(date -u -d "-$days days" +%Y-%m-%d)
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); $days days of steady traffic at $rate attempts a minute from $start"

summary() {  # database, NDJSON bytes, seconds, peak RSS (kB), label
    local events
    events=$("$bin" query --db "$1" --from "$start" --to "$(date -u -d tomorrow +%Y-%m-%d)" --format csv | awk -F, 'NR==2{print $2}')
    python3 - "$1" "$2" "$events" "$3" "$4" "$5" <<'PY'
import os, sqlite3, sys
path, ndjson, events, seconds, rss, label = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
db = sqlite3.connect(path)
size = os.path.getsize(path)
used = size - db.execute("PRAGMA freelist_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
tables = db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
print(f"{label}: {events:,} events counted, ingest {seconds:.0f} s, peak RSS {rss // 1024} MB")
print(f"  in use {used / 1e6:,.0f} MB ({used / events:.1f} B/event; file {size / 1e6:,.0f} MB, its free pages reused by later writes); "
      f"baseline, the NDJSON: {ndjson / 1e6:,.0f} MB ({ndjson / events:.0f} B/event); in use / NDJSON = {used / ndjson:.3f}")
print("  " + ", ".join(f"{name} {bytes_ / 1e6:,.1f} MB" for name, bytes_ in tables[:6]))
PY
}

if [ "$mode" != ingest ]; then
    rm -f "$work"/year-serve.sqlite*
    total=0 seconds=0 rss=0
    for ((week = 0; week * 7 < days; week++)); do
        from=$(date -u -d "$start + $((week * 7)) days" +%Y-%m-%d)
        length=$(( days - week * 7 < 7 ? days - week * 7 : 7 ))
        received=$(date -u -d "$from + $length days" '+%Y-%m-%d %H:%M:%S')
        "$bin" simulate --scenario steady --days "$length" --rate "$rate" --start "$from" --seed $((week + 1)) > "$work/week.ndjson"
        total=$(( total + $(stat -c %s "$work/week.ndjson") ))
        faketime "$received" /usr/bin/time -f "%M %e" -o "$work/week.time" "$bin" ingest --quiet --db "$work/year-serve.sqlite" "$work/week.ndjson" >/dev/null
        read -r weekRSS weekSeconds < "$work/week.time"
        seconds=$(python3 -c "print($seconds + $weekSeconds)")
        rss=$(( weekRSS > rss ? weekRSS : rss ))
    done
    rm -f "$work/week.ndjson"
    summary "$work/year-serve.sqlite" "$total" "$seconds" "$rss" "serve (received week by week)"
fi
if [ "$mode" != serve ]; then
    rm -f "$work"/year-ingest.sqlite*
    "$bin" simulate --scenario steady --days "$days" --rate "$rate" --start "$start" \
        | tee >(wc -c > "$work/year.bytes") \
        | /usr/bin/time -f "%M %e" -o "$work/year.time" "$bin" ingest --quiet --db "$work/year-ingest.sqlite" - >/dev/null
    sleep 1  # the byte count's subshell
    read -r rss seconds < "$work/year.time"
    summary "$work/year-ingest.sqlite" "$(cat "$work/year.bytes")" "$seconds" "$rss" "ingest alone (one file read today)"
fi
