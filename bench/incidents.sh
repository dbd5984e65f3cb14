#!/usr/bin/env bash
# Incident records benchmark on the sample logs (`demo`'s database, made here per build): `alerts --at`
# at minutes where incidents fire (each alert now carries its incident's record, taken once per
# incident), a backtest of the sample logs' 26 days at 1-minute steps, and `incidents --rebuild` of the
# same range against that backtest (what taking and keeping the records adds). Whole commands, medians.
# BASELINE_BIN=path times the same `alerts` commands with another build (an older commit) in the same run.
# BIN=path uses that build instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench-incidents}
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
mkdir -p "$work"
# Each build reads a database it wrote itself: an older build refuses a file that a newer one migrated.
db_of() { if [ "$1" = "${BASELINE_BIN:-}" ]; then echo "$work/baseline.sqlite"; else echo "$work/demo.sqlite"; fi; }
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    if [ ! -s "$(db_of "$build")" ]; then "$build" demo --db "$(db_of "$build")" --out "$work/out" >/dev/null; fi
done
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
time_ms() { local start; start=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - start) / 1000000 )); }
for at in 2026-10-25T17:00:00Z 2026-11-02T18:30:00Z 2026-11-19T18:00:00Z; do
    for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
        ms=$(for _ in 1 2 3 4 5; do time_ms "$build" alerts --db "$(db_of "$build")" --at "$at"; done | median)
        echo "$build: alerts --at $at: ${ms} ms (median of 5)"
    done
done
range=(--from 2026-10-25T00:00:00Z --to 2026-11-20T00:00:00Z)
for build in ${BASELINE_BIN:+"$BASELINE_BIN"} "$bin"; do
    ms=$(for _ in 1 2 3; do time_ms "$build" alerts --db "$(db_of "$build")" "${range[@]}" --step 1m; done | median)
    echo "$build: backtest of the sample logs at 1-minute steps: ${ms} ms (median of 3)"
done
rebuild=$(for _ in 1 2 3; do time_ms "$bin" incidents --db "$work/demo.sqlite" --rebuild --from 2026-10-25T00:00:00Z --at 2026-11-19T23:59:00Z; done | median)
echo "$bin: incidents --rebuild of the same range: ${rebuild} ms (median of 3)"
