#!/usr/bin/env bash
# A backlog flush against a live stream: after an outage, clients send hours of queued events at once,
# so each batch spans a long time. The same day of events (bench/serve-load.sh: wrk posting gzip NDJSON
# batches of 500, a reader querying every second, a fresh database each run) is posted twice in one run:
#   stream   each body holds consecutive events (a few seconds of traffic);
#   backlog  each body holds events from across a window of SPAN_MINUTES (default 50).
# Reports events/s and latency percentiles of each and their ratios.
# A run must not post every body (12M events: about 40 s at 300k events/s): wrk then starts over and
# the re-sent events, all duplicates, are cheaper; the script says so when it happens.
# Usage: DURATION=30s CONNECTIONS=12 [SPAN_MINUTES=50] [ROUNDS=2] [BIN=path] bash bench/serve-backlog.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export DURATION=${DURATION:-30s} CONNECTIONS=${CONNECTIONS:-12} EVENTS=${EVENTS:-12000000}
span=${SPAN_MINUTES:-50}
work=${BENCH_DIR:-/tmp/purchase-sli-serve-bench}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
export BIN=${BIN:-.build/release/purchase-sli}

# Both layouts from one simulated day, so that the two runs post the same events.
start=$(date -u -d '1 day ago' +%Y-%m-%dT%H:%M:%SZ)
"$BIN" simulate --scenario steady --days 1 --start "$start" --rate $(( EVENTS / 3024 )) --seed 5 > "$work/day.ndjson"
python3 bench/make-bodies.py 500 "$work/bodies-span0.bin" 0 < "$work/day.ndjson"
python3 bench/make-bodies.py 500 "$work/bodies-span$span.bin" "$span" < "$work/day.ndjson"
rm -f "$work/day.ndjson"

# One run; prints "events/s p50 p90 p99 max" (latencies in ms).
run() {
    local name=$1 minutes=$2
    REUSE_BODIES=1 SPAN_MINUTES=$minutes bash bench/serve-load.sh > "$work/$name.out" 2>&1
    python3 bench/load-summary.py "$work/$name.out"
}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $DURATION per run, $CONNECTIONS connections," \
     "backlog bodies span $span minutes"
printf '%-8s %10s %8s %8s %8s %8s\n' run events/s p50_ms p90_ms p99_ms max_ms
for round in $(seq 1 "${ROUNDS:-1}"); do
    read -r -a stream <<<"$(run stream 0)"
    printf '%-8s %10s %8s %8s %8s %8s\n' stream "${stream[@]}"
    read -r -a backlog <<<"$(run backlog "$span")"
    printf '%-8s %10s %8s %8s %8s %8s\n' backlog "${backlog[@]}"
    awk -v s="${stream[0]}" -v b="${backlog[0]}" -v s99="${stream[3]}" -v b99="${backlog[3]}" \
        'BEGIN { printf "round %d: backlog/stream events/s %.2f, p99 %.2f\n", '"$round"', b/s, b99/s99 }'
    grep -h "counted in the database" "$work/stream.out" "$work/backlog.out" | sed 's/^/  /'
    for name in stream backlog; do
        awk -v name="$name" '/counted in the database/ { if ($5 > $2 / 100) print "  warning: the " name \
            " run re-sent its bodies (" $5 " duplicates); use a shorter DURATION or more EVENTS" }' "$work/$name.out"
    done
done
