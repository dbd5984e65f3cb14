#!/usr/bin/env python3
"""Replays the attacks of the hardening round (issue 30) against a running `purchase-sli serve` and
prints one line per case: what was sent, what came back, ok or FAIL. It starts the service itself on a
temporary directory, with an App Store bundle (trusting the simulator's test root), a Play package and
push token, and a pages directory; after the cases it checks the service still answers.

    scripts/replay-attacks.py --binary .build/release/purchase-sli

Exits 1 when any case fails. Standard library only."""

import argparse
import base64
import csv
import gzip
import http.client
import http.server
import io
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
import urllib.parse
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

    # The cases, in the issue's order

    def run_all(self):
        for case in [self.jws_dates, self.event_limits, self.config_rates, self.prices, self.claimed_ids, self.dropped_header,
                     self.cpu_and_memory, self.postgres_urls, self.metric_labels, self.forged_rollout, self.grapheme_escaping,
                     self.maintenance_and_inputs, self.charge_write_off, self.incident_acknowledgements, self.outbound_redirects,
                     self.notification_fallbacks, self.rollout_act_redirect, self.invented_apps, self.app_pages,
                     self.smaller]:
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
        # 0 all clear, 2 firing, 3 unknown (docs/commands.md#alerts): a judgement, never an error (1).
        self.check("4 alerts on the store", result.returncode in (0, 2, 3), f"exit {result.returncode}: {result.stderr.strip()[:120]!r}")

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

    def metric_labels(self):
        """Issue 60.1. OTLP records rejected for attributes of 5,000 distinct keys (NUL and U+202E in them): /metrics
        gains one `other` series, not one per key."""
        nanos = str(int((time.time() - 60) * 1e9))
        for batch in range(5):
            records = [{"timeUnixNano": nanos, "eventName": "purchase_sli",
                        "attributes": [{"key": f"k{batch}-{i}\u0000\u202e" + "x" * 300, "value": {"mapValue": 1}}]} for i in range(1000)]
            self.request("POST", "/v1/logs", json.dumps({"resourceLogs": [{"scopeLogs": [{"logRecords": records}]}]}),
                         {"Content-Type": "application/json"})
        code, _, text = self.request("GET", "/metrics")
        labels = sorted({line.split('field="')[1].split('"')[0] for line in text.splitlines()
                         if line.startswith("purchase_sli_events_rejected_total{")})
        self.check("60.1 5,000 distinct rejected OTLP attribute keys", code == 200 and "other" in labels and len(labels) <= 30
                   and "\u202e" not in text and len(text) < 500_000, f"{code}, {len(text)} bytes, field labels {labels}")
        self.alive("60.1 serve up")

    def forged_rollout(self):
        """Issue 60.2. 5,400 events back-dated 3 h with the public ingest key (the candidate half failing, the previous
        version all successes) and a forged newer version, against `serve --rollout-actions live` and a stand-in of
        App Store Connect with 5.0.0 in phased release: nothing is paused; the action awaits a person; the forged
        version is not the candidate; once `rollout confirm` names the action, the next check pauses 5.0.0."""
        asc = FakeAppStoreConnect()
        key = os.path.join(self.work, "asc.p8")
        generated = subprocess.run(f"openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out {key}",
                                   shell=True, capture_output=True, text=True)
        if generated.returncode != 0:
            self.check("60.2 an App Store Connect key made with openssl", False, generated.stderr.strip()[:140])
            return
        keys = os.path.join(self.work, "ingest-keys.txt")
        with open(keys, "w") as file:
            file.write("public-app-key\n")
        database = os.path.join(self.work, "rollout.sqlite")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        arguments = [self.binary, "serve", "--db", database, "--port", str(port), "--ingest-keys", keys, "--rollout-every", "1h",
                     "--rollout-actions", "live", "--asc-key-file", key, "--asc-key-id", "ABC123DEFG", "--asc-issuer-id", "issuer",
                     "--asc-app-id", "123", "--asc-url", asc.url]
        log_path = os.path.join(self.work, "rollout-serve.log")

        def serve_once(work, audited=True):
            """Starts serve (which checks the rollout at once), runs `work(port)`, waits for a check's audit line when
            `audited`, stops it."""
            with open(log_path, "w") as log:
                process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
                try:
                    for _ in range(300):
                        try:
                            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                            break
                        except OSError:
                            time.sleep(0.1)
                    work(port)
                    for _ in range(600 if audited else 0):
                        with open(log_path) as text:
                            if "rollout action" in text.read() or process.poll() is not None:
                                break
                        time.sleep(0.1)
                finally:
                    process.send_signal(signal.SIGTERM)
                    process.wait(timeout=20)
            with open(log_path) as text:
                return text.read()

        def forge(port):
            now = int(time.time()) // 60 * 60
            lines = []
            for index in range(5400):
                seconds = now - 3 * 3600 + index * 2
                version = "4.11.0" if index % 2 == 0 else "5.0.0"
                result = "failure" if version == "5.0.0" and index % 4 == 1 else "success"
                lines.append({"eventID": f"forged-{index}", "timestamp": rfc3339(seconds), "productID": "coins_500", "actionType": "purchase",
                              "resultType": result, "appVersion": version, "platform": "iOS"})
            lines += [{"eventID": f"newer-{index}", "timestamp": rfc3339(now - 3600 + index * 10), "productID": "coins_500",
                       "actionType": "purchase", "resultType": "failure", "appVersion": "9.9.9", "platform": "iOS"} for index in range(300)]
            for start in range(0, len(lines), 1000):
                body = "\n".join(json.dumps(line) for line in lines[start:start + 1000])
                request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/events", data=body.encode(), method="POST",
                                                 headers={"Content-Type": "application/x-ndjson", "X-Ingest-Key": "public-app-key"})
                urllib.request.urlopen(request, timeout=60).read()

        try:
            serve_once(forge, audited=False)
            log = serve_once(lambda port: None)
            self.check("60.2 forged events pause nothing", asc.patches == [], f"PATCHes: {asc.patches}")
            audit = [line for line in log.splitlines() if "rollout action" in line]
            self.check("60.2 the action awaits a person, for the store's release", any("outcome=awaiting-confirmation" in line
                       and "candidate=5.0.0" in line for line in audit) and not any("9.9.9" in line for line in audit),
                       audit[0][:200] if audit else "no audit line")
            ids = [part.split("=", 1)[1] for line in audit for part in line.split() if part.startswith("id=")]
            if not ids:
                return
            confirmed = subprocess.run([self.binary, "rollout", "confirm", ids[0], "--db", database, "--by", "replay"],
                                       capture_output=True, text=True, timeout=60)
            self.check("60.2 rollout confirm ID", confirmed.returncode == 0, (confirmed.stdout + confirmed.stderr).strip()[:140])
            serve_once(lambda port: None)
            self.check("60.2 the confirmed action pauses at the next check", asc.patches == ["pr500"], f"PATCHes: {asc.patches}")
            # Acting on the verdict alone (--rollout-confirm none), the same back-dated bulk still waits for a person.
            asc.patches, asc.state = [], "ACTIVE"
            arguments[arguments.index(database)] = os.path.join(self.work, "rollout-unconfirmed.sqlite")
            arguments += ["--rollout-confirm", "none"]
            serve_once(forge, audited=False)
            log = serve_once(lambda port: None)
            audit = [line for line in log.splitlines() if "rollout action" in line]
            self.check("60.2 --rollout-confirm none: a bulk of back-dated events pauses nothing", asc.patches == [] and any(
                "outcome=awaiting-confirmation" in line and "a bulk: never acted on without a person" in line for line in audit),
                f"PATCHes: {asc.patches}; {audit[0][-220:] if audit else 'no audit line'}")
        finally:
            asc.stop()
    def grapheme_escaping(self):
        """Issue 60, 3. A prepended mark (U+0600) or a combining one (U+0301) joined to a special character makes one
        Swift Character that is not that character: sent with the ingest key (public), such ids must still come out inert
        in the served pages, their CSV files, `query --format csv` and the alerts' Markdown and Slack look-next commands."""
        pwned = os.path.join(self.work, "pwned")
        product = "\u0600<meta http-equiv=refresh content=0;url=https://evil.example/>"
        formula = "=\u0301HYPERLINK(\"https://evil.example\")"
        plans = ["\u0600``\u0600`` $(touch " + pwned + ")", "'\u0301; touch " + pwned + "; '\u0301"]
        now = int(time.time())
        events = []
        # Every purchase of the two products fails over the last 30 minutes, beside ten times as many that succeed:
        # a page for one of the plans, whose alert names it and quotes it in the command to look next.
        for i in range(12000):
            at = now - 1800 + i * 0.15
            fields = {"productID": "coins_100", "planID": "small", "actionType": "purchase"}
            events.append({"eventID": f"grapheme-ok-s{i}", "timestamp": rfc3339(at), "resultType": "start", **fields})
            events.append({"eventID": f"grapheme-ok-f{i}", "timestamp": rfc3339(at + 1), "resultType": "success", **fields})
        for i in range(1200):
            at = now - 1800 + i * 1.5
            fields = {"productID": [product, formula][i % 2], "planID": plans[i // 2 % 2], "actionType": "purchase"}
            events.append({"eventID": f"grapheme-s{i}", "timestamp": rfc3339(at), "resultType": "start", **fields})
            events.append({"eventID": f"grapheme-f{i}", "timestamp": rfc3339(at + 1), "resultType": "failure",
                           "errorDescription": ["-\ufe0f2+3", "@\u0301SUM(1)", "+\u200dSUM(1)", product][i % 4], **fields})
        answers = []
        for start in range(0, len(events), 1000):
            body = "\n".join(json.dumps(event) for event in events[start:start + 1000])
            code, _, text = self.request("POST", "/v1/events", body, {"Content-Type": "application/x-ndjson"})
            answers.append((code, json.loads(text).get("accepted") if code == 202 else text[:100]))
        self.check(f"60.3 post {len(events)} events with joined marks", all(code == 202 for code, _ in answers) and
                   sum(accepted for _, accepted in answers) == len(events), f"{answers[:2]}")
        dashboards = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dashboards")
        result = subprocess.run([self.binary, "render", "--db", self.database, "--dashboards", dashboards, "--out", self.pages, "--range", "1d"],
                                capture_output=True, text=True, timeout=300)
        self.check("60.3 render the pages", result.returncode == 0, f"exit {result.returncode}: {(result.stdout + result.stderr).strip()[:140]!r}")
        code, _, page = self.request("GET", "/oncall.html")
        self.check("60.3 oncall.html shows the <meta> product as text",
                   code == 200 and "\u0600&lt;meta http-equiv=refresh content=0;url=https://evil.example/&gt;" in page
                   and page.count("<meta") == 4, f"{code}, {page.count('<meta')} <meta, {len(page)} chars")
        served = [name for name in sorted(os.listdir(self.pages)) if name.endswith(".csv")]
        cells = []
        for name in served:
            code, _, text = self.request("GET", "/" + name)
            cells += [cell for row in csv.reader(io.StringIO(text)) for cell in row] if code == 200 else [f"={name}: {code}"]
        formulas = [cell for cell in cells if cell[:1] and cell[:1] in "=+-@" and not is_number(cell)]
        self.check("60.3 the pages' CSV files quote every formula", served and any(cell.startswith("'=\u0301HYPERLINK(") for cell in cells)
                   and not formulas, f"{len(served)} files, {len(cells)} cells, formulas: {formulas[:3]}")
        result = subprocess.run([self.binary, "query", "--db", self.database, "--from", "now-1h", "--to", rfc3339(now + 3600), "--by",
                                 "productID,errorDescription", "--format", "csv"], capture_output=True, text=True, timeout=60)
        rows = list(csv.reader(io.StringIO(result.stdout)))
        formulas = [cell for row in rows for cell in row if cell[:1] and cell[:1] in "=+-@"]
        self.check("60.3 query --format csv quotes every formula", result.returncode == 0 and len(rows) > 4 and not formulas
                   and any(cell.startswith("'=\u0301HYPERLINK(") for row in rows for cell in row),
                   f"exit {result.returncode}, {len(rows)} rows, formulas: {formulas[:3]}")
        for form, start, end in [("markdown", "look next: `` ", " ``"), ("slack", "look next: ```", "```")]:
            result = subprocess.run([self.binary, "alerts", "--db", self.database, "--format", form], capture_output=True, text=True, timeout=120)
            lines = [line for line in result.stdout.split("\n") if start in line and line.endswith(end)]
            commands = [line.split(start, 1)[1][:-len(end)] for line in lines]
            if form == "slack":
                commands = [c.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") for c in commands]
            closed = [c for c in commands if "``" in c]
            words = [subprocess.run(["/bin/sh", "-c", "printf '%s\\0' " + c], capture_output=True, timeout=30).stdout.decode().split("\0")
                     for c in commands]
            literal = all(any(f"planID={plan}" in w for plan in plans) for w in words)
            self.check(f"60.3 alerts --format {form}: the look-next code holds and runs the values literally",
                       result.returncode in (0, 2, 3) and commands and not closed and literal and not os.path.exists(pwned),
                       f"exit {result.returncode}, {len(commands)} commands, closing early: {closed[:1]}, literal: {literal}")
            prose = "\n".join(line for line in result.stdout.split("\n") if start not in line)
            if form == "markdown":
                raw, shown = "<" in prose.replace("\\<", ""), prose.replace("\\", "")
            else:
                raw, shown = "<" in prose, prose.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            self.check(f"60.3 alerts --format {form}: no raw < in the text, the product shown", not raw and product in shown, f"{len(prose)} chars")
        self.alive("60.3 serve up")
    def maintenance_and_inputs(self):
        """Issue 60, 5-7. Maintenance windows need an admin key and cannot silence paging for good; slo import and
        --time-zone refuse bad input at once. A serve of its own, with read, admin and ingest keys."""
        keys = {}
        for kind in ["read", "admin", "ingest"]:
            keys[kind] = os.path.join(self.work, f"{kind}-keys.txt")
            with open(keys[kind], "w") as file:
                file.write(f"replay-{kind}\n")
        refused = subprocess.run([self.binary, "serve", "--db", os.path.join(self.work, "refused.sqlite"), "--port", "0",
                                  "--admin-keys", keys["ingest"], "--ingest-keys", keys["ingest"]], capture_output=True, text=True, timeout=60)
        self.check("5 an admin key that is an ingest key refused at start", refused.returncode != 0 and "admin keys hold an ingest key" in refused.stderr,
                   f"exit {refused.returncode}: {refused.stderr.strip()[:100]!r}")
        config = os.path.join(self.work, "maintenance-config.json")
        with open(config, "w") as file:
            json.dump({"readRequestsPerSecond": 1000, "readBurst": 1000}, file)
        database = os.path.join(self.work, "maintenance.sqlite")
        self.with_keyed_server(database, keys, ["--config", config], lambda: self.maintenance_cases(database))
        self.input_cases(database)

    def with_keyed_server(self, database, keys, extra, cases):
        """Runs `cases` against a serve of its own on `database` with the read, admin and ingest key files of
        `keys` (and `extra` arguments), on a free port, stopped after."""
        main_port = self.port
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        server = subprocess.Popen([self.binary, "serve", "--db", database, "--port", str(self.port)] + extra
                                  + ["--read-keys", keys["read"], "--admin-keys", keys["admin"], "--ingest-keys", keys["ingest"]],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if self.request("GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            cases()
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
            self.port = main_port

    def maintenance_cases(self, database):
        def key(kind):
            return {"Authorization": f"Bearer replay-{kind}", "Content-Type": "application/json"}
        def body(**fields):
            return json.dumps({"from": "2030-12-01T02:00:00Z", "duration": "1h", "reason": "replay"} | fields)
        for kind, status in [("read", 403), ("ingest", 401), ("none", 401)]:
            headers = key(kind) if kind != "none" else {"Content-Type": "application/json"}
            self.expect(f"5 POST /v1/maintenance with {kind} key refused", "POST", "/v1/maintenance", body(), headers, status=status)
        self.expect("5 GET /v1/maintenance with the read key", "GET", "/v1/maintenance", headers=key("read"), status=200)
        code, text = self.expect("5 POST /v1/maintenance with the admin key", "POST", "/v1/maintenance", body(id="replay-1"), key("admin"), status=201)
        self.expect("5 DELETE with the read key refused", "DELETE", "/v1/maintenance/replay-1", headers=key("read"), status=403)
        self.expect("5 DELETE with the admin key", "DELETE", "/v1/maintenance/replay-1", headers=key("admin"), status=200)
        for rule, duration in [("FREQ=DAILY", "1d"), ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU", "1d"), ("FREQ=MONTHLY", "28d")]:
            self.expect(f"5 {rule} for {duration} refused", "POST", "/v1/maintenance", body(rrule=rule, duration=duration, force=True), key("admin"),
                        status=400, contains="each occurrence must end before the next one starts")
        self.expect("5 2 days a week (29 % of 28 days) refused", "POST", "/v1/maintenance", body(rrule="FREQ=WEEKLY", duration="2d"), key("admin"),
                    status=422, contains="at most 25 % of any 28 days")
        self.expect("5 a reason of NUL refused", "POST", "/v1/maintenance", body(reason="\u0000 nul"), key("admin"), status=400,
                    contains="reason: must be printable text")
        self.expect("5 a reason of zero-width spaces refused", "POST", "/v1/maintenance", body(reason="\u200b\u200b"), key("admin"), status=400,
                    contains="reason: must say why")
        # Windows at the same hour count once in the share: the cap is what stops them.
        huge = body(**{"from": "1970-01-01T02:00:00Z", "rrule": "FREQ=DAILY;COUNT=9223372036854775807"})
        codes = [self.request("POST", "/v1/maintenance", huge, key("admin"))[0] for _ in range(200)]
        self.check("5 200 windows of COUNT=Int64.max from 1970 kept", codes == [201] * 200, f"{sorted(set(codes))}")
        self.expect("5 the 201st window refused", "POST", "/v1/maintenance", huge, key("admin"), status=409, contains="the most (200)")
        started = time.monotonic()
        result = subprocess.run([self.binary, "alerts", "--db", database, "--at", "2026-11-29T12:00:00Z"], capture_output=True, text=True, timeout=120)
        seconds = time.monotonic() - started
        self.check("5 alerts --at with 200 windows begun in 1970", result.returncode in (0, 2, 3) and seconds < 5,
                   f"exit {result.returncode} in {seconds:.2f} s")

    def input_cases(self, database):
        broken = os.path.join(self.work, "broken.openslo.yaml")
        with open(broken, "w") as file:
            file.write("apiVersion: openslo/v1\nkind: Service\nmetadata: {name: shop}\n---\nkind: SLO\nmetadata: {name: [unclosed\n")
        result = subprocess.run([self.binary, "slo", "import", broken], capture_output=True, text=True, timeout=60)
        self.check("6 slo import with a syntax error in document 2", result.returncode == 1 and "document 2, line" in result.stderr
                   and result.stdout == "", f"exit {result.returncode}: {result.stderr.strip()[:120]!r}")
        deep = os.path.join(self.work, "deep.openslo.yaml")
        with open(deep, "w") as file:
            file.write("[" * 10000 + "]" * 10000 + "\n")
        result = subprocess.run([self.binary, "slo", "import", deep], capture_output=True, text=True, timeout=60)
        self.check("6 slo import of 10,000 nested lists", result.returncode == 1 and "not valid YAML" in result.stderr,
                   f"exit {result.returncode}: {result.stderr.strip()[:120]!r}")
        started = time.monotonic()
        result = subprocess.run([self.binary, "alerts", "--db", database, "--at", "2026-11-29T12:00:00Z", "--time-zone", "Europe/" * 17000],
                                capture_output=True, text=True, timeout=60)
        seconds = time.monotonic() - started
        self.check("7 --time-zone of 119 KB refused at once", result.returncode == 1 and "at most 64 bytes" in result.stderr and seconds < 2,
                   f"exit {result.returncode} in {seconds:.2f} s: {result.stderr.strip()[:100]!r}")

    def charge_write_off(self):
        """Issue 62. `charges write-off` settles a charge for good: only someone with the database can run it (no
        route does it, whatever the key), and its reason and name are printable text it shows as typed."""
        for kind, headers in [("none", {}), ("ingest", {"X-Ingest-Key": "replay-ingest"}), ("read", {"Authorization": "Bearer replay-read"})]:
            code, _, _ = self.request("POST", "/v1/charges/write-off", json.dumps({"transactionID": "2000000000000001"}),
                                   headers | {"Content-Type": "application/json"})
            self.check(f"62 no write-off route ({kind} key)", code in (401, 403, 404), f"HTTP {code}")
        base = [self.binary, "charges", "write-off", "--db", self.database, "--store", "apple"]
        for name, extra, expected in [
            ("an unknown transaction", ["2000000000000404", "--reason", "replay"], "no App Store charge of transaction 2000000000000404"),
            ("a reason with U+202E", ["2000000000000404", "--reason", "ok\u202egnp.exe"], "--reason: expected why"),
            ("a name with a line break", ["2000000000000404", "--reason", "ok", "--by", "Ana\nwrote off everything"], "--by: expected"),
            ("a reason of 301 characters", ["2000000000000404", "--reason", "x" * 301], "--reason: expected why"),
        ]:
            result = subprocess.run(base + extra, capture_output=True, text=True, timeout=60)
            self.check(f"62 write-off of {name} refused", result.returncode == 1 and expected in result.stderr,
                       f"exit {result.returncode}: {result.stderr.strip()[:100]!r}")

    def incident_acknowledgements(self):
        """Issue 62. An incident's records are read with a read key (GET /v1/incidents); only an admin key acknowledges
        one (POST /v1/incidents/ID/acknowledge), with an owner and note of printable text on one line, and the id is
        checked before the store is read. A serve of its own on the payment detour of the sample logs, its records
        rebuilt, with read, admin and ingest keys."""
        samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sample-logs")
        database = os.path.join(self.work, "incidents.sqlite")
        subprocess.run([self.binary, "ingest", "--quiet", "--db", database, os.path.join(samples, "paymentdetour.ndjson.gz")],
                       stdout=subprocess.DEVNULL, check=True, timeout=300)
        subprocess.run([self.binary, "ingest-store", "--db", database, "--apple-root-ca", os.path.join(samples, "store", "apple-test-root.pem"),
                        "--apple-bundle-id", BUNDLE, os.path.join(samples, "store", "apple-notifications.ndjson.gz")],
                       stdout=subprocess.DEVNULL, check=True, timeout=300)
        subprocess.run([self.binary, "incidents", "--db", database, "--rebuild", "--from", "2026-11-19T12:00:00Z", "--at", "2026-11-20T00:00:00Z"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=600)
        listed = json.loads(subprocess.run([self.binary, "incidents", "--db", database, "--from", "2026-11-19T12:00:00Z", "--at",
                                            "2026-11-20T00:00:00Z", "--format", "json"], capture_output=True, text=True, check=True).stdout)
        self.check("62 the detour's record rebuilt", len(listed["incidents"]) > 0, f"{[i['id'] for i in listed['incidents']]}")
        if not listed["incidents"]:
            return
        incident = listed["incidents"][0]["id"]
        keys = {}
        for kind in ["read", "admin", "ingest"]:
            keys[kind] = os.path.join(self.work, f"incident-{kind}-keys.txt")
            with open(keys[kind], "w") as file:
                file.write(f"replay-incident-{kind}\n")
        self.with_keyed_server(database, keys, [], lambda: self.incident_cases(incident))

    def incident_cases(self, incident):
        def key(kind):
            return {"Content-Type": "application/json"} | ({"Authorization": f"Bearer replay-incident-{kind}"} if kind != "none" else {})
        path = f"/v1/incidents/{incident}/acknowledge"
        owner = json.dumps({"owner": "Ana (payments on-call)", "note": "replay"})
        rng = "from=2026-11-19T12:00:00Z&to=2026-11-20T00:01:00Z"
        self.expect("62 GET /v1/incidents without a key refused", "GET", f"/v1/incidents?{rng}", status=401)
        self.expect("62 GET /v1/incidents with the ingest key refused", "GET", f"/v1/incidents?{rng}", headers=key("ingest"), status=401)
        self.expect("62 GET /v1/incidents with the read key", "GET", f"/v1/incidents?{rng}", headers=key("read"), status=200, contains=incident)
        for kind, status in [("none", 401), ("ingest", 401), ("read", 403)]:
            self.expect(f"62 acknowledge with {kind} key refused", "POST", path, owner, key(kind), status=status)
        self.expect("62 acknowledge from another site's page refused", "POST", path, owner, key("admin") | {"Sec-Fetch-Site": "cross-site"},
                    status=403)
        self.expect("62 acknowledge as a form (text/plain) refused", "POST", path, owner, key("admin") | {"Content-Type": "text/plain"},
                    status=415)
        for name, body, expected in [
            ("an owner with U+202E", {"owner": "Ana\u202egnp.exe"}, "owner: expected"),
            ("an owner with a line break", {"owner": "Ana\nacknowledged by everyone"}, "owner: expected"),
            ("a note of 1,001 characters", {"owner": "Ana", "note": "x" * 1001}, "note: expected at most 1000"),
            ("a note with NUL", {"owner": "Ana", "note": "\u0000"}, "note: expected"),
            ("no owner", {"note": "replay"}, "owner: required field is missing"),
        ]:
            self.expect(f"62 acknowledge with {name} refused", "POST", path, json.dumps(body), key("admin"), status=400, contains=expected)
        self.expect("62 acknowledge of a body of 1 MB refused", "POST", path, json.dumps({"owner": "Ana", "note": "x" * (1 << 20)}), key("admin"),
                    status=413)
        for name, bad in [("a path-like id", "..%2F..%2Fetc%2Fpasswd"), ("an id of 10,000 characters", "2" * 10000),
                          ("an id with SQL", "20261119-1641-b5ce28'%20OR%201=1--")]:
            self.expect(f"62 acknowledge of {name} refused", "POST", f"/v1/incidents/{bad}/acknowledge", owner, key("admin"),
                        status=400, contains="id: expected an incident id")
        self.expect("62 acknowledge of an unknown incident", "POST", "/v1/incidents/20261119-1642-000000/acknowledge", owner, key("admin"),
                    status=404, contains="no incident 20261119-1642-000000 is kept")
        self.expect("62 acknowledge with the admin key", "POST", path, owner, key("admin"), status=200, contains='"owner":"Ana (payments on-call)"')
        self.expect("62 the owner listed with the read key", "GET", f"/v1/incidents?{rng}", headers=key("read"), status=200,
                    contains='"owner":"Ana (payments on-call)"')

    def invented_apps(self):
        """Issue 66: each app has its own series and value budget, so events naming many invented apps (anyone
        with an ingest key can send them) must stop at the day's total ceilings, not at apps x budget."""
        events = os.path.join(self.work, "apps.ndjson")

        def ingest(name, plan, options, apps=None):
            """30 invented apps x 10 plans (`plan(app, n)` names each), then those of `apps` (names), into a new
            database, with `options`."""
            with open(events, "w") as file:
                for app in list(range(30)) + (apps or []):
                    for number in range(10):
                        file.write(json.dumps({"eventID": f"{name}{app}-{number}", "timestamp": "2026-11-20T10:00:00Z", "productID": "p",
                                               "planID": plan(app, number), "actionType": "purchase", "resultType": "success",
                                               "app": app if isinstance(app, str) else f"com.invented.app{app}"}) + "\n")
            database = os.path.join(self.work, f"{name}.sqlite")
            result = subprocess.run([self.binary, "ingest", "--db", database] + options + [events], capture_output=True, text=True, timeout=120)
            return result, sqlite3.connect(database)

        result, db = ingest("apps", lambda app, number: f"plan{number}", ["--series-cap", "5", "--total-series-cap", "40"])
        with db:
            admitted = db.execute("SELECT count(*) FROM admitted_value WHERE dimension = 11").fetchone()[0]
            rows = db.execute("SELECT count(*) FROM series").fetchone()[0]
        self.check("66 30 invented apps x 10 series, --series-cap 5 --total-series-cap 40",
                   result.returncode == 0 and admitted == 40 and "overflow    series: 260 events" in result.stdout,
                   f"exit {result.returncode}, {admitted} series admitted, {rows} series rows (with one overflow series per app), "
                   f"{result.stdout.splitlines()[3] if len(result.stdout.splitlines()) > 3 else result.stdout!r}")
        # Invented plans of invented apps stop at the day's total ceiling of a dimension's values, and at the
        # day's cap of apps (later apps share __other__'s budget).
        result, db = ingest("values", lambda app, number: f"app{app}-plan{number}", ["--cardinality-cap", "10", "--total-cardinality-cap", "40"])
        admitted = "SELECT count(*) FROM admitted_value a JOIN dimension_value v ON v.id = a.value AND v.dimension = a.dimension WHERE v.value LIKE ?"
        with db:
            plans = db.execute(admitted, ["app%-plan%"]).fetchone()[0]
            apps = db.execute(admitted, ["com.invented.%"]).fetchone()[0]
        lines = result.stdout.splitlines()
        self.check("66 30 invented apps x 10 invented plans, --cardinality-cap 10 --total-cardinality-cap 40",
                   result.returncode == 0 and plans == 40 and apps == 10
                   and any(line.startswith("overflow    planID: 260 events") for line in lines)
                   and any(line.startswith("overflow    app: 200 events") for line in lines),
                   f"exit {result.returncode}, {plans} plans and {apps} apps admitted, {[l for l in lines if l.startswith('overflow')]!r}")
        # An app the policy names keeps its place and its budget after them: the invented apps filled the day's
        # apps and both totals first.
        policy = os.path.join(self.work, "app-caps.yaml")
        with open(policy, "w") as file:
            file.write("apps:\n  com.example.real: {cardinalityCap: 10}\n")
        result, db = ingest("named", lambda app, number: f"app{app}-plan{number}",
                            ["--cardinality-cap", "10", "--total-cardinality-cap", "40", "--policy", policy], apps=["com.example.real"])
        with db:
            real = db.execute(admitted, ["appcom.example.real-plan%"]).fetchone()[0]
            named = db.execute(admitted, ["com.example.real"]).fetchone()[0]
        lines = result.stdout.splitlines()
        self.check("66 an app the policy names after 30 invented apps keeps its place and its 10 plans",
                   result.returncode == 0 and real == 10 and named == 1
                   and not any("com.example.real" in line for line in lines if line.startswith("overflow")),
                   f"exit {result.returncode}, {real} of its plans and {named} app admitted, {[l for l in lines if l.startswith('overflow')]!r}")

    def app_pages(self):
        """Issue 66: each app's pages are written to and served from apps/<dir>/ of the pages directory. The
        served paths take one app directory and one page, never a link, never what lies above or below; an app
        id that looks like a path is written as a name of its own inside apps/."""
        outside = os.path.join(self.work, "outside")
        os.makedirs(outside, exist_ok=True)
        with open(os.path.join(outside, "index.html"), "w") as file:
            file.write("secret-outside")
        result = subprocess.run([self.binary, "render", "--db", self.database, "--out", self.pages, "--range", "1d",
                                 "--each-app", "com.example.coins", "--each-app", "../../etc"], capture_output=True, text=True, timeout=300)
        apps = sorted(os.listdir(os.path.join(self.pages, "apps"))) if os.path.isdir(os.path.join(self.pages, "apps")) else []
        self.check("66 render --each-app with a path-like id writes inside apps/", result.returncode == 0 and apps == ["-2e-2e-2f.-2e-2fetc", "com.example.coins"]
                   and not os.path.exists(os.path.join(self.work, "etc")), f"exit {result.returncode}, apps/ holds {apps}")
        self.expect("66 an app's index", "GET", "/apps/com.example.coins/", status=200, contains="All apps")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/apps/com.example.coins")
        response = connection.getresponse()
        response.read()
        connection.close()
        self.check("66 an app's directory without its slash redirects", response.status == 301
                   and response.getheader("Location") == "/apps/com.example.coins/", f"{response.status} {response.getheader('Location')!r}")
        self.expect("66 the path-like app's page, by its name", "GET", "/apps/-2e-2e-2f.-2e-2fetc/oncall.html", status=200, contains="On-call")
        self.expect("66 the top index lists the apps", "GET", "/", status=200, contains='href="apps/com.example.coins/index.html"')
        os.symlink(outside, os.path.join(self.pages, "apps", "linked"))
        # Files that exist where the served names must not reach: deeper, and under a name with capitals.
        for folder in [os.path.join("com.example.coins", "deeper"), "Com.example.coins"]:
            os.makedirs(os.path.join(self.pages, "apps", folder), exist_ok=True)
            with open(os.path.join(self.pages, "apps", folder, "index.html"), "w") as file:
                file.write("secret-" + folder)
        for path in ["/apps/linked/index.html", "/apps/linked/", "/apps/", "/apps/index.html", "/apps/com.example.coins/deeper/index.html",
                     "/apps/..%2F..%2Fetc%2Fpasswd", "/apps/%2e%2e/index.html", "/apps/com.example.coins/../../serve.log",
                     "/apps/com.example.coins/%2e%2e/%2e%2e/serve.log", "/apps/Com.example.coins/index.html"]:
            code, _, text = self.request("GET", path)
            self.check(f"66 {path}", code in (400, 404) and "secret" not in text and "serve starting" not in text, f"{code} {text[:80]!r}")

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
                               alerts.returncode == 1 and "redirects are not followed" in alerts.stderr and not other_seen,
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

    def notification_fallbacks(self):
        """Issue 63: serve's heartbeat and fallbacks. Alertmanager answering 302: the heartbeat's post is not
        delivered and not re-sent to the redirect's target; the fallback gets nothing before 5 minutes of failures;
        /metrics labels the receivers with the service's own words only, whatever events an ingest key sends."""
        other, other_seen = loopback_server(lambda handler: (200, {}, b""))
        redirecting, seen = loopback_server(lambda handler: (302, {"Location": f"http://127.0.0.1:{other.server_port}{handler.path}"}, b""))
        fallback, fallback_seen = loopback_server(lambda handler: (200, {}, b"ok"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        database = os.path.join(self.work, "notify.sqlite")
        log_path = os.path.join(self.work, "notify-serve.log")
        try:
            with open(log_path, "w") as log:
                process = subprocess.Popen(
                    [self.binary, "serve", "--db", database, "--port", str(port), "--notify",
                     f"http://127.0.0.1:{redirecting.server_port}/api/v2/alerts", "--notify-heartbeat", "--notify-fallback",
                     f"http://127.0.0.1:{fallback.server_port}/hooks/SECRET"], stdout=log, stderr=subprocess.STDOUT)
                try:
                    for _ in range(300):
                        if seen:
                            break
                        time.sleep(0.1)
                    now = int(time.time()) - 30
                    body = "\n".join(json.dumps({"eventID": f"n{index}", "timestamp": rfc3339(now), "productID": "coins\u202e",
                                                 "actionType": "purchase", "resultType": "failure", "errorDescription": "x\u0000"})
                                     for index in range(50))
                    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/v1/events", data=body.encode(), method="POST",
                                                                  headers={"Content-Type": "application/x-ndjson"}), timeout=30)
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
                        metrics = response.read().decode()
                finally:
                    process.send_signal(signal.SIGTERM)
                    process.wait(timeout=20)
            labels = sorted({line.split('receiver="')[1].split('"')[0] for line in metrics.splitlines() if 'receiver="' in line})
            heartbeat = [path for (_, path, _) in seen]
            self.check("63 --notify-heartbeat to an Alertmanager answering 302: posted once at start, the redirect not followed",
                       heartbeat[:1] == ["/api/v2/alerts"] and not other_seen, f"{len(seen)} posts, {len(other_seen)} at the target")
            self.check("63 a failing receiver's fallback gets nothing before 5 minutes of failures", not fallback_seen,
                       f"{len(fallback_seen)} posts to the fallback")
            process = [line for line in metrics.splitlines() if line.startswith("process_")]
            self.check("64 /metrics has the process collector's series, unlabelled, whatever the events said",
                       any(line.startswith("process_resident_memory_bytes ") for line in process)
                       and any(line.startswith("process_open_fds ") for line in process) and not any("{" in line for line in process),
                       f"{len(process)} process_ lines")
            self.check("63 /metrics labels receivers with the service's own words", labels == ["alerts"]
                       and 'purchase_sli_notifications_total{receiver="alerts",outcome="failed"}' in metrics and "\u202e" not in metrics,
                       f"receiver labels {labels}")
            with open(log_path) as text:
                logged = text.read()
            self.check("63 the fallback's secret path is never logged", "SECRET" not in logged and "/hooks/" not in logged,
                       f"{len(logged)} bytes of log")
        finally:
            for server in [other, redirecting, fallback]:
                server.shutdown()

    def rollout_act_redirect(self):
        """Issue 63: `rollout --act` reads the store through the same client as serve: App Store Connect answering 302
        sends nothing on to the redirect's target (no token), and nothing is paused."""
        key = os.path.join(self.work, "AuthKey.p8")
        generated = subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key],
                                   capture_output=True, timeout=30)
        if generated.returncode != 0:
            self.check("63 rollout --act against a redirecting App Store Connect", False, "openssl could not make a P-256 key")
            return
        other, other_seen = loopback_server(lambda handler: (200, {"Content-Type": "application/json"}, b'{"data":[]}'))
        redirecting, seen = loopback_server(
            lambda handler: (302, {"Location": f"http://127.0.0.1:{other.server_port}{handler.path}"}, b""))
        try:
            run = subprocess.run([self.binary, "rollout", "--act", "--db", self.database, "--candidate", "9.9.9", "--baseline", "1.0.0",
                                  "--asc-key-file", key, "--asc-key-id", "ABC123DEFG", "--asc-issuer-id", "issuer", "--asc-app-id", "1",
                                  "--asc-url", f"http://127.0.0.1:{redirecting.server_port}"], capture_output=True, text=True, timeout=120)
            output = run.stdout + run.stderr
            self.check("63 rollout --act against App Store Connect answering 302: asked, not followed, no token sent on",
                       seen and not other_seen and "302" in output and not any(path.startswith("/v1/appStoreVersionPhasedReleases")
                                                                                for (method, path, _) in seen if method == "PATCH"),
                       f"exit {run.returncode}, {len(seen)} requests, {len(other_seen)} at the target: {output.strip()[-160:]!r}")
        finally:
            other.shutdown()
            redirecting.shutdown()


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


class FakeAppStoreConnect:
    """A stand-in of the App Store Connect API on a free port: version 5.0.0 of app 123 in an active phased release
    (pr500); records each PATCH of a phased release. Tokens are not checked (the Swift tests check them)."""

    def __init__(self):
        fake = self
        self.patches, self.state = [], "ACTIVE"

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, body):
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                version = {"type": "appStoreVersions", "id": "v500", "attributes": {"versionString": "5.0.0", "platform": "IOS"},
                           "relationships": {"appStoreVersionPhasedRelease": {"data": {"type": "appStoreVersionPhasedReleases", "id": "pr500"}}}}
                phased = {"type": "appStoreVersionPhasedReleases", "id": "pr500",
                          "attributes": {"phasedReleaseState": fake.state, "currentDayNumber": 2}}
                asked = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("filter[versionString]", ["5.0.0"])[0]
                self.answer({"data": [version], "included": [phased]} if asked == "5.0.0" else {"data": []})

            def do_PATCH(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                fake.patches.append(self.path.rsplit("/", 1)[1])
                fake.state = "PAUSED"
                self.answer({"data": {"type": "appStoreVersionPhasedReleases", "id": "pr500", "attributes": {"phasedReleaseState": "PAUSED"}}})

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def is_number(text):
    """Whether a CSV cell is a plain decimal number (the pages' data values)."""
    try:
        float(text)
    except ValueError:
        return False
    return all(c in "0123456789+-.eE" for c in text)


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
