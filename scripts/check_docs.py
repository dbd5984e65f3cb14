#!/usr/bin/env python3
"""Runs every example of the docs and compares what it prints with what the docs show.

Usage: python3 scripts/check_docs.py BINARY [FILE.md ...]
       (default files: README.md, CONTRIBUTING.md, docs/*.md; BINARY: a built purchase-sli)

What is checked, in each Markdown file:
- A block fenced as ```console is a session: a line starting with "$ " is a command (a line ending in
  a backslash goes on to the next), and the lines up to the next command or the block's end are what it
  prints, standard output and standard error together. In an expected line "…" stands for any text;
  a line that is "…" alone for any number of lines, none included. Trailing spaces are ignored. A
  command must exit 0 unless its output ends with "[exit N]", the status it must exit with.
- A block fenced as ```sh, ```bash or ```shell that runs purchase-sli is an error unless the line just
  before the block is "<!-- not run: REASON -->" (a command that starts a server, needs a remote host or
  a secret): every other command the docs show is run here.

Where the commands run: each file in a workspace of its own, a new directory holding a copy of
sample-logs/, dashboards/, certificates/ and docs/examples/ (its files at the top level), with
`purchase-sli` on PATH, `.build/debug/purchase-sli` and `.build/release/purchase-sli` all naming BINARY, and demo.sqlite and out/
as `purchase-sli demo` leaves them (made once and copied). A file's sessions share that workspace in the
order they appear, so a later example may read what an earlier one wrote; files run side by side, as
many at once as there are cores. The environment holds no PURCHASE_SLI_ variable, and TZ is UTC.

Exit status: 0 every example as shown, 1 some differ (each difference is printed), 2 a usage error.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED_DIRECTORIES = ["sample-logs", "dashboards", "certificates"]
EXAMPLES = os.path.join(ROOT, "docs", "examples")
COMMAND_TIMEOUT = 600
ELLIPSIS = "…"


def blocks(path):
    """Yields (line number, fence info, lines, line before the fence) for each fenced block of a file."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    index = 0
    while index < len(lines):
        match = re.match(r"^(\s*)```(\S*)\s*$", lines[index])
        if not match:
            index += 1
            continue
        indent, info = match.group(1), match.group(2)
        before = lines[index - 1].strip() if index > 0 else ""
        start = index + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[start:end]]
        yield start + 1, info, body, before
        index = end + 1


def sessions(body, first_line):
    """Splits a console block into (line number, command, expected lines)."""
    result = []
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if line.strip():
                raise ValueError(f"line {first_line + index}: output before any command: {line!r}")
            index += 1
            continue
        number = first_line + index
        command = line[2:]
        while command.endswith("\\") and index + 1 < len(body):
            index += 1
            command = command + "\n" + body[index]
        index += 1
        expected = []
        while index < len(body) and not body[index].startswith("$ "):
            expected.append(body[index].rstrip())
            index += 1
        while expected and not expected[-1]:
            expected.pop()
        result.append((number, command, expected))
    return result


def line_pattern(expected):
    """The regular expression of one expected line: "…" matches any text."""
    return re.compile("^" + ".*".join(re.escape(part) for part in expected.split(ELLIPSIS)) + "$")


