#!/usr/bin/env bash
# What `serve` costs a minute at ten apps (issue 66's goal: a minute's evaluation at most 5 % of one core):
# ten apps with the wide catalog (`simulate --rate 10 --catalog wide`, the DAYS days up to now, as
# bench/many-apps.sh), `serve --alerts-every 1m --notify` (a local receiver), and a trickle of 20 events
# posted every 2 seconds. After WARMUP seconds (the evaluation at start, not a minute's), alternating
# phases of PHASE seconds:
#   known  each batch repeats one series (new event ids, the time now): the catalog stays as it is;
#   new    each batch names 20 products not seen before: every minute's evaluation meets new series.
# Reports serve's CPU time (user + system, from /proc) per phase as a share of one core, and new / known,
# and its memory after the warm-up and each phase (resident, and the peak so far: VmRSS and VmHWM).
# With BASE_BIN, that build is measured first on the same database (the baseline of the same run).
# Usage: [BIN=path] [BASE_BIN=path] [DAYS=7] [WARMUP=90] [PHASE=180] [ROUNDS=2] bash bench/serve-minute.sh
#        (BENCH_DIR: default /tmp/purchase-sli-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}/serve-minute
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
phase=${PHASE:-180}
warmup=${WARMUP:-90}
port=18190
receiver_port=18191
key=bench-ingest-key

days=${DAYS:-7}
start=$(date -u -d "$days days ago" +%Y-%m-%d)
db="$work/ten.sqlite"
rm -f "$db" "$db"-*
# Written by the baseline when there is one: a newer build migrates an older database, not the reverse.
writer=${BASE_BIN:-$bin}
for n in 1 2 3 4 5 6 7 8 9 10; do
    "$writer" simulate --scenario steady --days "$days" --start "$start" --rate 10 --seed "$n" --app "com.example.app$n" --catalog wide
done > "$work/ten.ndjson"
"$writer" ingest --quiet --db "$db" "$work/ten.ndjson" > /dev/null
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $(wc -l < "$work/ten.ndjson") events from $start, $(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM series").fetchone()[0])' "$db") series"

# The alert receiver: answers every POST with 202.
python3 bench/alert-receiver.py "$receiver_port" &
receiver=$!
server=
trap 'kill $server $receiver 2>/dev/null || true' EXIT
echo "$key" > "$work/ingest-keys"

# A batch of 20 events at the time now: of one series (known), or of 20 products not seen yet (new).
batch() {
    local kind=$1 counter=$2 now
    now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
    for i in $(seq 1 20); do
        local product="premium_monthly_t1"
        [ "$kind" = new ] && product="bench_new_${counter}_$i"
        printf '{"eventID":"bench-%s-%s-%s","timestamp":"%s","productID":"%s","planID":"pro-monthly-t1","actionType":"purchase","resultType":"success","statusCode":200,"appVersion":"4.11.11","platform":"iOS","osVersion":"18.2.4","variant":"storekit2","app":"com.example.app1"}\n' \
            "$kind" "$counter" "$i" "$now" "$product"
    done
}
cpu_seconds() { awk -v ticks="$(getconf CLK_TCK)" '{print ($14 + $15) / ticks}' "/proc/$server/stat"; }
memory() { awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { printf "%d MB resident, %d MB at its peak so far", r / 1024, h / 1024 }' "/proc/$server/status"; }
# Posts a batch every 2 seconds for `$2` seconds.
trickle() {
    local kind=$1 seconds=$2 began
    began=$(date +%s.%N)
    while awk -v b="$began" -v p="$seconds" -v n="$(date +%s.%N)" 'BEGIN { exit !(n - b < p) }'; do
        counter=$((counter + 1))
        batch "$kind" "$counter" | curl -sf "http://127.0.0.1:$port/v1/events" -H 'Content-Type: application/x-ndjson' \
            -H "X-Ingest-Key: $key" --data-binary @- > /dev/null
        sleep 2
    done
}

counter=0
# Measures the build `$1` (named `$2`): serve started, warmed up, then the rounds of phases.
measure() {
    local build=$1 name=$2 before began elapsed share
    "$build" serve --db "$db" --port "$port" --ingest-keys "$work/ingest-keys" --alerts-every 1m \
        --notify "http://127.0.0.1:$receiver_port/api/v2/alerts" > "$work/serve-$name.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.2; done
    curl -sf "http://127.0.0.1:$port/healthz" > /dev/null || { echo "serve did not start; its log:" >&2; cat "$work/serve-$name.log" >&2; exit 1; }
    trickle known "$warmup"
    echo "$name, after the warm-up (the evaluation at start): $(memory)"
    declare -A used
    for round in $(seq 1 "${ROUNDS:-2}"); do
        for kind in known new; do
            before=$(cpu_seconds)
            began=$(date +%s.%N)
            trickle "$kind" "$phase"
            elapsed=$(awk -v b="$began" -v n="$(date +%s.%N)" 'BEGIN { print n - b }')
            share=$(awk -v a="$before" -v b="$(cpu_seconds)" -v e="$elapsed" 'BEGIN { printf "%.1f", 100 * (b - a) / e }')
            used[$kind]="${used[$kind]:-} $share"
            echo "$name, round $round, $kind series: serve used $share % of a core over ${elapsed%.*} s; $(memory)"
        done
    done
    kill "$server"
    wait "$server" 2>/dev/null || true
    awk -v name="$name" -v k="${used[known]}" -v n="${used[new]}" 'BEGIN {
        kc = split(k, ka, " "); nc = split(n, na, " "); for (i = 1; i <= kc; i++) ks += ka[i]; for (i = 1; i <= nc; i++) ns += na[i]
        printf "%s mean: known %.1f %%, new %.1f %% of a core: new / known %.2f×\n", name, ks / kc, ns / nc, (ns / nc) / (ks / kc) }'
}

if [ -n "${BASE_BIN:-}" ]; then measure "$BASE_BIN" baseline; fi
measure "$bin" build
