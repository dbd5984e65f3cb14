#!/usr/bin/env bash
# Browser check of the dashboards: renders the sample logs' pages and loads each in headless Chromium,
# failing on any console error (a Content-Security-Policy violation included) or any network request
# other than the page's own file, and saving a screenshot of each page light, dark and on a phone.
#
# Usage: bash scripts/browser-check.sh [OUT_DIR]          (default OUT_DIR: out/browser-check)
#   OUT_DIR/<set>/*.html         the rendered pages
#   OUT_DIR/screenshots/*.png    <set>-<page>-<light|dark|phone>.png, full page
#
# Three sets of pages, all from sample-logs/*.ndjson.gz and the App Store notifications of sample-logs/store/
# ingested into a temporary database:
#   rollout  --at 2026-11-18 --range 7d             the phased release of 4.12.0 (a ROLL BACK verdict)
#   outage   --at 2026-11-02T18:40:00Z --range 3d   the verification outage paging, bands on the charts
#   detour   --at 2026-11-19T18:00:00Z --range 1d   the payment detour: charges not granted, the reconciliation panel
#
# The binary is $PURCHASE_SLI when set (the test that runs this script passes the debug binary `swift test`
# built, so CI builds nothing twice), else .build/debug/purchase-sli, built when missing. Chromium is
# $CHROMIUM or `chromium` on PATH (Debian: apt-get install chromium; .ci/run installs it).
#
# How requests and console messages are seen: scripts/browser_check.py drives Chromium over the DevTools
# protocol (its header says more): every request the page starts and every console message is an event,
# and host names resolve to nothing, so nothing can leave the machine even if a page asked.
# Exit status: 0 every page clean, 1 a page failed a check, 2 something else went wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/browser-check}
bin=${PURCHASE_SLI:-.build/debug/purchase-sli}
if [ ! -x "$bin" ]; then
    swift build --product purchase-sli >/dev/null
    bin=.build/debug/purchase-sli
fi
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
    echo "browser check: no chromium on PATH (Debian: apt-get install chromium)" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" ingest --quiet --db "$work/sample.sqlite" sample-logs/*.ndjson.gz >/dev/null
"$bin" ingest-store --db "$work/sample.sqlite" --apple-root-ca sample-logs/store/apple-test-root.pem \
    --apple-bundle-id com.example.purchasesli sample-logs/store/apple-notifications.ndjson.gz >/dev/null

rm -rf "$out"
mkdir -p "$out/screenshots"
status=0
check() { # set --at T --range R: renders the set into OUT_DIR/set and checks its pages
    local set=$1
    shift
    "$bin" render --db "$work/sample.sqlite" --dashboards dashboards --out "$out/$set" "$@" >/dev/null
    local result=0
    python3 scripts/browser_check.py --chromium "$chromium" --screenshots "$out/screenshots" --prefix "$set-" \
        "$out/$set"/*.html || result=$?
    if [ "$result" -gt "$status" ]; then status=$result; fi
}
check rollout --at 2026-11-18 --range 7d
check outage --at 2026-11-02T18:40:00Z --range 3d
check detour --at 2026-11-19T18:00:00Z --range 1d
exit $status
