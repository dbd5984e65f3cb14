#!/usr/bin/env python3
"""Turns NDJSON SLI events from stdin into InfluxDB line protocol on stdout, one point per event, for
bench/serve-vs-influxdb.sh: measurement purchase_sli, the series dimensions as tags (what InfluxDB
indexes, as purchase-sli keeps a series per combination of them), everything else as fields, the event
time in milliseconds.

Usage: purchase-sli simulate ... | influx-lines.py | make-bodies.py 500 OUT"""
import json
import sys
from datetime import datetime

TAGS = ["actionType", "resultType", "productID", "planID", "groupID", "offerID", "appVersion", "platform",
        "osVersion", "variant", "app"]


def tag(value):
    return str(value).replace("\\", "\\\\").replace(",", "\\,").replace(" ", "\\ ").replace("=", "\\=")


def field(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value}i"
    if isinstance(value, float):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    out = sys.stdout
    for line in sys.stdin:
        event = json.loads(line)
        stamp = datetime.fromisoformat(event.pop("timestamp").replace("Z", "+00:00"))
        millis = int(stamp.timestamp() * 1000 + 0.5)
        tags = "".join(f",{name}={tag(event.pop(name))}" for name in TAGS if event.get(name) not in (None, ""))
        fields = ",".join(f"{name}={field(value)}" for name, value in event.items() if value is not None)
        out.write(f"purchase_sli{tags} {fields} {millis}\n")


if __name__ == "__main__":
    main()
