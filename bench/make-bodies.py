#!/usr/bin/env python3
"""Packs NDJSON events from stdin into gzip bodies of N events each for the load test:
a file of [4-byte big-endian length][gzip body] records.

Usage: make-bodies.py EVENTS_PER_BODY OUT [SPAN_MINUTES]

Without SPAN_MINUTES (or 0) a body holds consecutive events, as a live stream sends them. With it,
the time-ordered input is cut into windows of SPAN_MINUTES and each window's events are dealt round
robin into its bodies, so that every body spans the whole window: the backlog that clients flush
after an outage, each batch holding events from tens of minutes."""
import struct
import sys
import zlib


def main(per_body, out_path, span_minutes):
    bodies = 0
    with open(out_path, "wb") as out:
        if span_minutes == 0:
            batch = []
            for line in sys.stdin.buffer:
                batch.append(line)
                if len(batch) == per_body:
                    write(out, batch)
                    bodies += 1
                    batch = []
            if batch:
                write(out, batch)
                bodies += 1
        else:
            window, window_start = [], None
            for line in sys.stdin.buffer:
                minute = minutes(line)
                if window_start is None:
                    window_start = minute
                if minute - window_start >= span_minutes:
                    bodies += deal(out, window, per_body)
                    window, window_start = [], minute
                window.append(line)
            bodies += deal(out, window, per_body)
    layout = f"each spanning {span_minutes} minutes" if span_minutes else "of consecutive events"
    print(f"{bodies} bodies of up to {per_body} events, {layout}")


def minutes(line):
    """Minutes since the epoch of an event's RFC 3339 timestamp (UTC, as simulate writes it)."""
    at = line.index(b'"timestamp":"') + 13
    year, month, day = int(line[at:at + 4]), int(line[at + 5:at + 7]), int(line[at + 8:at + 10])
    hour, minute = int(line[at + 11:at + 13]), int(line[at + 14:at + 16])
    return ((days_from_civil(year, month, day) * 24 + hour) * 60) + minute


def days_from_civil(year, month, day):
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def deal(out, window, per_body):
    """Writes the window's events as bodies of per_body events, body k holding events k, k+B, k+2B…"""
    count = (len(window) + per_body - 1) // per_body
    for k in range(count):
        write(out, window[k::count])
    return count


def write(out, batch):
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip wrapper, fast level
    body = compressor.compress(b"".join(batch)) + compressor.flush()
    out.write(struct.pack(">I", len(body)) + body)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
