#!/usr/bin/env python3
"""Packs NDJSON events from stdin into gzip bodies of N events each for the load test:
a file of [4-byte big-endian length][gzip body] records. Usage: make-bodies.py EVENTS_PER_BODY OUT"""
import struct
import sys
import zlib


def main(per_body, out_path):
    bodies = 0
    with open(out_path, "wb") as out:
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
    print(f"{bodies} bodies of up to {per_body} events")


def write(out, batch):
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip wrapper, fast level
    body = compressor.compress(b"".join(batch)) + compressor.flush()
    out.write(struct.pack(">I", len(body)) + body)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
