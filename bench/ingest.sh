#!/usr/bin/env bash
# Ingest and query benchmark: ~2M simulated events (7 days), purchase-sli against a simple Python baseline
# on the same file in the same run. Usage: bash bench/ingest.sh [attempts-per-minute]
# BIN=path uses that build instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-104}
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
"$bin" simulate --scenario steady --days 7 --start 2026-11-09 --rate "$rate" --seed 1 > "$work/events.ndjson"
gzip -1 -c "$work/events.ndjson" > "$work/events.ndjson.gz"
events=$(wc -l < "$work/events.ndjson")
echo "events: $events ($(du -m "$work/events.ndjson" | cut -f1) MB NDJSON, $(du -m "$work/events.ndjson.gz" | cut -f1) MB gzip)"

sync  # let the generated files reach the disk before timing anything

# ingest LABEL DB FILE FRESH: three runs (into a new database each time when FRESH is yes, else into DB
# as it is); prints the median events/s, the peak RSS and the database size.
ingest() {
    local output rates=()
    for _ in 1 2 3; do
        [ "$4" = yes ] && rm -f "$2" "$2-wal" "$2-shm"
        output=$( { /usr/bin/time -f "rss_kb=%M" "$bin" ingest --db "$2" "$3"; } 2>&1 )
        rates+=("$(grep -o '[0-9]* events/s' <<<"$output" | cut -d' ' -f1)")
    done
    local rate rss size
    rate=$(printf '%s\n' "${rates[@]}" | sort -n | sed -n 2p)
    rss=$(( $(grep -o 'rss_kb=[0-9]*' <<<"$output" | cut -d= -f2) / 1024 ))
    size=$(( $(stat -c %s "$2") / 1024 / 1024 ))
    ingest_rate=$rate
    printf '%-34s %9s events/s (median of 3)   peak RSS %4s MB   database %3s MB   (%s)\n' "$1" "$rate" "$rss" "$size" \
        "$(grep -E '^(accepted|duplicates)' <<<"$output" | awk '{print $1" "$2}' | paste -sd' ')"
}

rm -f "$work"/db*.sqlite*
ingest "purchase-sli ingest NDJSON" "$work/db1.sqlite" "$work/events.ndjson" yes
ndjson_rate=$ingest_rate
ingest "purchase-sli ingest again (all dups)" "$work/db1.sqlite" "$work/events.ndjson" no
ingest "purchase-sli ingest gzip" "$work/db2.sqlite" "$work/events.ndjson.gz" yes

# The 7-day query: success rate per product per 5 minutes (whole command, median of 5).
times=()
for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$bin" query --db "$work/db1.sqlite" --from 2026-11-09 --to 2026-11-16 --by productID --step 5m --format json > "$work/query.json"
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
printf '%-34s %9s ms (median of 5, whole command; %s rows)\n' "query 7 d, per product, 5m steps" "$median" \
    "$(grep -o '"time"' "$work/query.json" | wc -l)"

# baseline LABEL FILE: the Python baseline on FILE; sets baseline_rate.
baseline() {
    rm -f "$work/baseline.sqlite"*
    local output
    output=$( { /usr/bin/time -f "rss_kb=%M" python3 bench/baseline.py "$2" "$work/baseline.sqlite"; } 2>&1 )
    baseline_rate=$(grep -o '[0-9]* events/s' <<<"$output" | cut -d' ' -f1)
    printf '%-34s %9s events/s   peak RSS %4s MB   database %3s MB\n' "$1" "$baseline_rate" \
        "$(( $(grep -o 'rss_kb=[0-9]*' <<<"$output" | cut -d= -f2) / 1024 ))" \
        "$(( $(stat -c %s "$work/baseline.sqlite") / 1024 / 1024 ))"
}
baseline "Python baseline (json+dict+sqlite3)" "$work/events.ndjson"
printf '%-34s %9.2fx the baseline\n' "ratio, NDJSON" "$(python3 -c "print($ndjson_rate / $baseline_rate)")"

# The same traffic under a large catalog's names (simulate --catalog wide): tens of thousands of series.
"$bin" simulate --scenario steady --days 7 --start 2026-11-09 --rate "$rate" --seed 1 --catalog wide > "$work/wide.ndjson"
sync
rm -f "$work"/db3.sqlite*
ingest "purchase-sli ingest, wide catalog" "$work/db3.sqlite" "$work/wide.ndjson" yes
wide_rate=$ingest_rate
printf '%-34s %9s series (distinct dimension values of a minute bucket: product, plan, offer, version, OS, ...)\n' "series, wide catalog" \
    "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM series').fetchone()[0])" "$work/db3.sqlite" 2>/dev/null || echo '?')"
baseline "Python baseline, wide catalog" "$work/wide.ndjson"
printf '%-34s %9.2fx the baseline\n' "ratio, wide catalog" "$(python3 -c "print($wide_rate / $baseline_rate)")"
rm -f "$work/wide.ndjson"
