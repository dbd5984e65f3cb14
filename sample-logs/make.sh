#!/usr/bin/env bash
# Remakes the sample logs: one file per scenario, one after another in time, 2 attempts a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product purchase-sli >/dev/null
simulate() { # name start days
    .build/release/purchase-sli simulate --scenario "$1" --start "$2" --days "$3" --rate 2 --seed 7 \
        | gzip -n -9 > "sample-logs/$1.ndjson.gz"
    echo "sample-logs/$1.ndjson.gz: $(gzip -dc "sample-logs/$1.ndjson.gz" | wc -l) events"
}
simulate steady        2026-10-26 3
simulate slow-burn     2026-10-29 3
simulate outage        2026-11-01 3
simulate cancel-spike  2026-11-04 3
simulate renewal-batch 2026-11-07 3
simulate retry-409     2026-11-10 3
simulate rollout       2026-11-13 5
