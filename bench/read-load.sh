#!/usr/bin/env bash
# Do health checks answer under read load? `serve` on the 7-day rollout database of bench/render.sh
# (2.1M events), three clients each sending the heaviest query the row cap allows in a loop (7 days at
# 1-minute steps by planID: about 80,000 rows, 10 MB of JSON), while /healthz and /readyz are timed
# every 0.2 s. Reports the queries' and the health checks' latencies, and the same health checks
# without the read load as the baseline, in the same run.
# Usage: SECONDS_PER_PHASE=30 [BIN=path] bash bench/read-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
phase=${SECONDS_PER_PHASE:-30}
port=${PORT:-18184}
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
db="$work/render.sqlite"
[ -s "$db" ] || { echo "missing $db: run bash bench/render.sh first, which makes it" >&2; exit 1; }

"$bin" serve --db "$db" --port "$port" 2> "$work/read-load.serve.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.2; done

# Milliseconds of each request to $1, every 0.2 s for $phase seconds, into $2.
probe() {
    local deadline=$(( $(date +%s) + phase ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port$1" | awk '{printf "%.1f\n", $1 * 1000}' >> "$2"
        sleep 0.2
    done
}
summary() { sort -n "$1" | awk '{a[NR]=$1} END {printf "median %s ms, p99 %s ms, max %s ms over %d requests", a[int((NR+1)/2)], a[int(NR*0.99+0.5)], a[NR], NR}'; }
query="/v1/query?from=2026-11-09T00:00:00Z&to=2026-11-16T00:00:00Z&step=1m&by=planID"
curl -sf "http://127.0.0.1:$port$query" | wc -c | awk '{printf "the query answers %.1f MB\n", $1/1048576}'

rm -f "$work"/read-load-*.ms
probe /healthz "$work/read-load-idle-healthz.ms" & prober=$!
probe /readyz "$work/read-load-idle-readyz.ms"
wait $prober
clients=()
for client in 1 2 3; do
    ( deadline=$(( $(date +%s) + phase )); while [ "$(date +%s)" -lt "$deadline" ]; do
        curl -s -o /dev/null -w '%{time_total} %{http_code}\n' "http://127.0.0.1:$port$query" \
            | awk '{printf "%.1f\n", $1 * 1000; if ($2 != 200) print "status " $2 > "/dev/stderr"}' >> "$work/read-load-query.ms"
    done ) &
    clients+=($!)
done
probe /healthz "$work/read-load-busy-healthz.ms" & prober=$!
probe /readyz "$work/read-load-busy-readyz.ms"
wait $prober "${clients[@]}"

echo "machine: $(nproc) cores, $(date -u +%Y-%m-%d); $phase s per phase"
echo "baseline  /healthz: $(summary "$work/read-load-idle-healthz.ms"); /readyz: $(summary "$work/read-load-idle-readyz.ms")"
echo "3 readers /healthz: $(summary "$work/read-load-busy-healthz.ms"); /readyz: $(summary "$work/read-load-busy-readyz.ms")"
echo "the heavy query: $(summary "$work/read-load-query.ms")"
echo "server peak RSS $(awk '/VmHWM/{print int($2/1024)}' /proc/$server/status) MB"
