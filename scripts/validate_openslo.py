#!/usr/bin/env python3
"""Checks OpenSLO v1 YAML documents against the spec's JSON schemas (Tests/Fixtures/openslo-v1).

Usage: python3 scripts/validate_openslo.py FILE.yaml [...]   (FILE "-" reads standard input)

Each document of each file (documents separated by ---) is validated against openslo.schema.json, its
$refs resolved from the vendored parts (no network). Prints one line per document that fails, naming the
file, the document, the path in it and the schema's most relevant message; exit status 0 when all pass, 1 when some
fail, 2 when the script cannot run (jsonschema or PyYAML missing, a file unreadable).
"""
import glob
import json
import os
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:
    print(f"validate_openslo.py needs jsonschema and PyYAML (python3-jsonschema, python3-yaml): {error}", file=sys.stderr)
    sys.exit(2)

SCHEMAS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Fixtures", "openslo-v1")


def validator():
    """A draft-07 validator of openslo.schema.json whose $refs resolve to the vendored files by their $id."""
    schemas = {}
    for path in glob.glob(os.path.join(SCHEMAS, "**", "*.schema.json"), recursive=True):
        with open(path, encoding="utf-8") as file:
            schema = json.load(file)
        schemas[schema["$id"]] = schema
    root = schemas["https://openslo.com/schemas/v1/openslo.schema.json"]
    try:  # jsonschema 4.18 and later
        from referencing import Registry, Resource

        registry = Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in schemas.items())
        return jsonschema.Draft7Validator(root, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10
        resolver = jsonschema.RefResolver(base_uri=root["$id"], referrer=root, store=schemas)
        return jsonschema.Draft7Validator(root, resolver=resolver)


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    check = validator()
    failures = 0
    for path in paths:
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as error:
            print(f"{path}: {error}", file=sys.stderr)
            return 2
        for index, document in enumerate(yaml.safe_load_all(text), start=1):
            if document is None:
                continue
            errors = list(check.iter_errors(document))
            if errors:
                # The most relevant error, looked for inside the oneOf of the document kinds.
                error = jsonschema.exceptions.best_match(errors)
                where = "/".join(str(part) for part in error.absolute_path) or "(document)"
                print(f"{path}, document {index}: {where}: {error.message[:300]}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
