#!/usr/bin/env bash
# Fuzzes what reads untrusted bytes with libFuzzer and AddressSanitizer: the event framer, parser and
# validator, New Relic and OTLP payloads, App Store notifications up to their certificate chain, Play
# pushes, the serve config file, the dropped-events header, the gzip inflater, RFC 3339 times, query
# arguments, policy and dashboard YAML, OpenSLO documents, maintenance bodies and their RRULEs, and stored
# bucket blobs (the package's own modules instrumented,
# its dependencies built as for the tests: Package.swift). Each target runs for a bounded time,
# as many at once as there are cores, starting from the corpus committed under Tests/Fuzz/Corpus/<target>; what it learns goes to
# .build-fuzz/corpus/<target>, never into the repository. A crash, a trap or a violated property
# (Tests/Fuzz/<target>/<target>.swift says which) keeps its input under .build-fuzz/artifacts and fails
# the script.
#
#   scripts/fuzz.sh                         every target for 60 s
#   scripts/fuzz.sh --seconds 600 EventRecords
#   scripts/fuzz.sh --merge EventRecords    adds what the working corpus covers anew to the committed one
#   scripts/fuzz.sh --build-path .build     builds in the tests' scratch path, reusing their dependencies
#                                           (CI; the next `swift build` compiles the package's modules again)
#   .build-fuzz/debug/FuzzEventRecords .build-fuzz/artifacts/EventRecords-crash-…   replays one input
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(EventRecords GzipInflater RFC3339 QueryArguments PolicyYAML DashboardYAML BucketCodec
    NewRelic OTLP AppStoreJWS GooglePush ConfigFile DroppedEventsHeader MaintenanceBody OpenSLO RecurrenceRule)
seconds=60
merge=false
build=.build-fuzz
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --merge) merge=true; shift ;;
        --build-path) build=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | cut -c3-; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1 (expected --seconds N, --merge, --build-path DIR or target names)" >&2; exit 2 ;;
        *)
            if [[ " ${all_targets[*]} " != *" $1 "* ]]; then
                echo "fuzz.sh: unknown target $1; expected one of: ${all_targets[*]}" >&2
                exit 2
            fi
            targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# The longest input each target is given: a record, a policy file or a bucket is rarely longer.
max_length() {
    case "$1" in
        RFC3339|DroppedEventsHeader) echo 64 ;;
        RecurrenceRule) echo 320 ;;
        QueryArguments) echo 512 ;;
        BucketCodec) echo 2048 ;;
        OpenSLO) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

scratch=.build-fuzz
for target in "${targets[@]}"; do
    PURCHASE_SLI_FUZZ=1 swift build --scratch-path "$build" --product "Fuzz$target" 2>&1 \
        | grep -E "error:|warning: no .async.|Build of product" | sort -u || true
    test -x "$build/debug/Fuzz$target" || { echo "fuzz.sh: Fuzz$target did not build" >&2; exit 1; }
done

# Swift's own backtracer reads the stack in a way AddressSanitizer reports as a fault of its own;
# libFuzzer prints the stack of a crash itself.
export SWIFT_BACKTRACE=enable=no
mkdir -p "$scratch/artifacts"
# One target's run: its log, and one line of summary in "$scratch/artifacts/$target.summary" (ok or FAILED).
fuzz_one() {
    local target=$1 seeds="Tests/Fuzz/Corpus/$1" work="$scratch/corpus/$1" log="$scratch/artifacts/$1.log"
    if "$build/debug/Fuzz$target" -max_total_time="$seconds" -max_len="$(max_length "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" \
        "$work" "$seeds" > "$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
        printf '%-15s %10s runs  corpus %5s inputs  ok\n' "$target" "$runs" "$(ls "$work" | wc -l)" > "$scratch/artifacts/$target.summary"
    else
        artifact=$(grep -o "Test unit written to .*" "$log" | sed 's/Test unit written to //' | tail -1)
        grep -E "Fatal error|ERROR: |SUMMARY" "$log" | head -5
        printf '%-15s FAILED: input %s (log %s)\n' "$target" "${artifact:-?}" "$log" > "$scratch/artifacts/$target.summary"
    fi
}
# As many targets at once as there are cores: each fuzzer runs on one.
jobs=$(nproc)
for target in "${targets[@]}"; do
    seeds="Tests/Fuzz/Corpus/$target"
    mkdir -p "$scratch/corpus/$target" "$seeds"
    if $merge; then
        "$build/debug/Fuzz$target" -merge=1 -max_len="$(max_length "$target")" "$seeds" "$scratch/corpus/$target" 2>&1 | tail -1
        continue
    fi
    rm -f "$scratch/artifacts/$target.summary"
    echo "== $target: ${seconds} s, from $(ls "$seeds" | wc -l) committed inputs"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_one "$target" &
done
wait
$merge && exit 0

echo
failed=()
for target in "${targets[@]}"; do
    cat "$scratch/artifacts/$target.summary" 2>/dev/null || echo "$target: no summary (the run did not end)"
    grep -q ' ok$' "$scratch/artifacts/$target.summary" 2>/dev/null || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "replay an input with: $build/debug/Fuzz<target> INPUT; make it a regression test" >&2
    exit 1
fi
