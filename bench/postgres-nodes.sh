#!/usr/bin/env bash
# What PostgreSQL costs: one `serve` node on SQLite against two `serve` nodes on one local PostgreSQL
# (a throwaway cluster with fsync on, made by scripts/test-postgres.sh), loaded with the same gzip bodies
# of 500 new events each by wrk (bench/post-events.lua; for the two nodes two wrk processes, each posting
# half of the bodies with half of the connections). Reports distinct events/s committed (counted in the
# store afterwards), latency, and the store's size; then, on bench/ingest.sh's 7 days of steady traffic
# (~2.1M events) ingested into both stores, `ingest` events/s and the 7-day success-rate query per product
# per 5 minutes (whole command, median of 5) and `alerts --at`, whose outputs must be the same on both. Client, nodes and database
# share this machine's cores.
# Usage: DURATION=20s CONNECTIONS=16 EVENTS=8000000 bash bench/postgres-nodes.sh   (BIN=path: another build, with the PostgreSQL trait)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-20s}
seconds=${duration%s}
connections=${CONNECTIONS:-16}
events=${EVENTS:-8000000}
work=${BENCH_DIR:-/tmp/purchase-sli-postgres-bench}
mkdir -p "$work"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; }
psql="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql"
# The PostgreSQL store is built with its trait only.
if [ -z "${BIN:-}" ]; then swift build -c release --traits PostgreSQL --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}

cluster="$work/postgres"
scripts/test-postgres.sh stop "$cluster" 2>/dev/null || true
rm -rf "$cluster" "$work"/*.sqlite*
nodes=()
trap 'kill "${nodes[@]}" 2>/dev/null || true; scripts/test-postgres.sh stop "$cluster" || true' EXIT
url=$(FSYNC=on scripts/test-postgres.sh start "$cluster")
"$psql" "$url" -qc "CREATE DATABASE week" >/dev/null
week_url=${url/\/purchase_sli\?/\/week?}
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $("$psql" "$url" -Atc 'SHOW server_version'), fsync on"

# A day of traffic up to now (no event late or in the future), ~2.1 events per attempt, in bodies of 500.
bodies="$work/bodies.bin"
"$bin" simulate --scenario steady --days 1 --start "$(date -u -d '1 day ago' +%Y-%m-%dT%H:%M:%SZ)" \
    --rate $(( events / 3024 )) --seed 5 | python3 bench/make-bodies.py 500 "$bodies"

# Every event a store holds, whatever its time.
stored() {
    "$bin" query --db "$1" --from 2020-01-01 --to "$(date -u -d '+2 days' +%Y-%m-%d)" --format csv \
        | awk -F, 'NR==2{print $2} END{if (NR<2) print 0}'
}
# start_node PORT DB LOG: a serve node, waited for until ready.
start_node() {
    "$bin" serve --db "$2" --port "$1" 2> "$3" &
    nodes+=($!)
    until curl -sf "http://127.0.0.1:$1/readyz" >/dev/null; do sleep 0.2; done
}
# load PARTS PORT...: one wrk per port, each with its share of the bodies and of the connections.
load() {
    local parts=$1 part=0 pids=()
    shift
    for port in "$@"; do
        BODIES=$bodies THREADS=1 PARTS=$parts PART=$part wrk -t1 -c$(( connections / parts )) -d"$duration" --latency \
            -s bench/post-events.lua "http://127.0.0.1:$port/v1/events" > "$work/wrk-$port.log" &
        pids+=($!)
        part=$(( part + 1 ))
    done
    wait "${pids[@]}"
}
# report LABEL STORE PORT...: events/s counted in the store, latency of each node's client, statuses.
report() {
    local label=$1 store=$2 counted latency statuses
    shift 2
    counted=$(stored "$store")
    latency=$(for port in "$@"; do grep -o 'p50 .*' "$work/wrk-$port.log"; done | paste -sd'|' | sed 's/|/ | /g')
    statuses=$(for port in "$@"; do grep '^status' "$work/wrk-$port.log"; done | awk '{s[$2]+=$3} END{for (k in s) printf "%s %d  ", k, s[k]}')
    printf '%-28s %8d distinct events/s committed (%d in %s s)   %s   [%s]\n' "$label" $(( counted / seconds )) "$counted" "$seconds" \
        "$latency" "$statuses"
}
stop_nodes() { kill -TERM "${nodes[@]}"; wait "${nodes[@]}" || true; nodes=(); }

start_node 18381 "$work/one.sqlite" "$work/sqlite.log"
load 1 18381
stop_nodes
report "1 node, SQLite" "$work/one.sqlite" 18381
echo "    SQLite file: $(( $(stat -c %s "$work/one.sqlite") / 1048576 )) MB"

start_node 18382 "$url" "$work/postgres-a.log"
start_node 18383 "$url" "$work/postgres-b.log"
load 2 18382 18383
stop_nodes
report "2 nodes, one PostgreSQL" "$url" 18382 18383
echo "    PostgreSQL database: $(( $("$psql" "$url" -Atc 'SELECT pg_database_size(current_database())') / 1048576 )) MB"

# Seven days of steady traffic in both stores, then the query the dashboards' success-rate panel makes.
week="$work/week.ndjson"
[ -s "$week" ] || "$bin" simulate --scenario steady --days 7 --start 2026-11-09 --rate 104 --seed 1 > "$week"
for store in "$work/week.sqlite" "$week_url"; do
    label=$([ "$store" = "$week_url" ] && echo PostgreSQL || echo SQLite)
    printf '%-28s %s\n' "ingest 7 days, $label" "$("$bin" ingest --db "$store" "$week" | grep -o '[0-9.]* s, [0-9]* events/s')"
done
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
for store in "$work/week.sqlite" "$week_url"; do
    label=$([ "$store" = "$week_url" ] && echo PostgreSQL || echo SQLite)
    ms=$(for _ in 1 2 3 4 5; do
        start=$(date +%s%N)
        "$bin" query --db "$store" --from 2026-11-09 --to 2026-11-16 --by productID --step 5m --format json > "$work/query-$label.json"
        echo $(( ($(date +%s%N) - start) / 1000000 ))
    done | median)
    printf '%-28s %6d ms (median of 5, whole command; %d rows)\n' "query 7 d, $label" "$ms" "$(grep -o '"time"' "$work/query-$label.json" | wc -l)"
done
# What the leader does every minute: evaluate the alert rules (5 days of minutes of every slice dimension).
for store in "$work/week.sqlite" "$week_url"; do
    label=$([ "$store" = "$week_url" ] && echo PostgreSQL || echo SQLite)
    ms=$(for _ in 1 2 3; do
        start=$(date +%s%N)
        "$bin" alerts --db "$store" --policy dashboards/slos.yaml --at 2026-11-15T20:00:00Z > "$work/alerts-$label.txt"
        echo $(( ($(date +%s%N) - start) / 1000000 ))
    done | median)
    printf '%-28s %6d ms (median of 3, whole command)\n' "alerts --at, $label" "$ms"
done
cmp -s "$work/query-SQLite.json" "$work/query-PostgreSQL.json" && echo "the two stores answered the query identically" \
    || { echo "the two stores answered the query differently" >&2; exit 1; }
cmp -s "$work/alerts-SQLite.txt" "$work/alerts-PostgreSQL.txt" && echo "the two stores gave the same alert text" \
    || { echo "the two stores gave different alert text" >&2; exit 1; }
