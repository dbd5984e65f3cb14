#!/usr/bin/env bash
# Many apps against one, at equal traffic (issue 66): 7 days of steady traffic as one app with the
# standard catalog (`simulate --rate 100`, the baseline, measured in the same run) and as ten apps with
# the wide catalog (`simulate --rate 10 --app com.example.appN --catalog wide`, N = 1…10, concatenated).
# For each: `ingest` (time, events/s, peak RSS), the events counted under __other__ (as ingest reports
# them), the database's size, `alerts --at` and `render --at` (whole command, median of 3, peak RSS), and
# the ratios of ten apps to one. Prints a Markdown table for docs/benchmarks.md.
# Usage: [BIN=path] bash bench/many-apps.sh      (BENCH_DIR: where the files go, default /tmp/purchase-sli-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-/tmp/purchase-sli-bench}/many-apps
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
at=2026-11-15T12:00:00Z

if [ ! -s "$work/one.ndjson" ]; then
    "$bin" simulate --scenario steady --days 7 --start 2026-11-09 --rate 100 --seed 1 > "$work/one.ndjson"
fi
if [ ! -s "$work/ten.ndjson" ]; then
    for n in 1 2 3 4 5 6 7 8 9 10; do
        "$bin" simulate --scenario steady --days 7 --start 2026-11-09 --rate 10 --seed "$n" --app "com.example.app$n" --catalog wide
    done > "$work/ten.ndjson"
fi
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); one app: $(wc -l < "$work/one.ndjson") lines, ten apps: $(wc -l < "$work/ten.ndjson") lines"

median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
# Runs a command, printing "milliseconds peak-RSS-in-MB".
measure() {
    local start
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time.txt" "$@" >/dev/null
    echo "$(( ($(date +%s%N) - start) / 1000000 )) $(( $(cat "$work/time.txt") / 1024 ))"
}
# The median time of three runs, and the largest peak RSS.
measure3() {
    local runs
    runs=$(for _ in 1 2 3; do measure "$@"; done)
    echo "$(awk '{print $1}' <<< "$runs" | median) $(awk '{print $2}' <<< "$runs" | sort -n | tail -1)"
}

declare -A result
for case in one ten; do
    db="$work/$case.sqlite"
    rm -f "$db" "$db"-*
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time.txt" "$bin" ingest --db "$db" "$work/$case.ndjson" > "$work/ingest-$case.txt"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    accepted=$(awk '/^accepted/{print $2}' "$work/ingest-$case.txt")
    result[$case.ingest]="$ms"
    result[$case.rate]=$(( accepted * 1000 / ms ))
    result[$case.ingest_rss]=$(( $(cat "$work/time.txt") / 1024 ))
    result[$case.accepted]=$accepted
    result[$case.other]=$(awk '/^overflow/ && $2 == "series:" {s += $3} END{print s + 0}' "$work/ingest-$case.txt")
    result[$case.db]=$(( $(stat -c %s "$db") / 1048576 ))
    read -r result[$case.alerts] result[$case.alerts_rss] < <(measure3 "$bin" alerts --db "$db" --at "$at")
    rm -rf "$work/pages-$case"
    read -r result[$case.render] result[$case.render_rss] < <(measure3 "$bin" render --db "$db" --out "$work/pages-$case" --at "$at")
    echo "$case: $(grep -c . "$work/ingest-$case.txt") lines of ingest output:"
    sed 's/^/    /' "$work/ingest-$case.txt"
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f×", a / b}'; }
echo
echo "| | one app | ten apps, wide | ratio |"
echo "|---|---|---|---|"
echo "| \`ingest\` | ${result[one.ingest]} ms (${result[one.rate]} events/s), ${result[one.ingest_rss]} MB RSS | ${result[ten.ingest]} ms (${result[ten.rate]} events/s), ${result[ten.ingest_rss]} MB RSS | $(ratio "${result[ten.rate]}" "${result[one.rate]}") the rate |"
echo "| events in a series cap's \`__other__\` | ${result[one.other]} of ${result[one.accepted]} | ${result[ten.other]} of ${result[ten.accepted]} | |"
echo "| database | ${result[one.db]} MB | ${result[ten.db]} MB | $(ratio "${result[ten.db]}" "${result[one.db]}") |"
echo "| \`alerts --at $at\` | ${result[one.alerts]} ms, ${result[one.alerts_rss]} MB RSS | ${result[ten.alerts]} ms, ${result[ten.alerts_rss]} MB RSS | $(ratio "${result[ten.alerts]}" "${result[one.alerts]}"), $(ratio "${result[ten.alerts_rss]}" "${result[one.alerts_rss]}") |"
echo "| \`render --at …\` | ${result[one.render]} ms, ${result[one.render_rss]} MB RSS | ${result[ten.render]} ms, ${result[ten.render_rss]} MB RSS | $(ratio "${result[ten.render]}" "${result[one.render]}"), $(ratio "${result[ten.render_rss]}" "${result[one.render_rss]}") |"
