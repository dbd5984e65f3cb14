#!/usr/bin/env bash
# The Swift SDK's numbers: how many events/s it queues durably (each `finish` returns once its event is
# synced to disk) by one caller and by many at once, against the baseline of the same run, an emitter
# that appends and fsyncs each event itself; and the bytes per event on disk and on the wire (gzip).
# Nothing is sent (the endpoint is closed and the interval a day): this measures the queue.
# Usage: COUNT=200000 CALLERS=64 bash bench/client-sdk.sh   (QUEUE=dir: where the queue is written)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-200000}
callers=${CALLERS:-64}
queue=${QUEUE:-/tmp/purchase-sli-client-bench}
# PURCHASE_SLI_BENCH adds the benchmark's program to the package (Package.swift): it is no product of it.
PURCHASE_SLI_BENCH=1 swift build -c release --product purchase-sli-client-bench > "${TMPDIR:-/tmp}/client-sdk-build.log" 2>&1 \
    || { cat "${TMPDIR:-/tmp}/client-sdk-build.log"; exit 1; }
rm -rf "$queue"
echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); queue on $(df -P "$(dirname "$queue")" | awk 'NR==2{print $1}')"
.build/release/purchase-sli-client-bench "$queue" "$count" "$callers"
rm -rf "$queue"
