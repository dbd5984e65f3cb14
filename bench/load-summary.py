#!/usr/bin/env python3
"""Prints "events/s p50 p90 p99 max" (latencies in ms) from the output of bench/serve-load.sh.
Usage: load-summary.py OUTPUT_FILE"""
import re
import sys

UNITS = {"us": 0.001, "ms": 1, "s": 1000}


def main(path):
    text = open(path).read()

    def ms(label):
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
        return float(value) * UNITS[unit]

    rate = re.search(r"events acknowledged in \d+ s: (\d+) events/s", text).group(1)
    maximum, unit = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", text).groups()
    print(rate, ms("50%"), ms("90%"), ms("99%"), float(maximum) * UNITS[unit])


if __name__ == "__main__":
    main(sys.argv[1])
