#!/usr/bin/env bash
# Decoding cost of the other formats against the event format's: the same simulated events written as
# NDJSON (the baseline, measured in the same run), as New Relic Event API objects and as OTLP/HTTP JSON
# logs (JSON Lines of exports of 100 records), each ingested into a new database three times.
# Usage: bash bench/formats.sh [attempts-per-minute]   (BIN=path uses that build instead of building this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-30}
work=${BENCH_DIR:-/tmp/purchase-sli-bench-formats}
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)"
"$bin" simulate --scenario steady --days 2 --start 2026-11-09 --rate "$rate" --seed 1 > "$work/events.ndjson"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
events = [json.loads(line) for line in open(f"{work}/events.ndjson")]
with open(f"{work}/events.newrelic", "w") as out:
    for event in events:
        out.write(json.dumps({"eventType": "PurchaseSLI", **event}) + "\n")
def any_value(value):
    if isinstance(value, bool): return {"boolValue": value}
    if isinstance(value, int): return {"intValue": str(value)}
    if isinstance(value, float): return {"doubleValue": value}
    return {"stringValue": str(value)}
with open(f"{work}/events.otlp", "w") as out:
    for start in range(0, len(events), 100):
        records = [{"eventName": "purchase_sli",
                    "attributes": [{"key": key, "value": any_value(value)} for key, value in event.items()]}
                   for event in events[start:start + 100]]
        out.write(json.dumps({"resourceLogs": [{"resource": {"attributes": []}, "scopeLogs": [{"logRecords": records}]}]}) + "\n")
PY
echo "events: $(wc -l < "$work/events.ndjson"); files: $(du -m "$work/events.ndjson" | cut -f1) MB NDJSON, $(du -m "$work/events.newrelic" | cut -f1) MB New Relic, $(du -m "$work/events.otlp" | cut -f1) MB OTLP"
sync

# rate FORMAT FILE: the median events/s of three ingests into a new database, and the last run's peak RSS.
rate_of() {
    local output rates=()
    for _ in 1 2 3; do
        rm -f "$work/db.sqlite" "$work/db.sqlite-wal" "$work/db.sqlite-shm"
        output=$( { /usr/bin/time -f "rss_kb=%M" "$bin" ingest --db "$work/db.sqlite" --format "$1" "$2"; } 2>&1 )
        rates+=("$(grep -o '[0-9]* events/s' <<<"$output" | cut -d' ' -f1)")
    done
    echo "$(printf '%s\n' "${rates[@]}" | sort -n | sed -n 2p) $(( $(grep -o 'rss_kb=[0-9]*' <<<"$output" | cut -d= -f2) / 1024 ))"
}

read -r baseline baseline_rss < <(rate_of events "$work/events.ndjson")
printf '%-28s %9s events/s   peak RSS %4s MB   (baseline)\n' "event format (NDJSON)" "$baseline" "$baseline_rss"
for format in newrelic otlp; do
    read -r measured rss < <(rate_of "$format" "$work/events.$format")
    printf '%-28s %9s events/s   peak RSS %4s MB   %s of the baseline\n' "$format" "$measured" "$rss" \
        "$(python3 -c "print(f'{$measured / $baseline:.2f}x')")"
done
