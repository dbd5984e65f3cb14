#!/usr/bin/env bash
# A newcomer's first command, timed: a fresh clone of this checkout's HEAD, no .build, then the README's
# run command as printed (`swift run purchase-sli demo`), from the start of the build to the demo's last
# line (package resolution included: the dependencies come from the machine's local copies of their
# repositories). Then, in the same clone, the optimized build users serve with (`swift build -c release`),
# from nothing too (its own scratch folder).
#
# The baseline, measured in the same run with --baseline: what the README's run command built before
# this change, `swift build -c release --traits PostgreSQL --product purchase-sli` (optimized, and with
# swift-nio-ssl's BoringSSL besides swift-crypto's), in a clone of its own. It takes about 17 minutes more.
#
# Usage: bash bench/first-build.sh [--baseline]       (BENCH_DIR: where the clones go, default /tmp/purchase-sli-first-build)
# Keep the machine otherwise idle: the figure is the build's wall-clock time on all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=false
case "${1:-}" in
    --baseline) baseline=true ;;
    "") ;;
    *) echo "usage: bash bench/first-build.sh [--baseline]" >&2; exit 2 ;;
esac
work=${BENCH_DIR:-/tmp/purchase-sli-first-build}
rm -rf "$work"
mkdir -p "$work"
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $(swift --version 2>/dev/null | head -1); commit $(git rev-parse --short HEAD)"

# Seconds since $1 (date +%s%N), to one decimal.
elapsed() { awk -v start="$1" -v now="$(date +%s%N)" 'BEGIN { printf "%.1f", (now - start) / 1e9 }'; }

clone() {
    git clone --quiet --no-local "$PWD" "$work/$1"
    git -C "$work/$1" checkout --quiet "$(git rev-parse HEAD)"
}

clone default
minutes() { awk -v s="$1" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }'; }
start=$(date +%s%N)
(cd "$work/default" && swift run purchase-sli demo > "$work/demo.txt" 2> "$work/demo-build.log") \
    || { tail -30 "$work/demo-build.log"; cat "$work/demo.txt"; exit 1; }
total=$(elapsed "$start")
grep -q "alert episodes" "$work/demo.txt" || { echo "the demo printed no alert episodes:"; cat "$work/demo.txt"; exit 1; }
echo "README run command (swift run purchase-sli demo) from a fresh clone: demo printed at ${total} s ($(minutes "$total"))"

start=$(date +%s%N)
(cd "$work/default" && swift build -c release --scratch-path .build-release > "$work/release-build.log" 2>&1) \
    || { tail -30 "$work/release-build.log"; exit 1; }
release=$(elapsed "$start")
echo "swift build -c release from nothing: ${release} s ($(minutes "$release"))"

if $baseline; then
    clone postgres
    start=$(date +%s%N)
    (cd "$work/postgres" && swift build -c release --traits PostgreSQL --product purchase-sli > "$work/postgres-build.log" 2>&1) \
        || { tail -30 "$work/postgres-build.log"; exit 1; }
    before=$(elapsed "$start")
    echo "baseline: swift build -c release --traits PostgreSQL --product purchase-sli from a fresh clone: ${before} s ($(minutes "$before"));" \
        "the README's run command takes $(awk -v a="$total" -v b="$before" 'BEGIN { printf "%.2f", a / b }')× its time," \
        "the optimized default build $(awk -v a="$release" -v b="$before" 'BEGIN { printf "%.2f", a / b }')×"
fi
rm -rf "$work"
