#!/usr/bin/env bash
# Dashboard rendering benchmark: `render --range 7d` on ~2M events (7 days of `simulate --scenario rollout
# --rate 104`: a phased release with a regressing plan, so every panel has something to show), whole
# command including process start (median of 5), each page's size, and in the same run the alert
# evaluations that render makes (`alerts --at`, and the 1-minute backtest that shades the charts and lists the
# reviewed week's incidents) timed
# on their own, as the baseline of what the pages add.
# Usage: bash bench/render.sh        (BENCH_DIR: where the database goes, default /tmp/purchase-sli-bench)
# BIN=path uses that build instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
db="$work/render.sqlite"
if [ ! -s "$db" ]; then
    mkdir -p "$work"
    "$bin" simulate --scenario rollout --days 7 --start 2026-11-09 --rate 104 --seed 1 | "$bin" ingest --quiet --db "$db" - >/dev/null
fi
at=2026-11-16T00:00:00Z
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $("$bin" query --db "$db" --from 2026-11-01 --to 2026-11-20 --format csv | awk -F, 'NR==2{print $2}') events"
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
time_ms() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }

out="$work/render-out"
rm -rf "$out"
render=$(for _ in 1 2 3 4 5; do time_ms "$bin" render --db "$db" --dashboards dashboards --out "$out" --at "$at" --range 7d; done | median)
echo "render --at $at --range 7d: ${render} ms (median of 5, whole command)"
for page in "$out"/*.html; do
    printf '  %-14s %8s bytes\n' "$(basename "$page")" "$(stat -c %s "$page")"
done
rss=$( { /usr/bin/time -f "%M" "$bin" render --db "$db" --dashboards dashboards --out "$out" --at "$at" --range 7d >/dev/null; } 2>&1 | tail -1)
echo "  peak RSS $(( rss / 1024 )) MB"

firing=$(for _ in 1 2 3 4 5; do time_ms "$bin" alerts --db "$db" --at "$at"; done | median)
echo "baseline: alerts --at $at: ${firing} ms (median of 5)"
backtest=$(for _ in 1 2 3; do time_ms "$bin" alerts --db "$db" --from 2026-11-09 --to "$at" --step 1m; done | median)
echo "baseline: alerts --from 2026-11-09 --to $at --step 1m (the charts' bands, the review's incidents): ${backtest} ms (median of 3)"
