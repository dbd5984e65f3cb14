#!/usr/bin/env bash
# purchase-sli serve against InfluxDB 1.x (Debian's `influxdb` package, installed when missing) on the
# same traffic: a day of simulated events up to now, as gzip bodies of 500 events each — NDJSON for
# /v1/events, line protocol for InfluxDB's /write (the series dimensions as tags, bench/influx-lines.py)
# — posted by wrk from CONNECTIONS connections for DURATION, ROUNDS times each, alternating. Both answer a
# write only once it is synced to disk (serve's group commits; InfluxDB's WAL with wal-fsync-delay 0).
# Reports events/s acknowledged and latency per round, and what each stored.
# Usage: DURATION=20s CONNECTIONS=16 ROUNDS=2 EVENTS=12000000 [BIN=path] bash bench/serve-vs-influxdb.sh
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-20s}
connections=${CONNECTIONS:-16}
rounds=${ROUNDS:-2}
events=${EVENTS:-12000000}
export THREADS=${THREADS:-2}
work=${BENCH_DIR:-/tmp/purchase-sli-influx-bench}
port=18181
influx_port=18086
mkdir -p "$work"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v influxd >/dev/null || { apt-get update -qq && apt-get install -y -qq influxdb >/dev/null; }
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $(influxd version 2>/dev/null | head -1)"
rate=$(( events / 3024 ))
"$bin" simulate --scenario steady --days 1 --start "$(date -u -d '1 day ago' +%Y-%m-%dT%H:%M:%SZ)" --rate "$rate" --seed 5 \
    > "$work/events.ndjson"
python3 bench/make-bodies.py 500 "$work/ndjson.bin" < "$work/events.ndjson"
python3 bench/influx-lines.py < "$work/events.ndjson" | python3 bench/make-bodies.py 500 "$work/lines.bin"
echo "$(wc -l < "$work/events.ndjson") events: NDJSON $(( $(stat -c %s "$work/ndjson.bin") / 1048576 )) MB of gzip bodies," \
     "line protocol $(( $(stat -c %s "$work/lines.bin") / 1048576 )) MB"
rm -f "$work/events.ndjson"

server=
trap 'kill $server 2>/dev/null || true' EXIT
seconds=${duration%s}

# One load of wrk against the running server: prints the count of 2xx answers (any other status to stderr).
load() {
    BODIES=$1 TARGET=$2 CONTENT_TYPE=$3 wrk -t"$THREADS" -c"$connections" -d"$duration" -s bench/post-events.lua \
        "http://127.0.0.1:$4" > "$work/wrk.log"
    { grep "^status" "$work/wrk.log" | grep -v "^status 20[024]:" | sed 's/^/    /' >&2; } || true
    awk '/^status 20[024]:/{n += $3} END{print n + 0}' "$work/wrk.log"
}

run_purchase_sli() {
    rm -f "$work"/serve.sqlite*
    "$bin" serve --db "$work/serve.sqlite" --port "$port" 2> "$work/serve.log" &
    server=$!
    until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.2; done
    load "$work/ndjson.bin" /v1/events application/x-ndjson "$port" >/dev/null
    local metrics accepted duplicates
    metrics=$(curl -sf "http://127.0.0.1:$port/metrics")
    accepted=$(awk '/^purchase_sli_events_accepted_total /{printf "%d", $2}' <<<"$metrics")
    duplicates=$(awk '/^purchase_sli_events_duplicate_total /{printf "%d", $2}' <<<"$metrics")
    kill -TERM $server && wait $server
    server=
    local stored
    stored=$("$bin" query --db "$work/serve.sqlite" --from 2020-01-01 --to "$(date -u -d '+2 days' +%Y-%m-%d)" --format csv \
        | awk -F, 'NR==2{print $2} END{if (NR<2) print 0}')
    echo "  purchase-sli: $(( (accepted + duplicates) / seconds )) events/s acknowledged; $(grep '^latency' "$work/wrk.log");" \
         "stored $stored of $accepted accepted ($duplicates duplicates); database $(( $(stat -c %s "$work/serve.sqlite") / 1048576 )) MB"
}

run_influxdb() {
    rm -rf "$work/influx"
    mkdir -p "$work/influx"
    cat > "$work/influx/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:18088"
[meta]
  dir = "$work/influx/meta"
[data]
  dir = "$work/influx/data"
  wal-dir = "$work/influx/wal"
  wal-fsync-delay = "0s"
  query-log-enabled = false
[http]
  bind-address = "127.0.0.1:$influx_port"
  log-enabled = false
  max-body-size = 0
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
EOF
    influxd -config "$work/influx/influxdb.conf" 2> "$work/influx/influxd.log" &
    server=$!
    until curl -sf "http://127.0.0.1:$influx_port/ping" >/dev/null; do sleep 0.2; done
    curl -sf -XPOST "http://127.0.0.1:$influx_port/query" --data-urlencode "q=CREATE DATABASE bench" >/dev/null
    local written
    written=$(load "$work/lines.bin" "/write?db=bench&precision=ms" "text/plain" "$influx_port")
    local stored
    stored=$(curl -sf -G "http://127.0.0.1:$influx_port/query" --data-urlencode "db=bench" \
        --data-urlencode "q=SELECT count(eventID) FROM purchase_sli" | python3 -c \
        'import json, sys; r = json.load(sys.stdin)["results"][0]; print(r["series"][0]["values"][0][1] if "series" in r else 0)')
    kill -TERM $server && wait $server || true
    server=
    echo "  InfluxDB: $(( written * 500 / seconds )) events/s acknowledged; $(grep '^latency' "$work/wrk.log");" \
         "stored $stored points of $(( written * 500 )) written; data $(du -sm "$work/influx" | cut -f1) MB"
}

echo "$connections connections, $duration each, $rounds rounds alternating:"
for round in $(seq "$rounds"); do
    echo "round $round"
    run_purchase_sli
    run_influxdb
done
