#!/usr/bin/env bash
# Soak of `purchase-sli serve`: SOAK_SECONDS (default 3600) at a steady RATE of events/s (default 2000,
# batches of 200 stamped with the current time, bench/soak-client.py) with 5 % of the batches re-sent
# later (all duplicates), a reader querying /v1/query and /metrics every 10 s, pruning every minute,
# and the ingest key rotated every ROTATE_SECONDS (default 1200) by a restart with the next key (the
# client keeps re-sending a batch until it is acknowledged, so a restart loses nothing; serve reads its
# key files only at start). Samples every minute: the server's RSS, WAL and database size, the dedup
# memory (eventIDs and seconds kept), and the pending rows. At the end it checks that the database holds
# exactly the events acknowledged as accepted, and that every re-sent batch came back all duplicates.
# Usage: SOAK_SECONDS=3600 RATE=2000 [BIN=path] bash bench/soak.sh    (results in $BENCH_DIR/soak.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SOAK_SECONDS:-3600}
rate=${RATE:-2000}
rotate=${ROTATE_SECONDS:-1200}
port=${PORT:-18183}
work=${BENCH_DIR:-/tmp/purchase-sli-soak}
rm -rf "$work" && mkdir -p "$work"
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3 >/dev/null; }
if [ -z "${BIN:-}" ]; then swift build -c release --product purchase-sli >/dev/null; fi
bin=${BIN:-.build/release/purchase-sli}
db="$work/soak.sqlite"
echo '{"pruneEvery": "1m"}' > "$work/config.json"

key_number=1
echo "soak-key-1" > "$work/client-key"
echo "soak-key-1" > "$work/ingest-keys"
start_server() {
    "$bin" serve --db "$db" --port "$port" --config "$work/config.json" --ingest-keys "$work/ingest-keys" \
        2>> "$work/serve.log" &
    server=$!
    until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.2; done
}
# Rotation: the keys file lists the current and the next key, serve restarts on it, the client
# switches to the next key; the old one goes at the following rotation.
rotate_key() {
    local next=$((key_number + 1))
    printf 'soak-key-%d\nsoak-key-%d\n' "$key_number" "$next" > "$work/ingest-keys"
    kill -TERM "$server" && wait "$server" || true
    start_server
    echo "soak-key-$next" > "$work/client-key"
    key_number=$next
    echo "$(date -u +%H:%M:%S) rotated to soak-key-$next (restart)" >> "$work/events.log"
}

start_server
python3 bench/soak-client.py "http://127.0.0.1:$port/v1/events" "$work/client-key" "$rate" 200 5 "$work/totals.json" &
client=$!
( while true; do
      curl -sf "http://127.0.0.1:$port/v1/query?from=now-1h&to=now&by=productID,resultType&step=1m" >/dev/null \
          || echo "$(date -u +%H:%M:%S) query failed" >> "$work/events.log"
      curl -sf "http://127.0.0.1:$port/metrics" >/dev/null || true
      sleep 10
  done ) &
reader=$!
trap 'kill $client $reader $server 2>/dev/null || true' EXIT

echo "minute,rss_mb,wal_mb,db_mb,dedup_event_ids,dedup_seconds,pending_rollup_rows,pending_event_ids,accepted_total" > "$work/soak.csv"
began=$(date +%s)
next_rotation=$((began + rotate))
minute=0
while [ $(( $(date +%s) - began )) -lt "$seconds" ]; do
    sleep 60
    minute=$((minute + 1))
    if [ "$(date +%s)" -ge "$next_rotation" ] && [ $(( $(date +%s) - began + 60 )) -lt "$seconds" ]; then
        rotate_key
        next_rotation=$((next_rotation + rotate))
    fi
    metrics=$(curl -sf "http://127.0.0.1:$port/metrics" || true)
    metric() { awk -v name="$1" '$1 == name {printf "%d", $2}' <<<"$metrics"; }
    pending=$(sqlite3 -readonly "$db" \
        "SELECT (SELECT count(*) FROM rollup_pending) || ',' || (SELECT coalesce(sum(length(keys)), 0) / 16 FROM seen_pending)" \
        2>/dev/null || echo "?,?")
    printf '%d,%d,%d,%d,%s,%s,%s,%s\n' "$minute" \
        "$(awk '/VmRSS/{print int($2/1024)}' /proc/$server/status)" \
        "$(( $(stat -c %s "$db-wal" 2>/dev/null || echo 0) / 1048576 ))" "$(( $(stat -c %s "$db") / 1048576 ))" \
        "$(metric purchase_sli_dedup_event_ids)" "$(metric purchase_sli_dedup_seconds)" "$pending" \
        "$(metric purchase_sli_events_accepted_total)" >> "$work/soak.csv"
done
kill -TERM $client && wait $client || true
kill $reader 2>/dev/null || true
kill -TERM $server && wait $server && echo "serve exited 0 after SIGTERM"

counted=$("$bin" query --db "$db" --from 2020-01-01 --to "$(date -u -d '+2 days' +%Y-%m-%d)" --format csv \
    | awk -F, 'NR==2{print $2} END{if (NR<2) print 0}')
python3 - "$work/totals.json" "$counted" "$work/soak.csv" "$seconds" <<'PY'
import csv, json, sys
totals, counted = json.load(open(sys.argv[1])), int(sys.argv[2])
rows = list(csv.DictReader(open(sys.argv[3])))
print(f"{int(sys.argv[4])} s: {totals['requests']} requests, {totals['accepted']} events accepted, "
      f"{totals['duplicates']} duplicates, {totals['rejected']} rejected, {totals['retries']} retries (restarts)")
print(f"re-sent batches: {totals['resent_batches']}, events counted again from them: {totals['resent_not_duplicate']}")
print(f"in the database: {counted} = accepted: {counted == totals['accepted']}")
for column in ["rss_mb", "wal_mb", "db_mb", "dedup_event_ids", "pending_rollup_rows", "pending_event_ids"]:
    values = [int(row[column]) for row in rows if row[column] not in ("", "?")]
    if values:
        print(f"{column}: first {values[0]}, max {max(values)}, last {values[-1]}; every 10 min: "
              + " ".join(str(value) for value in values[9::10]))
PY
cat "$work/events.log" 2>/dev/null || true
