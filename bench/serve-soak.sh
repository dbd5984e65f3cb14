#!/usr/bin/env bash
# Long-run soak of `purchase-sli serve` as an operator leaves it running (issue 64): alerts evaluated and
# posted every minute to a local Alertmanager stand-in (with the heartbeat), the pages rendered every
# minute, the rollout checked every minute, App Store notifications verified and stored, under steady
# traffic: RATE events/s (default 20) in bodies of 20, 1 body in 50 sent again (all duplicates), a query
# every 5 s, a signed App Store notification every 2 s. Every minute it samples each server's resident
# memory (read every 5 s: the minute's low, between its jobs, and its peak), open files, CPU and database
# size; at the end it checks that the database counts exactly the
# events acknowledged as accepted and that no request got a 5xx, and writes a table and a plot.
#
# Variants run side by side in the same run (each its own server, database, port and clients), so that
# the machine's drift touches all alike:
#   product   the build as shipped (BIN, default: build this checkout)
#   before    BASELINE_BIN, when given (an earlier build)
#   arena2    the earlier build (BASELINE_BIN, else BIN) with MALLOC_ARENA_MAX=2 in its environment: the
#             operator's workaround, the baseline the product's own fix is measured against (arenaN: N)
#   product4  the build as shipped with MALLOC_ARENA_MAX=4 (productN: N arenas instead of serve's own 2)
# VARIANTS picks among them (default "product arena2", plus "before" with BASELINE_BIN).
# With POSTGRES_URL (a server whose user may create databases) each variant stores in a database of its own
# on it instead of SQLite.
#
# Usage: SOAK_MINUTES=45 [RATE=20] [BIN=path] [BASELINE_BIN=path] [POSTGRES_URL=url] bash bench/serve-soak.sh
# Results in $BENCH_DIR (default /tmp/purchase-sli-serve-soak): soak-VARIANT.csv, soak.md (the table),
# soak.svg (resident memory per minute, one line per variant).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${SOAK_MINUTES:-45}
rate=${RATE:-20}
work=${BENCH_DIR:-/tmp/purchase-sli-serve-soak}
rm -rf "$work" && mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
variants=${VARIANTS:-"product${BASELINE_BIN:+ before} arena2"}
bundle=com.example.purchasesli
clock_ticks=$(getconf CLK_TCK)

echo "machine: $(nproc) cores, $(awk '/MemTotal/{print int($2/1024)}' /proc/meminfo) MB, $(uname -m), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "soak: $minutes min at $rate events/s per variant; variants: $variants"

# Signed App Store notifications of the simulator's test chain, stamped now (serve refuses old ones).
"$bin" simulate --scenario steady --days 1 --start "$(date -u +%Y-%m-%d)" --rate 5 --seed 7 \
    --store-notifications "$work/store" > /dev/null 2>&1

# One Alertmanager stand-in for every variant: answers 200 and counts the posts per path.
receiver_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$receiver_port" "$work/receiver.json" <<'PY' &
import http.server, json, signal, sys
counts = {}
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        counts[self.path] = counts.get(self.path, 0) + 1
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *arguments): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
def stop(*_):
    json.dump(counts, open(sys.argv[2], "w")); sys.exit(0)
signal.signal(signal.SIGTERM, stop)
server.serve_forever()
PY
receiver=$!
pids=("$receiver")
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

