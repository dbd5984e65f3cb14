#!/usr/bin/env python3
"""Holds the router to openapi.yaml: the routes it serves and the answers it gave.

Usage: python3 scripts/check_openapi.py EXCHANGES.json [openapi.yaml]

EXCHANGES.json (written by the API contract test, ApiContractTests) is
  {"routes": [{"method": "GET", "path": "/v1/query"}, ...],
   "exchanges": [{"method": "POST", "route": "/v1/events", "status": 202,
                  "contentType": "application/json; charset=utf-8", "body": "..."}, ...]}
where "routes" is every route the router has and "exchanges" the requests the test made, each named by
the route it called (a template such as /v1/maintenance/{id}) with the answer it got.

Checks, each failure a line naming the route, method and status:
- every route of the router is a path and method of the document, and every path and method of the
  document is a route of the router;
- every path and method of the document was called at least once;
- every answer's status is documented for its path and method;
- when the documented answer has a body, the answer's media type is one documented, and a JSON body is
  valid against the documented schema (its $refs resolved in the document).
Exit status 0 when all pass, 1 when some fail, 2 when the script cannot run.
"""
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:
    print(f"check_openapi.py needs jsonschema and PyYAML (python3-jsonschema, python3-yaml): {error}", file=sys.stderr)
    sys.exit(2)

METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def template(path):
    """A router path in the document's spelling: `:name` and `{name}` captures both become `{name}`."""
    return re.sub(r":([A-Za-z_][A-Za-z0-9_]*)", r"{\1}", path)


def resolved(document, node, seen=()):
    """`node` with every local `$ref` replaced by what it names (the document's schemas hold no cycle)."""
    if isinstance(node, dict):
        if "$ref" in node and isinstance(node["$ref"], str) and node["$ref"].startswith("#/"):
            name = node["$ref"]
            if name in seen:
                raise ValueError(f"{name} refers to itself")
            target = document
            for part in name[2:].split("/"):
                target = target[part]
            rest = {key: value for key, value in node.items() if key != "$ref"}
            return resolved(document, {**target, **rest}, seen + (name,))
        return {key: resolved(document, value, seen) for key, value in node.items()}
    if isinstance(node, list):
        return [resolved(document, value, seen) for value in node]
    return node


def main(arguments):
    if not arguments or len(arguments) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        record = json.load(open(arguments[0], encoding="utf-8"))
        document = yaml.safe_load(open(arguments[1] if len(arguments) > 1 else os.path.join(ROOT, "openapi.yaml"), encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"check_openapi.py: {error}", file=sys.stderr)
        return 2
    failures = []
    documented = {(method.upper(), path): operation for path, item in document.get("paths", {}).items()
                  for method, operation in item.items() if method in METHODS}
    served = {(route["method"].upper(), template(route["path"])) for route in record["routes"]}
    for method, path in sorted(served - set(documented)):
        failures.append(f"{method} {path}: the router serves it; openapi.yaml does not document it")
    for method, path in sorted(set(documented) - served):
        failures.append(f"{method} {path}: openapi.yaml documents it; the router has no such route")
    called = {(exchange["method"].upper(), exchange["route"]) for exchange in record["exchanges"]}
    for method, path in sorted(set(documented) - called):
        failures.append(f"{method} {path}: documented but never called by the contract test")
    for exchange in record["exchanges"]:
        key = (exchange["method"].upper(), exchange["route"])
        name = f"{key[0]} {key[1]} → {exchange['status']}"
        operation = documented.get(key)
        if operation is None:
            failures.append(f"{name}: called, but openapi.yaml does not document {key[0]} {key[1]}")
            continue
        responses = operation.get("responses", {})
        answer = responses.get(str(exchange["status"])) or responses.get("default")
        if answer is None:
            failures.append(f"{name}: status not documented (documented: {', '.join(sorted(responses))})")
            continue
        if "$ref" in answer:
            answer = resolved(document, answer)
        content = answer.get("content")
        if not content:
            continue
        media = (exchange.get("contentType") or "").split(";")[0].strip()
        if media not in content:
            failures.append(f"{name}: answered {media or 'without a Content-Type'}; documented: {', '.join(sorted(content))}")
            continue
        schema = content[media].get("schema")
        if schema is None or not media.endswith("json"):
            continue
        try:
            body = json.loads(exchange["body"])
        except ValueError as error:
            failures.append(f"{name}: the body is not JSON ({error}): {exchange['body'][:200]}")
            continue
        errors = list(jsonschema.Draft202012Validator(resolved(document, schema)).iter_errors(body))
        if errors:
            error = jsonschema.exceptions.best_match(errors)
            where = "/".join(str(part) for part in error.absolute_path) or "(body)"
            failures.append(f"{name}: {where}: {error.message[:300]}")
    for failure in failures:
        print(failure)
    answered = {}
    for exchange in record["exchanges"]:
        answered.setdefault(f"{exchange['method'].upper()} {exchange['route']}", set()).add(exchange["status"])
    for route, statuses in sorted(answered.items()):
        print(f"{route}: {', '.join(str(status) for status in sorted(statuses))}")
    print(f"{len(served)} routes, {len(record['exchanges'])} answers checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
