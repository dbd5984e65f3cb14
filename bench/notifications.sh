#!/usr/bin/env bash
# Store notification benchmark: a day of simulated App Store notifications (one per charge, each a JWS
# whose signedTransactionInfo is a second JWS, both with a 3-certificate x5c chain) verified and stored
# by `ingest-store` and by `serve`'s endpoint (wrk, one POST per notification, as the App Store sends
# them), and what reconciliation adds to an alert evaluation. The baseline, measured in the same run, is
# this machine's own P-256 signature verification rate (`openssl speed ecdsap256`, one core): every
# notification needs two such verifications, so half of it is the most one core could verify.
# Usage: bash bench/notifications.sh [attempts-per-minute]     (default 10: about 12,000 notifications)
# BIN=path uses that build instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-10}
connections=${CONNECTIONS:-16}
export THREADS=${THREADS:-2}
port=${PORT:-18182}
work=${BENCH_DIR:-/tmp/purchase-sli-notification-bench}
rm -rf "$work"
mkdir -p "$work"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
bundle=com.example.purchasesli

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
"$bin" simulate --scenario steady --days 1 --start 2026-11-16 --rate "$rate" --seed 1 \
    --store-notifications "$work/store" > "$work/events.ndjson" 2>/dev/null
notifications="$work/store/apple-notifications.ndjson"
count=$(wc -l < "$notifications")
echo "notifications: $count ($(( $(stat -c %s "$notifications") / count )) bytes each); events: $(wc -l < "$work/events.ndjson")"
sync

median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
verify_rate=$(openssl speed -seconds 5 ecdsap256 2>/dev/null | awk '/256 bits ecdsa \(nistp256\)/ {printf "%d", $NF}')
printf '%-44s %8s verifications/s  (%s notifications/s at two per notification)\n' \
    "baseline: openssl speed ecdsap256, 1 core" "$verify_rate" "$(( verify_rate / 2 ))"

# ingest-store into a new database, three times; then the same file again (every one a duplicate,
# verified all the same).
rates=()
for _ in 1 2 3; do
    rm -f "$work"/store.sqlite*
    start=$(date +%s%N)
    output=$( { /usr/bin/time -f "rss_kb=%M" "$bin" ingest-store --db "$work/store.sqlite" --apple-root-ca "$work/store/apple-test-root.pem" \
        --apple-bundle-id "$bundle" "$notifications"; } 2>&1 )
    rates+=("$(( count * 1000000000 / ($(date +%s%N) - start) ))")
done
printf '%-44s %8s notifications/s (median of 3, whole command)  peak RSS %s MB  (%s)\n' "ingest-store, new database" \
    "$(printf '%s\n' "${rates[@]}" | median)" "$(( $(grep -o 'rss_kb=[0-9]*' <<<"$output" | cut -d= -f2) / 1024 ))" \
    "$(grep -E '^(stored|duplicates|refused)' <<<"$output" | awk '{print $1" "$2}' | paste -sd' ')"
start=$(date +%s%N)
output=$("$bin" ingest-store --db "$work/store.sqlite" --apple-root-ca "$work/store/apple-test-root.pem" --apple-bundle-id "$bundle" "$notifications")
printf '%-44s %8s notifications/s  (%s)\n' "ingest-store again (all duplicates)" "$(( count * 1000000000 / ($(date +%s%N) - start) ))" \
    "$(grep -E '^(stored|duplicates)' <<<"$output" | awk '{print $1" "$2}' | paste -sd' ')"

# serve's endpoint: every notification POSTed once over $connections connections; 200 only once stored.
rm -f "$work"/serve.sqlite*
"$bin" serve --db "$work/serve.sqlite" --port "$port" --apple-root-ca "$work/store/apple-test-root.pem" \
    --apple-bundle-id "$bundle" > "$work/serve.log" 2>&1 &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
accepted() {
    curl -fs "http://127.0.0.1:$port/metrics" | awk '/^purchase_sli_store_notifications_total\{.*outcome="accepted"/ {printf "%d\n", $NF; found=1}
        END {if (!found) print 0}'
}
start=$(date +%s%N)
NOTIFICATIONS="$notifications" wrk -t "$THREADS" -c "$connections" -d 10m --latency -s bench/post-notifications.lua \
    "http://127.0.0.1:$port" > "$work/wrk.txt" 2>&1 &
wrk_pid=$!
until [ "$(accepted)" -ge "$count" ]; do
    if [ $(( $(date +%s%N) - start )) -gt 600000000000 ]; then echo "serve stored $(accepted) of $count in 10 min" >&2; exit 1; fi
    sleep 0.05
done
elapsed=$(( $(date +%s%N) - start ))
kill -INT "$wrk_pid"
wait "$wrk_pid" || true
rss=$(( $(awk '/VmHWM/ {print $2}' "/proc/$serve_pid/status") / 1024 ))
kill -TERM "$serve_pid"
wait "$serve_pid" || true
stored=$("$bin" charges --db "$work/serve.sqlite" --from 2026-11-15 --to 2026-11-18 --at 2026-11-18 --format json \
    | grep -o '"transactionID"' | wc -l)
printf '%-44s %8s notifications/s  %s  serve peak RSS %s MB  (%s stored of %s)\n' "serve POST /v1/stores/apple/notifications" \
    "$(( count * 1000000000 / elapsed ))" "$(grep -o 'p50_ms.*' "$work/wrk.txt")" "$rss" "$stored" "$count"
grep -o 'statuses.*' "$work/wrk.txt"

# What reconciliation adds to an evaluation: alerts --at on the events alone and with the notifications.
"$bin" ingest --quiet --db "$work/events.sqlite" "$work/events.ndjson" >/dev/null
cp "$work/events.sqlite" "$work/reconciled.sqlite"
"$bin" ingest-store --db "$work/reconciled.sqlite" --apple-root-ca "$work/store/apple-test-root.pem" --apple-bundle-id "$bundle" \
    "$notifications" >/dev/null
time_ms() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
for db in events reconciled; do
    ms=$(for _ in 1 2 3 4 5; do time_ms "$bin" alerts --db "$work/$db.sqlite" --policy dashboards/slos.yaml --at 2026-11-16T20:00:00Z; done | median)
    printf '%-44s %8s ms (median of 5, whole command)\n' "alerts --at, $db" "$ms"
done
