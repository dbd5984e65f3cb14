#!/usr/bin/env bash
# The read side at 90 days: `simulate --scenario steady --days 90 --rate 60` (15.6 million events) ending
# yesterday, read by `ingest` into one SQLite file (made once), then each command that reads it timed whole
# (time and peak RSS) with the shipped dashboards/: `alerts --at`, a 7-day backtest at 1-minute steps,
# `render --range 7d`, `report` of the last whole week, `rollout --at`.
# BASELINE_BIN=path times the same commands with another build (an older commit) in the same run, on a
# database of its own making (an older build refuses a file a newer one migrated).
# Usage: [BIN=path] [BASELINE_BIN=path] bash bench/read-90-days.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=$(realpath "${BIN:-.build/release/purchase-sli}")
end=$(date -u +%Y-%m-%d)
start=$(date -u -d "$end - 90 days" +%Y-%m-%d)
at="$(date -u -d "$end - 1 day" +%Y-%m-%d)T20:00:00Z"
week=$(date -u -d "$end - 7 days" +%G-W%V)
db_of() { if [ "$1" = "${BASELINE_BIN:-}" ]; then echo "$work/read90-baseline.sqlite"; else echo "$work/read90.sqlite"; fi; }
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    if [ ! -s "$(db_of "$build")" ]; then
        "$build" simulate --scenario steady --days 90 --rate 60 --start "$start" --seed 1 > "$work/read90.ndjson"
        "$build" ingest --quiet --db "$(db_of "$build")" "$work/read90.ndjson" >/dev/null
        rm -f "$work/read90.ndjson"
    fi
done
echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); 90 days from $start, read at $at, the week $week"
measure() {  # label, command...
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$work/read90.time" "$@" >/dev/null 2>"$work/read90.err" || { cat "$work/read90.err"; exit 1; }
    read -r seconds rss < "$work/read90.time"
    printf '  %-36s %6.2f s  %5d MB\n' "$label" "$seconds" "$((rss / 1024))"
}
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    db=$(db_of "$build")
    echo "$build:"
    rm -rf "$work/read90-site"
    measure "alerts --at" "$build" alerts --db "$db" --at "$at"
    measure "alerts, 7 days at 1-minute steps" "$build" alerts --db "$db" --from "$(date -u -d "$end - 8 days" +%Y-%m-%d)" --to "$(date -u -d "$end - 1 day" +%Y-%m-%d)" --step 1m
    measure "render --range 7d" "$build" render --db "$db" --out "$work/read90-site" --at "$at" --range 7d
    measure "report --week $week" "$build" report --db "$db" --week "$week" --out "$work/read90-site"
    measure "rollout --at" "$build" rollout --db "$db" --at "$at"
done
