#!/usr/bin/env python3
"""Loads HTML pages in headless Chromium and fails on anything a self-contained page must not do.

Usage: python3 scripts/browser_check.py [--screenshots DIR] [--prefix TEXT] [--chromium PATH]
           [--timeout SECONDS] [--seconds-per-view SECONDS] PAGE.html...

For each page, in three views (light 1280 px wide, dark 1280 px wide, phone 390 px wide), it reports and
counts as a failure:
  - any network request other than the page's own file (the page must load nothing: no image, font,
    stylesheet or script from anywhere, not even from disk);
  - any console message of level error, any uncaught exception (a Content-Security-Policy violation,
    such as a stylesheet whose hash does not match, is logged as a console error);
  - a page that does not load, or a page wider than its view (the page itself, not a table or chart that
    scrolls inside its own box);
  - chart labels drawn over each other, a box that cuts off its content, objectives above the firing alerts;
  - a word of a table cell (up to 24 characters) broken across lines, as when a column is squeezed.
It saves a full-page PNG per page and view into DIR (default: out/screenshots), named PREFIXPAGE-VIEW.png.

How: Chromium runs with --remote-debugging-port=0 and this script talks the Chrome DevTools Protocol
over its WebSocket (a minimal RFC 6455 client on Python's standard library: no package to install).
Network.requestWillBeSent sees every request the page starts, whatever its scheme, before it is sent;
Log.entryAdded and Runtime.consoleAPICalled/exceptionThrown see the console. As a second guard every host
name resolves to nothing (--host-resolver-rules), so a request that slipped through would not leave the
machine. Time: each page may take --timeout seconds to load in a view, and the whole check ends with
"could not drive chromium" when pages x views x --seconds-per-view seconds have passed (a deadline that
grows with what is checked, for a machine busy with other work). Exit status: 0 clean, 1 a page failed a
check, 2 Chromium could not be driven.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse

VIEWS = [
    # name, width, height, mobile, colour scheme
    ("light", 1280, 900, False, "light"),
    ("dark", 1280, 900, False, "dark"),
    ("phone", 390, 844, True, "light"),
]


# Words of table cells (2 to 24 characters between spaces, hyphens and slashes, where lines may break;
# names, not long ids) that the layout broke across lines, as a squeezed column does. Run by DevTools,
# which the page's Content-Security-Policy does not restrict.
BROKEN_WORDS = r"""(() => {
  const broken = [];
  for (const cell of document.querySelectorAll("td, th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest("svg")) continue;
      for (const match of node.data.matchAll(/[^\s\-\/]{2,24}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return [...new Set(broken)].slice(0, 10);
})()"""


# What a person would see as broken at this width (issue 63): chart labels drawn over each other, a box
# whose content is cut off (overflow hidden or clip, content wider than the box), a page that scrolls
# sideways (a table or chart may scroll inside its own box), and objectives shown above the firing
# alerts. Returns a list of sentences.
LAYOUT = r"""(() => {
  const problems = [];
  const name = el => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
  for (const svg of document.querySelectorAll("svg")) {
    const labels = [...svg.querySelectorAll("text")].map(text => [text.textContent.trim(), text.getBoundingClientRect()])
      .filter(([words, box]) => words && box.width > 0 && box.height > 0);
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const [a, p] = labels[i], [b, q] = labels[j];
        const width = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const height = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (width > 1 && height > 1 && width * height > 4) problems.push(`chart labels overlap: "${a}" and "${b}"`);
      }
    }
  }
  for (const element of document.querySelectorAll("body *")) {
    if (element.closest("svg")) continue;
    const overflow = getComputedStyle(element).overflowX;
    if ((overflow === "hidden" || overflow === "clip") && element.scrollWidth > element.clientWidth + 1) {
      problems.push(`${name(element)} cuts off its content (${element.scrollWidth} px in ${element.clientWidth} px): "${element.textContent.trim().slice(0, 60)}"`);
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth + 1) problems.push(`the page scrolls sideways: ${width} px wide in a ${window.innerWidth} px window`);
  const headings = [...document.querySelectorAll("h2")];
  const top = title => headings.find(h => h.textContent.trim() === title)?.getBoundingClientRect().top;
  const alerts = top("Alerts firing"), objectives = top("Objectives");
  if (alerts !== undefined && objectives !== undefined && objectives < alerts) problems.push("the objectives are shown above the firing alerts");
  return [...new Set(problems)].slice(0, 10);
})()"""


class WebSocket:
    """Just enough of RFC 6455 for CDP: text frames, masked from client, fragmented or long from server."""

    def __init__(self, url, timeout):
        parsed = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {parsed.path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the DevTools socket closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"WebSocket handshake refused: {head[:200]!r}")

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise ConnectionError("the DevTools socket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """The next text message (fragments joined); control frames are skipped."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("the DevTools socket was closed by Chromium")
            if opcode in (0x9, 0xA):  # ping, pong
                continue
            message += payload
            if first & 0x80:
                return message.decode()


class DevTools:
    """Commands and events of one CDP connection (flat sessions)."""

    def __init__(self, url, deadline):
        """`deadline` (time.monotonic()) bounds every exchange: the whole check, not each call."""
        self.deadline = deadline
        self.socket = WebSocket(url, self.remaining())
        self.next_id = 0
        self.events = []

    def remaining(self):
        return max(0.05, self.deadline - time.monotonic())

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        # Each call sets its own timeout: wait_for and drain leave short ones on the socket, and a busy
        # machine can take seconds to answer (a full-page screenshot, say).
        self.socket.sock.settimeout(self.remaining())
        self.socket.send(json.dumps(message))
        while True:
            try:
                answer = json.loads(self.socket.receive())
            except socket.timeout:
                raise RuntimeError(f"{method}: no answer before the check's deadline") from None
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            if "method" in answer:
                self.events.append(answer)

    def wait_for(self, method, session, deadline):
        """Collects events until `method` arrives for `session` (or the deadline passes)."""
        deadline = min(deadline, self.deadline)
        self.socket.sock.settimeout(max(0.05, deadline - time.monotonic()))
        while time.monotonic() < deadline:
            if any(event["method"] == method and event.get("sessionId") == session for event in self.events):
                return True
            try:
                answer = json.loads(self.socket.receive())
            except socket.timeout:
                break
            if "method" in answer:
                self.events.append(answer)
        return any(event["method"] == method and event.get("sessionId") == session for event in self.events)

    def drain(self, seconds):
        """Collects the events that arrive within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.socket.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                answer = json.loads(self.socket.receive())
            except socket.timeout:
                return
            if "method" in answer:
                self.events.append(answer)


def start_chromium(binary, profile):
    arguments = [
        binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--remote-debugging-port=0", f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--hide-scrollbars", "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND",
        "about:blank",
    ]
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 120  # a loaded machine can take a while to start a browser
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with {process.returncode}: {process.stderr.read().decode()[-2000:]}")
        if os.path.exists(port_file):
            lines = open(port_file).read().split()
            if len(lines) >= 2:
                return process, f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("chromium did not open its DevTools port within 120 s")


def describe_event(event, page_url):
    """A problem the event reveals, or None."""
    method, params = event["method"], event.get("params", {})
    if method == "Network.requestWillBeSent":
        url = params["request"]["url"]
        if url != page_url:
            return f"network request: {url}"
    elif method == "Log.entryAdded":
        entry = params["entry"]
        if entry.get("level") == "error":
            return f"console error ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".rstrip()
    elif method == "Runtime.consoleAPICalled":
        if params.get("type") in ("error", "assert"):
            texts = [str(argument.get("value", argument.get("description", ""))) for argument in params.get("args", [])]
            return f"console.{params['type']}: {' '.join(texts)}"
    elif method == "Runtime.exceptionThrown":
        return f"exception: {params['exceptionDetails'].get('text')}"
    elif method == "Network.loadingFailed" and params.get("errorText") != "net::ERR_ABORTED":
        return f"loading failed: {params.get('errorText')}"
    return None


def check_page(devtools, path, directory, prefix, timeout):
    """Loads `path` in every view; returns the problems found."""
    page_url = "file://" + urllib.parse.quote(os.path.abspath(path))
    name = prefix + os.path.splitext(os.path.basename(path))[0]
    problems = []
    for view, width, height, mobile, scheme in VIEWS:
        target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = devtools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Log", "Runtime"):
            devtools.call(f"{domain}.enable", session=session)
        devtools.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session)
        devtools.call("Emulation.setEmulatedMedia",
                      {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session)
        first_event = len(devtools.events)
        navigation = devtools.call("Page.navigate", {"url": page_url}, session)
        if navigation.get("errorText"):
            problems.append(f"{name} ({view}): did not load: {navigation['errorText']}")
        elif not devtools.wait_for("Page.loadEventFired", session, time.monotonic() + timeout):
            problems.append(f"{name} ({view}): no load event within {timeout} s")
        devtools.drain(0.3)  # late console messages and requests
        for event in devtools.events[first_event:]:
            if event.get("sessionId") == session:
                problem = describe_event(event, page_url)
                if problem:
                    problems.append(f"{name} ({view}): {problem}")
        broken = devtools.call("Runtime.evaluate", {"expression": BROKEN_WORDS, "returnByValue": True}, session)
        for word in broken.get("result", {}).get("value") or []:
            problems.append(f"{name} ({view}): a word broken across lines in a table cell: {word!r}")
        layout = devtools.call("Runtime.evaluate", {"expression": LAYOUT, "returnByValue": True}, session)
        for problem in layout.get("result", {}).get("value") or []:
            problems.append(f"{name} ({view}): {problem}")
        metrics = devtools.call("Page.getLayoutMetrics", session=session)
        content = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = devtools.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(content["height"], 16384), "scale": 1},
        }, session)
        with open(os.path.join(directory, f"{name}-{view}.png"), "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        devtools.call("Target.closeTarget", {"targetId": target})
        devtools.events.clear()
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--screenshots", default="out/screenshots")
    parser.add_argument("--prefix", default="", help="put before each screenshot's name")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser")
                        or shutil.which("google-chrome"))
    parser.add_argument("--timeout", type=float, default=60, help="seconds a page may take to load in one view")
    parser.add_argument("--seconds-per-view", type=float, default=60,
                        help="the check's deadline: this many seconds for each page in each view, all told")
    options = parser.parse_args()
    if not options.chromium:
        print("browser check: no chromium on PATH (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    os.makedirs(options.screenshots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="purchase-sli-chromium-")
    process = None
    try:
        process, url = start_chromium(options.chromium, profile)
        devtools = DevTools(url, time.monotonic() + options.seconds_per_view * len(options.pages) * len(VIEWS))
        problems = []
        for page in options.pages:
            found = check_page(devtools, page, options.screenshots, options.prefix, options.timeout)
            print(f"{page}: {'ok' if not found else f'{len(found)} problems'} ({', '.join(v[0] for v in VIEWS)})")
            problems += found
    except (OSError, RuntimeError, ConnectionError, KeyError) as error:
        print(f"browser check: could not drive chromium: {error}", file=sys.stderr)
        return 2
    finally:
        if process:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(profile, ignore_errors=True)
    for problem in problems:
        print(f"FAIL {problem}")
    print(f"screenshots in {options.screenshots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
