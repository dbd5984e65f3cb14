#!/usr/bin/env python3
"""The table and the plot of bench/serve-soak.sh: per variant, resident memory between the minute's jobs
after the first 10 minutes and at the end (the issue's test: within 10 %), the minute's peak then and at the
end, open files, CPU, database size, whether the
database counts exactly the events acknowledged, and the 5xx answers; and an SVG of resident memory per
minute, one line per variant.

Usage: soak-report.py WORK_DIR VARIANT..."""
import csv
import json
import os
import sys


def load(work, variant):
    rows = list(csv.DictReader(open(os.path.join(work, f"soak-{variant}.csv"))))
    directory = os.path.join(work, variant)
    totals = json.load(open(os.path.join(directory, "totals.json")))
    reads = json.load(open(os.path.join(directory, "reads.json")))
    counted = int(open(os.path.join(directory, "counted")).read().strip() or 0)
    return rows, totals, reads, counted


def plot(series, path):
    """Resident memory (MB) per minute: per variant a solid line between the minute's jobs and a dashed one
    for the minute's peak, in the variant's colour, with axes: plain SVG, no library."""
    width, height, left, bottom, top, right = 720, 300, 56, 34, 12, 90
    longest = max(len(values) for _, values, _ in series)
    raw = max(max(values) for _, values, _ in series) * 1.05 or 1
    step = next(size * 10 ** magnitude for magnitude in range(0, 7) for size in (1, 2, 2.5, 5) if size * 10 ** magnitude * 5 >= raw)
    highest = step * 5
    colours = ["#1a73e8", "#d93025", "#188038", "#9334e6"]
    x = lambda minute: left + (width - left - right) * (minute - 1) / max(1, longest - 1)
    y = lambda mb: top + (height - top - bottom) * (1 - mb / highest)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for index in range(0, 6):
        mb = step * index
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(mb):.1f}" y2="{y(mb):.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 6}" y="{y(mb) + 4:.1f}" text-anchor="end">{mb:g}</text>')
    for index in range(0, 6):
        minute = 1 + (longest - 1) * index / 5
        parts.append(f'<text x="{x(minute):.1f}" y="{height - bottom + 16}" text-anchor="middle">{minute:.0f}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle">minute (dashed: the minute\'s peak)</text>'
                 f'<text x="12" y="{top + (height - top - bottom) / 2}" transform="rotate(-90 12 {top + (height - top - bottom) / 2})" '
                 'text-anchor="middle">resident memory (MB)</text>')
    names = []
    for name, values, is_peak in series:
        if name not in names:
            names.append(name)
        colour = colours[names.index(name) % len(colours)]
        points = " ".join(f"{x(minute + 1):.1f},{y(value):.1f}" for minute, value in enumerate(values))
        dash = ' stroke-dasharray="5 4" opacity="0.7"' if is_peak else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}"/>')
    # One name per variant, at the end of its solid line, moved down as needed so that none overlap.
    ends = sorted(((y(values[-1]), name) for name, values, is_peak in series if not is_peak), reverse=True)
    placed = []
    for position, name in sorted(ends):
        position = max([position] + [mark + 13 for mark in placed])
        placed.append(position)
        parts.append(f'<text x="{width - right + 6}" y="{position + 4:.1f}" fill="{colours[names.index(name) % len(colours)]}">{name}</text>')
    parts.append("</svg>\n")
    open(path, "w").write("\n".join(parts))


def main(work, variants):
    lines = ["| variant | RSS at 10 min | RSS at end | end ÷ 10 min | minute's peak at 10 min | at end | highest | open files (first–last) | "
             "CPU (mean) | database | counts exact | 5xx |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    series = []
    for variant in variants:
        rows, totals, reads, counted = load(work, variant)
        # The minute's low (between its jobs) where read, else the reading at the minute's end.
        rss = [int(row.get("rss_low_mb") or row["rss_mb"]) for row in rows]
        peaks = [int(row.get("rss_peak_mb") or row["rss_mb"]) for row in rows]
        files = [int(row["open_files"]) for row in rows]
        cpu = [float(row["cpu_percent"]) for row in rows]
        ten = rss[min(9, len(rss) - 1)]
        errors = totals.get("server_errors", 0) + reads["server_errors"]
        at = min(9, len(rss) - 1)
        lines.append(f"| {variant} | {ten} MB | {rss[-1]} MB | {rss[-1] / ten:.2f} | {peaks[at]} MB | {peaks[-1]} MB | {max(peaks)} MB | "
                     f"{files[0]}–{files[-1]} | "
                     f"{sum(cpu) / len(cpu):.1f} % of a core | {rows[-1]['db_mb']} MB | "
                     f"{'yes' if counted == totals['accepted'] else 'NO'} ({counted:,} of {totals['accepted']:,} accepted) | {errors} |")
        series.append((variant, rss, False))
        series.append((variant, peaks, True))
    minutes = len(series[0][1])
    lines.append("")
    lines.append(f"{minutes} minutes; RSS every 10 minutes (between jobs / the minute's peak): " + "; ".join(
        f"{name}{' peak' if is_peak else ''} " + " ".join(str(value) for value in values[9::10]) for name, values, is_peak in series))
    receiver = os.path.join(work, "receiver.json")
    if os.path.exists(receiver):
        lines.append("alert posts received: " + ", ".join(f"{path} {count}" for path, count in sorted(json.load(open(receiver)).items())))
    text = "\n".join(lines) + "\n"
    open(os.path.join(work, "soak.md"), "w").write(text)
    plot(series, os.path.join(work, "soak.svg"))
    print(text + f"(table in {work}/soak.md, plot in {work}/soak.svg)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