declare -A server_pid db_of port_of
for variant in $variants; do
    dir="$work/$variant" && mkdir -p "$dir/pages"
    variant_bin=$bin
    environment=()
    case $variant in
        arena[0-9]*) environment=("MALLOC_ARENA_MAX=${variant#arena}") && variant_bin=${BASELINE_BIN:-$bin} ;;
        product[0-9]*) environment=("MALLOC_ARENA_MAX=${variant#product}") ;;
        before) variant_bin=${BASELINE_BIN:?BASELINE_BIN names the earlier build} ;;
    esac
    if [ -n "${POSTGRES_URL:-}" ]; then
        PGOPTIONS=--client-min-messages=warning psql "$POSTGRES_URL" -qc "DROP DATABASE IF EXISTS soak_$variant" \
            -c "CREATE DATABASE soak_$variant" >/dev/null
        base=${POSTGRES_URL%%\?*} query=${POSTGRES_URL#"$base"}
        db_of[$variant]="${base%/*}/soak_$variant$query"
    else
        db_of[$variant]="$dir/soak.sqlite"
    fi
    port_of[$variant]=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    echo "soak-key-$variant" > "$dir/ingest-keys"
    heartbeat=()
    "$variant_bin" serve --help | grep -q -- --notify-heartbeat && heartbeat=(--notify-heartbeat)
    env "${environment[@]}" PURCHASE_SLI_DB="${db_of[$variant]}" "$variant_bin" serve --port "${port_of[$variant]}" \
        --ingest-keys "$dir/ingest-keys" --notify "http://127.0.0.1:$receiver_port/$variant/api/v2/alerts" "${heartbeat[@]}" \
        --render-every 1m --out "$dir/pages" --dashboards dashboards --rollout-every 1m \
        --apple-bundle-id "$bundle" --apple-root-ca "$work/store/apple-test-root.pem" 2> "$dir/serve.log" &
    server_pid[$variant]=$!
    pids+=("$!")
done
for variant in $variants; do
    until curl -sf "http://127.0.0.1:${port_of[$variant]}/readyz" >/dev/null; do sleep 0.2; done
done

for variant in $variants; do
    dir="$work/$variant" port=${port_of[$variant]}
    echo "soak-key-$variant" > "$dir/client-key"
    python3 bench/soak-client.py "http://127.0.0.1:$port/v1/events" "$dir/client-key" "$rate" 20 2 "$dir/totals.json" &
    pids+=("$!")
    # A query every 5 s and a signed notification every 2 s; a 5xx of either is counted.
    python3 - "$port" "soak-key-$variant" "$work/store/apple-notifications.ndjson" "$dir/reads.json" <<'PY' &
import json, signal, sys, time, urllib.error, urllib.request
port, key, notifications, out = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().splitlines(), sys.argv[4]
totals = {"queries": 0, "notifications": 0, "server_errors": 0}
def stop(*_):
    json.dump(totals, open(out, "w")); sys.exit(0)
signal.signal(signal.SIGTERM, stop)
def call(request):
    try:
        urllib.request.urlopen(request, timeout=30).read()
    except urllib.error.HTTPError as error:
        if error.code >= 500: totals["server_errors"] += 1
    except OSError:
        pass
tick = 0
while True:
    if tick % 5 == 0:
        call(urllib.request.Request(f"http://127.0.0.1:{port}/v1/query?from=now-1h&to=now&by=productID,resultType&step=1m"))
        totals["queries"] += 1
    if tick % 2 == 0 and notifications:
        call(urllib.request.Request(f"http://127.0.0.1:{port}/v1/stores/apple/notifications", data=notifications[totals["notifications"] % len(notifications)].encode(),
                                    headers={"Content-Type": "application/json"}, method="POST"))
        totals["notifications"] += 1
    tick += 1
    time.sleep(1)
PY
    pids+=("$!")
    echo "minute,rss_mb,rss_low_mb,rss_peak_mb,open_files,cpu_percent,db_mb,accepted_total" > "$work/soak-$variant.csv"
done

declare -A last_ticks peak low
for variant in $variants; do
    last_ticks[$variant]=$(awk '{print $14 + $15}' "/proc/${server_pid[$variant]}/stat")
done
rss_mb() { awk '/VmRSS/{print int($2/1024)}' "/proc/$1/status"; }
for minute in $(seq 1 "$minutes"); do
    # Resident memory every 5 s: the minute's low (between its jobs) and peak (while they run and until
    # what they freed is handed back).
    for variant in $variants; do peak[$variant]=0 low[$variant]=1000000; done
    for _ in $(seq 12); do
        sleep 5
        for variant in $variants; do
            now=$(rss_mb "${server_pid[$variant]}")
            [ "$now" -gt "${peak[$variant]}" ] && peak[$variant]=$now
            [ "$now" -lt "${low[$variant]}" ] && low[$variant]=$now
        done
    done
    for variant in $variants; do
        pid=${server_pid[$variant]}
        ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
        if [ -n "${POSTGRES_URL:-}" ]; then
            db_mb=$(psql "${db_of[$variant]}" -tAc "SELECT pg_database_size(current_database()) / 1048576")
        else
            db=${db_of[$variant]}
            db_mb=$(( ($(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0)) / 1048576 ))
        fi
        accepted=$(curl -sf "http://127.0.0.1:${port_of[$variant]}/metrics" | awk '$1 == "purchase_sli_events_accepted_total" {printf "%d", $2}')
        printf '%d,%d,%d,%d,%d,%.1f,%d,%s\n' "$minute" "$(rss_mb "$pid")" "${low[$variant]}" "${peak[$variant]}" \
            "$(ls "/proc/$pid/fd" | wc -l)" "$(echo "($ticks - ${last_ticks[$variant]}) * 100 / $clock_ticks / 60" | bc -l)" \
            "$db_mb" "$accepted" >> "$work/soak-$variant.csv"
        last_ticks[$variant]=$ticks
    done
done

# Stop the clients first (they write their totals), then the servers (each must exit 0), then the receiver.
for pid in "${pids[@]:1}"; do
    if ! [[ " ${server_pid[*]} " == *" $pid "* ]]; then kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; fi
done
for variant in $variants; do
    kill -TERM "${server_pid[$variant]}" && wait "${server_pid[$variant]}" && echo "$variant: serve exited 0 after SIGTERM"
done
kill -TERM "$receiver" && wait "$receiver" || true
for variant in $variants; do
    db=${db_of[$variant]}
    "$bin" query --db "$db" --from 2020-01-01 --to "$(date -u -d '+2 days' +%Y-%m-%d)" --format csv \
        | awk -F, 'NR==2{print $2} END{if (NR<2) print 0}' > "$work/$variant/counted"
done
python3 bench/soak-report.py "$work" $variants
