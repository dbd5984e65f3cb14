#!/usr/bin/env bash
# Does rendering and alert evaluation inside `serve` hold up ingestion? The same load (bench/serve-load.sh:
# wrk posting gzip NDJSON batches, a reader querying every second) twice in one run, on a database
# preloaded with the sample logs (three weeks of events, so the pages have real work to do):
#   baseline   serve alone;
#   rendering  serve --render-every 1m --notify (a local receiver) --alerts-every 1m: the pages and the
#              weekly review rendered, and every alert evaluated, at start and every minute of the load.
# Reports events/s and latency percentiles of each, their ratios, and how long each rendering took.
# Usage: DURATION=150s CONNECTIONS=12 bash bench/serve-render.sh     (ROUNDS=2 alternates the two twice)
set -euo pipefail
cd "$(dirname "$0")/.."
export DURATION=${DURATION:-150s} CONNECTIONS=${CONNECTIONS:-12} EVENTS=${EVENTS:-12000000}
export PRELOAD="sample-logs/*.ndjson.gz"
work=${BENCH_DIR:-/tmp/purchase-sli-serve-bench}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
export BIN=${BIN:-.build/release/purchase-sli}

# The alert receiver: answers every POST with 202.
receiver_port=18182
python3 bench/alert-receiver.py "$receiver_port" &
receiver=$!
trap 'kill $receiver 2>/dev/null || true' EXIT

# One run; prints "events/s p50 p90 p99 max" (latencies in ms) and keeps the serve log.
run() {
    local name=$1
    shift
    SERVE_ARGS="$*" bash bench/serve-load.sh > "$work/$name.out" 2>&1
    cp "$work/serve.log" "$work/$name.serve.log"
    python3 bench/load-summary.py "$work/$name.out"
}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $DURATION per run, $CONNECTIONS connections"
printf '%-10s %10s %8s %8s %8s %8s\n' run events/s p50_ms p90_ms p99_ms max_ms
for round in $(seq 1 "${ROUNDS:-1}"); do
    read -r -a base <<<"$(run baseline)"
    printf '%-10s %10s %8s %8s %8s %8s\n' baseline "${base[@]}"
    read -r -a rendering <<<"$(run rendering --out "$work/pages" --render-every 1m --dashboards dashboards \
        --notify "http://127.0.0.1:$receiver_port/api/v2/alerts" --alerts-every 1m)"
    printf '%-10s %10s %8s %8s %8s %8s\n' rendering "${rendering[@]}"
    awk -v b="${base[0]}" -v r="${rendering[0]}" -v b99="${base[3]}" -v r99="${rendering[3]}" -v b50="${base[1]}" -v r50="${rendering[1]}" \
        'BEGIN { printf "round %d: rendering/baseline events/s %.2f, p50 %.2f, p99 %.2f\n", '"$round"', r/b, r50/b50, r99/b99 }'
    echo "  renderings during the load (ms each): $(grep -o 'milliseconds=[0-9]*' "$work/rendering.serve.log" | cut -d= -f2 | tr '\n' ' ')"
    echo "  alert evaluations posted: $(grep -c 'alert notifications sent' "$work/rendering.serve.log" || true)"
done
