#!/usr/bin/env bash
# Alert evaluation benchmark on the ~2M-event database of bench/ingest.sh (made here if missing):
# `alerts --at` (median of 5) and a 7-day backtest at 1-minute steps (median of 3), whole commands.
# BASELINE_BIN=path times the same commands with another build (an older commit, say) in the same run.
# BIN=path uses that build instead of building this checkout. BASELINE_POLICY=file gives the baseline the
# policy of its own revision (an older build refuses keys it does not know).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
# Each build reads a database it wrote itself: an older build refuses a file that a newer one migrated.
db_of() { if [ "$1" = "${BASELINE_BIN:-}" ]; then echo "$work/alerts-baseline.sqlite"; else echo "$work/alerts.sqlite"; fi; }
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    if [ ! -s "$(db_of "$build")" ]; then
        mkdir -p "$work"
        "$build" simulate --scenario steady --days 7 --start 2026-11-09 --rate 104 --seed 1 \
            | "$build" ingest --db "$(db_of "$build")" - >/dev/null
    fi
done
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $("$bin" query --db "$work/alerts.sqlite" --from 2026-11-01 --to 2026-11-20 --format csv | awk -F, 'NR==2{print $2}') events"
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
time_ms() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
policy_of() { if [ "$1" = "${BASELINE_BIN:-}" ] && [ -n "${BASELINE_POLICY:-}" ]; then echo "$BASELINE_POLICY"; else echo dashboards/slos.yaml; fi; }
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    policy=$(policy_of "$build")
    db=$(db_of "$build")
    at=$(for _ in 1 2 3 4 5; do time_ms "$build" alerts --db "$db" --policy "$policy" --at 2026-11-15T20:00:00Z; done | median)
    echo "$build: alerts --at (7 days of data, 6 slice dimensions): ${at} ms (median of 5)"
    backtest=$(for _ in 1 2 3; do time_ms "$build" alerts --db "$db" --policy "$policy" --from 2026-11-09 --to 2026-11-16 --step 1m; done | median)
    episodes=$("$build" alerts --db "$db" --policy "$policy" --from 2026-11-09 --to 2026-11-16 --step 1m | head -1)
    echo "$build: backtest 7 days at 1-minute steps: ${backtest} ms (median of 3); $episodes"
done
