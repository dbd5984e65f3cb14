#!/usr/bin/env bash
# Load test of `purchase-sli serve`: wrk posts gzip NDJSON batches of 500 events from many connections
# for DURATION while a reader queries /v1/query every second; reports events/s, latency, errors, RSS,
# and checks that every acknowledged event is in the database.
# Usage: DURATION=30s CONNECTIONS=64 THREADS=2 EVENTS=12000000 [BIN=path] bash bench/serve-load.sh
#   SERVE_ARGS="--render-every 1m ..."  more options for serve (bench/serve-render.sh uses it)
#   PRELOAD="sample-logs/*.ndjson.gz"    files ingested into the database before serve starts
#   SPAN_MINUTES=50                      each body spans 50 minutes of events (a backlog flush) instead
#                                        of holding consecutive ones (bench/serve-backlog.sh uses it)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-30s}
connections=${CONNECTIONS:-64}
export THREADS=${THREADS:-2}
events=${EVENTS:-12000000}
port=${PORT:-18181}
work=${BENCH_DIR:-/tmp/purchase-sli-serve-bench}
mkdir -p "$work"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
# BIN=path runs the load against another build (say, of an older commit) to compare in the same hour.
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
# A day of traffic up to now, so that no event is late or in the future; about 2.1 events per attempt.
# REUSE_BODIES=1 keeps the bodies of an earlier run (less than a week old) to save the generation time.
span=${SPAN_MINUTES:-0}
bodies="$work/bodies-span$span.bin"
if [ "${REUSE_BODIES:-0}" != 1 ] || [ ! -s "$bodies" ]; then
    rate=$(( events / 3024 ))
    "$bin" simulate --scenario steady --days 1 --start "$(date -u -d '1 day ago' +%Y-%m-%dT%H:%M:%SZ)" --rate "$rate" \
        --seed 5 | python3 bench/make-bodies.py 500 "$bodies" "$span"
fi
export BODIES="$bodies"

rm -f "$work"/serve.sqlite*
# Every event the database holds, whatever its time.
stored() {
    "$bin" query --db "$work/serve.sqlite" --from 2020-01-01 --to "$(date -u -d '+2 days' +%Y-%m-%d)" --format csv \
        | awk -F, 'NR==2{print $2} END{if (NR<2) print 0}'
}
preloaded=0
if [ -n "${PRELOAD:-}" ]; then
    # shellcheck disable=SC2086 # PRELOAD is a list of files or globs
    "$bin" ingest --quiet --db "$work/serve.sqlite" ${PRELOAD} >/dev/null
    preloaded=$(stored)
    echo "preloaded: $preloaded events from $PRELOAD"
fi
# shellcheck disable=SC2086 # SERVE_ARGS is a list of options
"$bin" serve --db "$work/serve.sqlite" --port "$port" ${SERVE_ARGS:-} 2> "$work/serve.log" &
server=$!
trap 'kill $server $reader $sampler 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.2; done

( while true; do
      start=$(date +%s%N)
      curl -sf "http://127.0.0.1:$port/v1/query?from=now-2d&to=now&by=productID&step=1h" >/dev/null || echo "query failed"
      echo $(( ($(date +%s%N) - start) / 1000000 )) >> "$work/query-ms.log"
      sleep 1
  done ) &
reader=$!
rm -f "$work/query-ms.log" "$work/rss.log"
( while true; do grep VmRSS /proc/$server/status | awk '{print $2}' >> "$work/rss.log"; sleep 5; done ) &
sampler=$!

wrk -t"$THREADS" -c"$connections" -d"$duration" --latency -s bench/post-events.lua "http://127.0.0.1:$port/v1/events" \
    | tee "$work/wrk.log"
kill $reader $sampler 2>/dev/null || true

metrics=$(curl -sf "http://127.0.0.1:$port/metrics")
accepted=$(awk '/^purchase_sli_events_accepted_total /{print $2}' <<<"$metrics")
duplicates=$(awk '/^purchase_sli_events_duplicate_total /{print $2}' <<<"$metrics")
peak=$(awk '/VmHWM/{print int($2/1024)}' /proc/$server/status)
kill -TERM $server
wait $server && echo "serve exited 0 after SIGTERM"
counted=$(( $(stored) - preloaded ))
seconds=${duration%s}
echo "accepted ${accepted%.*} + duplicates ${duplicates%.*} events acknowledged in $seconds s:" \
     "$(( (${accepted%.*} + ${duplicates%.*}) / seconds )) events/s; counted in the database: $counted"
echo "server peak RSS ${peak} MB; RSS every 5 s (MB): $(awk '{printf "%d ", $1/1024}' "$work/rss.log")"
echo "WAL at the end: $(awk '/^purchase_sli_wal_bytes /{printf "%d", $2/1048576}' <<<"$metrics") MB;" \
     "database: $(( $(stat -c %s "$work/serve.sqlite") / 1048576 )) MB"
echo "query every second: median $(sort -n "$work/query-ms.log" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') ms," \
     "max $(sort -n "$work/query-ms.log" | tail -1) ms over $(wc -l < "$work/query-ms.log") queries"
