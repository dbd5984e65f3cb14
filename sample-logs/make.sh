#!/usr/bin/env bash
# Remakes the sample logs: one file per scenario, one after another in time, 2 attempts a minute; the
# last one also has the App Store's notification of each charge (store/, signed by a test chain made
# anew each time: its root is store/apple-test-root.pem).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product purchase-sli >/dev/null
simulate() { # name start days [simulate options]
    local name=$1 start=$2 days=$3
    shift 3
    .build/release/purchase-sli simulate --scenario "$name" --start "$start" --days "$days" --rate 2 --seed 7 "$@" \
        | gzip -n -9 > "sample-logs/$name.ndjson.gz"
    echo "sample-logs/$name.ndjson.gz: $(gzip -dc "sample-logs/$name.ndjson.gz" | wc -l) events"
}
simulate double-grant  2026-10-24 2
simulate steady        2026-10-26 3
simulate slow-burn     2026-10-29 3
simulate outage        2026-11-01 3
simulate cancel-spike  2026-11-04 3
simulate renewal-batch 2026-11-07 3
simulate retry-409     2026-11-10 3
simulate rollout       2026-11-13 5
rm -rf sample-logs/store
simulate paymentdetour 2026-11-18 2 --store-notifications sample-logs/store 2>/dev/null
gzip -n -9 sample-logs/store/apple-notifications.ndjson
echo "sample-logs/store/apple-notifications.ndjson.gz: $(gzip -dc sample-logs/store/apple-notifications.ndjson.gz | wc -l) notifications"