def matches(expected, actual):
    """Whether the actual lines fit the expected ones ("…" alone matches any number of lines)."""
    patterns = [None if line.strip() == ELLIPSIS else line_pattern(line) for line in expected]
    memo = {}

    def fit(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(patterns):
            result = a == len(actual)
        elif patterns[e] is None:
            result = any(fit(e + 1, skip) for skip in range(a, len(actual) + 1))
        else:
            result = a < len(actual) and bool(patterns[e].match(actual[a])) and fit(e + 1, a + 1)
        memo[key] = result
        return result

    return fit(0, 0)


def prepare_demo(binary, scratch):
    """Runs `purchase-sli demo` once; its database and pages are copied into every workspace."""
    demo = os.path.join(scratch, "demo")
    os.makedirs(demo)
    for name in SHARED_DIRECTORIES:
        shutil.copytree(os.path.join(ROOT, name), os.path.join(demo, name), symlinks=True)
    run = subprocess.run([binary, "demo"], cwd=demo, env=environment(binary), capture_output=True, text=True,
                         timeout=COMMAND_TIMEOUT)
    if run.returncode != 0:
        sys.stderr.write(f"purchase-sli demo failed ({run.returncode}):\n{run.stdout}{run.stderr}")
        sys.exit(1)
    return demo


def workspace(binary, scratch, demo, name):
    """A new workspace for one Markdown file."""
    directory = os.path.join(scratch, "ws-" + re.sub(r"[^A-Za-z0-9]+", "-", name))
    shutil.copytree(demo, directory, symlinks=True)
    if os.path.isdir(EXAMPLES):
        for entry in sorted(os.listdir(EXAMPLES)):
            source = os.path.join(EXAMPLES, entry)
            target = os.path.join(directory, entry)
            if os.path.isdir(source):
                shutil.copytree(source, target, symlinks=True)
            else:
                shutil.copy2(source, target)
    for configuration in ("debug", "release"):
        built = os.path.join(directory, ".build", configuration)
        os.makedirs(built)
        os.symlink(binary, os.path.join(built, "purchase-sli"))
    return directory


def environment(binary):
    """The commands' environment: no PURCHASE_SLI_ variable, UTC, the binary on PATH."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PURCHASE_SLI_")}
    env["TZ"] = "UTC"
    env["COLUMNS"] = "100"
    env["PATH"] = os.path.dirname(binary) + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    return env


def check_file(path, binary, scratch, demo):
    """Checks one file; returns its failures as text and how many commands it ran."""
    name = os.path.relpath(path, ROOT)
    failures = []
    commands = 0
    directory = None
    for first_line, info, body, before in blocks(path):
        if info in ("sh", "bash", "shell"):
            runs = [line for line in body if re.search(r"(^|[\s;&|(/])purchase-sli\s", line) and not line.lstrip().startswith("#")]
            if runs and not before.startswith("<!-- not run:"):
                failures.append(f"{name}:{first_line}: a ```{info} block runs purchase-sli: show it as a ```console "
                                f"session, or say why it cannot run in <!-- not run: REASON --> on the line before")
            continue
        if info != "console":
            continue
        try:
            steps = sessions(body, first_line)
        except ValueError as error:
            failures.append(f"{name}:{error}")
            continue
        if directory is None:
            directory = workspace(binary, scratch, demo, name)
        for number, command, expected in steps:
            try:
                run = subprocess.run(["bash", "-c", command], cwd=directory, env=environment(binary),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT)
            except subprocess.TimeoutExpired:
                failures.append(f"{name}:{number}: `{command}` ran over {COMMAND_TIMEOUT} s")
                continue
            actual = [line.rstrip() for line in run.stdout.split("\n")]
            while actual and not actual[-1]:
                actual.pop()
            status = re.fullmatch(r"\[exit (\d+)\]", expected[-1]) if expected else None
            shown = expected[:-1] if status else expected
            commands += 1
            if run.returncode != (int(status.group(1)) if status else 0):
                failures.append(f"{name}:{number}: `{command}` exited {run.returncode}"
                                + (f", not {status.group(1)} as shown" if status else " (show [exit N] after its output if it should)")
                                + " and printed:\n" + "\n".join(actual))
            elif not matches(shown, actual):
                failures.append(f"{name}:{number}: `{command}` printed what the docs do not show.\n--- the docs\n"
                                + "\n".join(shown) + "\n--- the command\n" + "\n".join(actual))
    return failures, commands


def main(arguments):
    if not arguments or not os.access(arguments[0], os.X_OK):
        sys.stderr.write("usage: python3 scripts/check_docs.py BINARY [FILE.md ...]\n")
        return 2
    binary = os.path.abspath(arguments[0])
    files = [os.path.abspath(path) for path in arguments[1:]]
    if not files:
        files = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CONTRIBUTING.md")]
        docs = os.path.join(ROOT, "docs")
        files += sorted(os.path.join(docs, entry) for entry in os.listdir(docs) if entry.endswith(".md")) if os.path.isdir(docs) else []
        files = [path for path in files if os.path.exists(path)]
    with tempfile.TemporaryDirectory(prefix="purchase-sli-docs-") as scratch:
        demo = prepare_demo(binary, scratch)
        failures = []
        commands = 0
        # Each file has a workspace of its own: they run side by side, their results taken in order.
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for found, ran in pool.map(lambda path: check_file(path, binary, scratch, demo), files):
                failures += found
                commands += ran
    for failure in failures:
        print(failure + "\n")
    print(f"docs: {commands} commands of {len(files)} files run, {len(failures)} differ from what the docs show")
    return 1 if failures or commands == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
