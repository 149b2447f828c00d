#!/usr/bin/env python3
"""The firing table from the raw figures Benchmarks/firing-table.sh leaves in WORK.

    firing_table.py WORK REPEATS

Latency ratios are taken round by round (the daemon against the floor of the same round),
then the median of the rounds is given with their range; absolute figures are medians of
the rounds too."""
import csv
import glob
import os
import re
import statistics
import sys

work, repeats = sys.argv[1], int(sys.argv[2])


def read(name):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return "(none)"
    with open(path) as f:
        return f.read().strip()


def us(value):
    return f"{value / 1000:.1f} ms" if value >= 1000 else f"{value:.0f} µs"


def spread(values, show):
    values = sorted(values)
    if not values:
        return "n/a"
    middle = show(statistics.median(values))
    return middle if len(values) == 1 else f"{middle} ({show(values[0])}-{show(values[-1])})"


def verdict(met):
    return "met" if met else "**missed**"


rounds = {}
latency_file = os.path.join(work, "latency.tsv")
with open(latency_file if os.path.exists(latency_file) else os.devnull) as f:
    for row in csv.DictReader(f, delimiter="\t"):
        rounds.setdefault((int(row["burst"]), int(row["spacing_ms"])), []).append(
            {k: float(v) for k, v in row.items()})

rows = []


def latency(key, what):
    got = rounds.get(key, [])
    if not got:
        rows.append((what, "no figures", "", "", "", ""))
    return got


ratio = lambda v: f"{v:.2f}x"
burst5 = latency((5, 500), "5 at one instant")
if burst5:
    ratios = [r["daemon_p50_us"] / r["floor_p50_us"] for r in burst5]
    p99 = [r["daemon_p99_us"] for r in burst5]
    rows.append((
        "5 at one instant (20 instants 0.5 s apart): p50 / floor", spread(ratios, ratio),
        spread([r["daemon_p50_us"] for r in burst5], us) + " / " + spread([r["floor_p50_us"] for r in burst5], us),
        "≤ 1.5x", verdict(statistics.median(ratios) <= 1.5), ""))
    rows.append((
        "5 at one instant: daemon p99", spread(p99, us), "floor p99 " + spread([r["floor_p99_us"] for r in burst5], us),
        "< 2 ms", verdict(statistics.median(p99) < 2000), ""))
def raw_lasts(name, burst):
    """Per round and system, the due-to-last-line latency (µs) of each instant, in order."""
    lasts = {}
    path = os.path.join(work, name)
    if os.path.exists(path):
        for line in open(path):
            system, round_, index, latency = line.rstrip("\n").split("\t")
            key = (system, int(round_))
            instant = int(index) // burst
            by = lasts.setdefault(key, {})
            by[instant] = max(by.get(instant, 0.0), float(latency))
    return {key: [by[i] for i in sorted(by)] for key, by in lasts.items()}


burst1000 = latency((1000, 2000), "1000 at one instant")
if burst1000:
    last = [r["daemon_last_max_us"] for r in burst1000]
    rows.append((
        "1000 at one instant (5 instants 2 s apart): last line after due, max of 5", spread(last, us),
        "floor " + spread([r["floor_last_max_us"] for r in burst1000], us) + "; daemon p50 "
        + spread([r["daemon_p50_us"] for r in burst1000], us),
        "≤ 20 ms", verdict(statistics.median(last) <= 20000), ""))
    # The first instant of a round comes soon after the daemon started; the others show the
    # burst alone.
    later = [max(v[1:]) for (system, _), v in raw_lasts("raw-burst1000.tsv", 1000).items()
             if system == "notify daemon" and len(v) > 1]
    if later:
        rows.append((
            "1000 at one instant: last line after due, max of instants 2-5", spread(later, us),
            "the first instant of each round: " + spread(
                [v[0] for (system, _), v in raw_lasts("raw-burst1000.tsv", 1000).items()
                 if system == "notify daemon"], us),
            "", "", ""))
single = latency((1, 500), "single arrivals")
if single:
    ratios = [r["daemon_p50_us"] / r["floor_p50_us"] for r in single]
    rows.append((
        "single arrivals 0.5 s apart (100): p50 / floor", spread(ratios, ratio),
        spread([r["daemon_p50_us"] for r in single], us) + " / " + spread([r["floor_p50_us"] for r in single], us)
        + "; daemon p99 " + spread([r["daemon_p99_us"] for r in single], us),
        "≤ 1.3x", verdict(statistics.median(ratios) <= 1.3), ""))

wakeups, rss = [], []
for path in sorted(glob.glob(os.path.join(work, "idle-*.md"))):
    m = re.search(r"\| notify daemon \| ([\d.]+) \| ([\d.]+) MiB \|", open(path).read())
    if m:
        wakeups.append(float(m.group(1)))
        rss.append(float(m.group(2)))
if rss:
    rows.append(("idle, 64 pending an hour away: wake-ups per minute", spread(wakeups, lambda v: f"{v:g}"),
                 f"{len(rss)} daemons", "0", verdict(max(wakeups) == 0), ""))
    rows.append(("idle RSS", spread(rss, lambda v: f"{v:.1f} MiB"), "", "< 16 MiB",
                 verdict(statistics.median(rss) < 16), ""))
else:
    rows.append(("idle", "no figures", "", "", "", ""))

counts = {}
pattern = re.compile(r"(\w+), (\d+) at one instant: (\d+) reads \((\d+) of them.*\), (\d+) writes")
if os.path.exists(os.path.join(work, "transactions.txt")):
    for line in read("transactions.txt").splitlines():
        m = pattern.match(line)
        if m:
            sink, n, reads, filt, writes = m.group(1), *map(int, m.groups()[1:])
            counts.setdefault((sink, n), []).append((reads - filt, filt, writes))
for (sink, n), runs in sorted(counts.items()):
    own = [r + w for r, _, w in runs]
    detail = ", ".join(f"{r} reads + {w} writes (+{f} filter)" for r, f, w in runs)
    target = "≤ 3" if (sink, n) == ("stdout", 1) else ""
    rows.append((
        f"store transactions, {n} to {sink} (the daemon, without the change filter's PRAGMA data_version)",
        spread(own, lambda v: f"{v:g}"), detail, target,
        verdict(statistics.median(own) <= 3) if target else "", ""))

print(f"### Firing figures ({repeats} rounds)")
print()
print(f"load before: {read('load-before')}  ")
print(f"load after:  {read('load-after')}  ")
if os.path.exists(os.path.join(work, "policy")):
    print(f"{read('policy')}  ")
print()
print("| what | median (range) | detail | target | |")
print("|---|---|---|---|---|")
for what, value, detail, target, met, _ in rows:
    print(f"| {what} | {value} | {detail} | {target} | {met} |")
