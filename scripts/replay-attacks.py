#!/usr/bin/env python3
"""Replays the attacks of the hardening round (issue 30) against a running `purchase-sli serve` and
prints one line per case: what was sent, what came back, ok or FAIL. It starts the service itself on a
temporary directory, with an App Store bundle (trusting the simulator's test root), a Play package and
push token, and a pages directory; after the cases it checks the service still answers.

    scripts/replay-attacks.py --binary .build/release/purchase-sli

Exits 1 when any case fails. Standard library only."""

import argparse
import base64
import gzip
import http.server
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

BUNDLE = "com.example.purchasesli"
PACKAGE = "com.example.app"
TOKEN = "replay-push-token"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the purchase-sli executable")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="replay-attacks-") as work:
        replay = Replay(os.path.abspath(args.binary), work)
        try:
            replay.start()
            replay.run_all()
        finally:
            replay.stop()
    print(f"\n{replay.passed} ok, {len(replay.failed)} failed" + (": " + ", ".join(replay.failed) if replay.failed else ""))
    sys.exit(1 if replay.failed else 0)


class Replay:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work
        self.database = os.path.join(work, "replay.sqlite")
        self.passed, self.failed = 0, []
        self.process = None

    # The service

    def start(self):
        store = os.path.join(self.work, "store")
        subprocess.run([self.binary, "simulate", "--scenario", "steady", "--days", "1", "--rate", "0.05", "--store-notifications", store],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(os.path.join(store, "apple-notifications.ndjson")) as lines:
            self.apple_body = next(line for line in lines if line.strip()).strip()
        tokens = os.path.join(self.work, "push-tokens.txt")
        with open(tokens, "w") as file:
            file.write(TOKEN + "\n")
        self.pages = os.path.join(self.work, "pages")
        os.makedirs(self.pages)
        with open(os.path.join(self.pages, "index.html"), "w") as file:
            file.write("<!DOCTYPE html><title>replay</title>" + "x" * 5000)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = open(os.path.join(self.work, "serve.log"), "w")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--db", self.database, "--port", str(self.port), "--apple-bundle-id", BUNDLE,
             "--apple-root-ca", os.path.join(store, "apple-test-root.pem"), "--google-package", PACKAGE,
             "--google-push-tokens", tokens, "--out", self.pages],
            stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if self.process.poll() is not None:
                sys.exit(f"serve exited at start with {self.process.returncode}; see {self.log.name}")
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        sys.exit("serve did not answer /healthz within 30 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers, body text) of one request."""
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode(errors="replace")

    def check(self, name, condition, detail):
        if condition:
            self.passed += 1
            print(f"ok    {name}: {detail}")
        else:
            self.failed.append(name)
            print(f"FAIL  {name}: {detail}")

    def expect(self, name, method, path, body=None, headers=None, status=None, contains=None, absent=None):
        code, _, text = self.request(method, path, body, headers)
        detail = f"{code} {text[:140]!r}"
        ok = (status is None or code == status) and (contains is None or contains in text) and (absent is None or absent not in text)
        self.check(name, ok, detail + ("" if ok else f" (expected {status}" + (f" with {contains!r}" if contains else "") + ")"))
        return code, text

    def alive(self, name):
        started = time.monotonic()
        code, _, _ = self.request("GET", "/healthz", timeout=10)
        seconds = time.monotonic() - started
        self.check(name, code == 200 and self.process.poll() is None and seconds < 5, f"/healthz {code} in {seconds:.2f} s")

    # The cases, in the order

    def run_all(self):
        for case in [self.jws_dates, self.event_limits, self.config_rates, self.prices, self.claimed_ids, self.dropped_header,
                     self.cpu_and_memory, self.postgres_urls, self.smaller, self.outbound_redirects]:
            case()
        self.alive("serve still up after every case")

    def apple(self, change_payload=None, change_header=None):
        token = json.loads(self.apple_body)["signedPayload"]
        header, payload, signature = token.split(".")
        if change_header:
            header = b64url(change_header(unb64url(header).decode()).encode())
        if change_payload:
            payload = b64url(change_payload(unb64url(payload).decode()).encode())
        return json.dumps({"signedPayload": ".".join([header, payload, signature])})

    def jws_dates(self):
        """1. A payload date outside what a certificate's validity can be checked at, before any signature."""
        path = "/v1/stores/apple/notifications"
        for name, value in [("past year 9999", "253402300800000"), ("Int64.min", "-9223372036854775808")]:
            body = self.apple(lambda text: replace_signed_date(text, value))
            self.expect(f"1 App Store signedDate {name}", "POST", path, body, status=400, contains="signedDate")
        self.expect("1 App Store JWS with crit", "POST", path, self.apple(change_header=lambda h: h.replace('{"alg"', '{"crit":["x"],"x":1,"alg"')),
                    status=401, contains="crit")
        self.expect("1 App Store notification as sent", "POST", path, self.apple_body, status=200, contains="accepted")
        self.alive("1 serve up")

    def event_limits(self):
        """2. More records than maximumEventsPerRequest (1000) in one body, on every route."""
        # Records that differ, so that gzip's ratio stays under the service's limit (100x).
        otlp = json.dumps({"resourceLogs": [{"scopeLogs": [{"logRecords": [{"severityNumber": i} for i in range(1001)]}]}]})
        nr = json.dumps([{"eventType": "PurchaseSLI", "n": i} for i in range(1001)])
        events = json.dumps([{"eventID": f"l{i}", "productID": "p", "actionType": "purchase", "resultType": "start"} for i in range(1001)])
        for route, body, kind in [("/v1/logs", otlp, "OTLP"), ("/v1/accounts/1/events", nr, "New Relic"), ("/v1/events", events, "events")]:
            for compressed in [False, True]:
                headers = {"Content-Type": "application/json"}
                data = body.encode()
                if compressed:
                    headers["Content-Encoding"] = "gzip"
                    data = gzip.compress(data)
                self.expect(f"2 {kind} 1001 records{' gzip' if compressed else ''}", "POST", route, data, headers, status=413,
                            contains="more than 1000 events")
        self.alive("2 serve up")

    def config_rates(self):
        """3. Rates so small that a Retry-After overflowed: refused at start."""
        for key in ["requestsPerSecondPerKey", "readRequestsPerSecond"]:
            config = os.path.join(self.work, f"{key}.json")
            with open(config, "w") as file:
                json.dump({key: 1e-300}, file)
            result = subprocess.run([self.binary, "serve", "--config", config, "--db", os.path.join(self.work, "other.sqlite"), "--port", "0"],
                                    capture_output=True, text=True, timeout=60)
            self.check(f"3 config {key} 1e-300", result.returncode != 0 and key in result.stderr,
                       f"exit {result.returncode}: {result.stderr.strip()[:140]!r}")

    def prices(self):
        """4. Prices near Int64.max: left out of the event with a warning naming the field, so no output formats one."""
        event = {"eventID": "price-1", "timestamp": rfc3339(time.time() - 60), "productID": "coins_100", "actionType": "purchase",
                 "resultType": "success", "price": 9.2e18, "currency": "USD"}
        self.expect("4 price 9.2e18 left out with a warning", "POST", "/v1/events", json.dumps(event), {"Content-Type": "application/json"},
                    status=202, contains='"warnings":[{"index":0,"field":"price"')
        result = subprocess.run([self.binary, "alerts", "--db", self.database], capture_output=True, text=True, timeout=120)
        self.check("4 alerts on the store", result.returncode in (0, 1), f"exit {result.returncode}")

    def claimed_ids(self):
        """5. Events sent first under the computed id of another's record; a record without id and time retried."""
        claim = "\n".join(json.dumps({"eventID": f"purchase-sli:sha256:{i:032x}", "productID": "claim_me", "actionType": "purchase",
                                      "resultType": "success"}) for i in range(240))
        self.expect("5 240 events claiming computed ids", "POST", "/v1/events", claim, {"Content-Type": "application/x-ndjson"},
                    status=400, contains="reserved for the ids purchase-sli computes")
        failing = json.dumps([{"eventType": "PurchaseSLI", "productID": "claim_me", "actionType": "purchase", "resultType": "failure",
                               "errorDescription": "receipt lost"}])
        answers = []
        for attempt in range(5):
            if attempt == 1:
                time.sleep(1.5)
            code, _, text = self.request("POST", "/v1/accounts/1/events", failing, {"Content-Type": "application/json"})
            answers.append((code, json.loads(text).get("accepted"), json.loads(text).get("duplicates")))
        self.check("5 a record without id and time sent 5 times over 1.5 s", answers == [(200, 1, 0)] + [(200, 0, 1)] * 4, f"{answers}")
        code, _, text = self.request("GET", f"/v1/query?from=now-1h&to={rfc3339(time.time() + 3600)}&where=productID=claim_me")
        rows = json.loads(text).get("rows", []) if code == 200 else []
        counts = rows[0] if rows else {}
        self.check("5 counts exact", counts.get("failure") == 1 and counts.get("success", 0) == 0, f"{code} {counts}")

    def dropped_header(self):
        """6. A client claiming a billion dropped events."""
        line = json.dumps({"eventID": "drop-1", "productID": "p", "actionType": "purchase", "resultType": "start"})
        self.expect("6 X-Purchase-SLI-Dropped-Events 1000000000", "POST", "/v1/events", line,
                    {"Content-Type": "application/x-ndjson", "X-Purchase-SLI-Dropped-Events": "1000000000"}, status=400,
                    contains="from 0 to 10000")

    def cpu_and_memory(self):
        """7. Deep nesting, unread large bodies on the store routes, many concurrent large reads."""
        deep = "[" + ",".join(json.dumps({"eventType": "PurchaseSLI", "x": json.loads("[" * 500 + "]" * 500)}) for _ in range(20)) + "]"
        results = []
        threads = [threading.Thread(target=lambda: results.append(self.request("POST", "/v1/accounts/1/events", deep,
                                                                               {"Content-Type": "application/json"})[0])) for _ in range(2)]
        for thread in threads:
            thread.start()
        self.alive("7 /healthz while two 22 KB deeply nested bodies are decoded")
        for thread in threads:
            thread.join()
        self.check("7 deeply nested New Relic records refused", results == [400, 400], f"{results}")
        big = b"x" * (2 << 20)
        for route in ["/v1/stores/apple/notifications", f"/v1/stores/google/notifications?token={TOKEN}"]:
            self.expect(f"7 2 MB body to {route.split('?')[0]}", "POST", route, big, {"Content-Type": "application/json"}, status=413)
        # Tokens refill at 50 a second while the requests go, so how many pass depends on this machine's speed.
        served = 0
        while served < 5000 and self.request("POST", "/v1/stores/google/notifications", "{}")[0] != 429:
            served += 1
        self.check("7 store route rate limit per address", 500 <= served < 5000, f"first 429 after {served} requests")
        codes = []
        threads = [threading.Thread(target=lambda: codes.append(self.request("GET", "/v1/query?from=2025-01-01&to=now&step=1m")[0]))
                   for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.check("7 at most 4 reads in progress per address", set(codes) <= {200, 400, 429}, f"{sorted(codes)}")

    def postgres_urls(self):
        """8. A PostgreSQL password never printed, whatever the URL's spelling."""
        for url in ["Postgres://u:SECRETPW@127.0.0.1/db", "POSTGRES://u:SECRETPW@127.0.0.1/db", "postgres:/u:SECRETPW@127.0.0.1/db",
                    "postgres://u@127.0.0.1/db?password=SECRETPW"]:
            result = subprocess.run([self.binary, "query", "--db", url, "--from", "now-1h", "--to", "now"], capture_output=True, text=True, timeout=60)
            self.check(f"8 --db {url.replace('SECRETPW', '…')}", result.returncode != 0 and "SECRETPW" not in result.stdout + result.stderr,
                       f"exit {result.returncode}: {result.stderr.strip()[:120]!r}")

    def smaller(self):
        """9. The smaller findings."""
        result = subprocess.run([self.binary, "charges", "--db", self.database, "--from", "now-1d", "--to", "now"],
                                capture_output=True, text=True, timeout=60)
        self.check("9 charges --from now-1d", result.returncode == 0, f"exit {result.returncode}: {(result.stdout + result.stderr).strip()[:100]!r}")
        data = base64.b64encode(json.dumps({"version": "1.0", "packageName": PACKAGE, "eventTimeMillis": "1795168960000",
                                            "oneTimeProductNotification": {"notificationType": 1, "purchaseToken": "t1",
                                                                           "sku": "coins\u0000_100"}}).encode()).decode()
        push = json.dumps({"message": {"data": data, "messageId": "42"}, "subscription": "s"})
        self.expect("9 NUL in a Play sku", "POST", f"/v1/stores/google/notifications?token={TOKEN}", push, status=400,
                    contains="must not contain control characters")
        other = base64.b64encode(json.dumps({"packageName": "com.other.app", "eventTimeMillis": "1"}).encode()).decode()
        self.expect("9 another app's notification names no configured package", "POST", f"/v1/stores/google/notifications?token={TOKEN}",
                    json.dumps({"message": {"data": other, "messageId": "43"}}), status=403, absent=PACKAGE)
        code, headers, text = self.request("GET", "/index.html", headers={"Range": "bytes=99999-"})
        self.check("9 Range past the end", code == 200 and len(text) > 5000 and headers.get("Accept-Ranges") == "none", f"{code}, {len(text)} bytes")
        self.expect("9 /metrics names the routes", "GET", "/metrics", status=200, contains='route="/v1/logs"')
        with sqlite3.connect(self.database) as db:
            for table in ["bucket_minute", "bucket_hour", "bucket_day"]:
                db.execute(f"UPDATE {table} SET series_counts = x'010305'")
        self.expect("9 query over a damaged bucket", "GET", f"/v1/query?from=now-1d&to={rfc3339(time.time() + 3600)}&step=1m", status=500,
                    contains="the database is damaged")


    def outbound_redirects(self):
        """Issue 60, item 4: no outbound call follows a redirect or sends its credentials to another origin, and
        make-whole settles a charge only on the documented answer (a 2xx whose JSON names the transaction)."""
        store = os.path.join(self.work, "store")
        database = os.path.join(self.work, "make-whole.sqlite")
        # The simulated App Store charges without their events: every one is owed (not granted).
        subprocess.run([self.binary, "ingest-store", "--db", database, "--apple-bundle-id", BUNDLE, "--apple-root-ca",
                        os.path.join(store, "apple-test-root.pem"), os.path.join(store, "apple-notifications.ndjson")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        window = ["--db", database, "--from", "2020-01-01", "--to", rfc3339(time.time() + 86400), "--attempts", "1"]
        other, other_seen = loopback_server(lambda handler: (201, {"Content-Type": "application/json"}, b'{"transactionID":"any"}'))
        try:
            for status in [301, 302, 303, 307, 308]:
                target = f"http://127.0.0.1:{other.server_port}"
                redirecting, seen = loopback_server(lambda handler, status=status: (status, {"Location": target + handler.path}, b""))
                try:
                    url = f"http://127.0.0.1:{redirecting.server_port}/grants"
                    dry = subprocess.run([self.binary, "make-whole", *window, "--url", url, "--dry-run"], capture_output=True, text=True, timeout=60)
                    self.check(f"60.4 make-whole --dry-run, grant server answering {status}", dry.returncode == 0 and not seen,
                               f"exit {dry.returncode}, {len(seen)} requests: {dry.stdout.strip().splitlines()[-1:]!r}")
                    sent = subprocess.run([self.binary, "make-whole", *window, "--url", url], capture_output=True, text=True, timeout=120)
                    output = sent.stdout + sent.stderr
                    self.check(f"60.4 make-whole --url answering {status}: not delivered, no request to the redirect's target",
                               sent.returncode == 1 and f"answered {status} (redirect to {target}/…): redirects are not followed" in output
                               and " 0 taken" in output and seen and not other_seen,
                               f"exit {sent.returncode}, {len(seen)} posts, {len(other_seen)} at the target: {output.strip().splitlines()[-1:]!r}")
                    again = subprocess.run([self.binary, "make-whole", *window, "--url", url, "--dry-run"], capture_output=True, text=True, timeout=60)
                    self.check(f"60.4 after {status} every charge is still owed", "earlier: failed" in again.stdout and "would post again" in again.stdout
                               and "delivered" not in again.stdout, f"{again.stdout.strip().splitlines()[-1:]!r}")
                    alerts = subprocess.run([self.binary, "alerts", "--db", self.database, "--notify", f"http://127.0.0.1:{redirecting.server_port}/api/v2/alerts"],
                                            capture_output=True, text=True, timeout=120)
                    self.check(f"60.4 alerts --notify to Alertmanager answering {status}: not delivered",
                               alerts.returncode != 0 and "redirects are not followed" in alerts.stderr and not other_seen,
                               f"exit {alerts.returncode}: {alerts.stderr.strip()[-140:]!r}")
                finally:
                    redirecting.shutdown()
            for body in [b"", b"{}", b"<html>captive portal</html>", b'{"transactionID":"someone-else"}']:
                empty, _ = loopback_server(lambda handler, body=body: (200, {"Content-Type": "application/json"}, body))
                try:
                    sent = subprocess.run([self.binary, "make-whole", *window, "--url", f"http://127.0.0.1:{empty.server_port}/grants"],
                                          capture_output=True, text=True, timeout=120)
                    output = sent.stdout + sent.stderr
                    self.check(f"60.4 make-whole: a 200 with body {body[:30]!r} settles nothing",
                               sent.returncode == 1 and "without naming the transaction" in output and " 0 taken" in output,
                               f"exit {sent.returncode}: {output.strip().splitlines()[-1:]!r}")
                finally:
                    empty.shutdown()
        finally:
            other.shutdown()


def loopback_server(answer):
    """A threaded HTTP server on a free loopback port answering every request with answer(handler) -> (status,
    headers, body); returns it (shut it down after) and the list of (method, path, headers) it was sent."""
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            seen.append((self.command, self.path, dict(self.headers)))
            status, headers, body = answer(self)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer_any

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def rfc3339(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def replace_signed_date(payload, value):
    document = json.loads(payload)
    return json.dumps(document).replace(f'"signedDate": {document["signedDate"]}', f'"signedDate": {value}')


if __name__ == "__main__":
    main()
