#!/usr/bin/python3
"""Answers zone questions with Python's zoneinfo, the oracle for notify's Zone.

stdin: lines, each one of
  i ZONE UNIX             -> "OFFSET DST ABBR": UTC offset (s), 1 when dst() is not zero, tzname
  w ZONE Y M D h m s      -> "UNIX": the instant of that wall-clock time with fold=0
                             (SPEC.md section 2: a gap moves forward, a repeat takes the first)
TZDIR (when set) is where zones are read from, as notify does.
"""
import os
import sys
from datetime import datetime, timedelta, timezone
import zoneinfo
from zoneinfo import ZoneInfo

if os.environ.get("TZDIR"):
    zoneinfo.reset_tzpath([os.environ["TZDIR"]])

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
zones = {}


def zone(name):
    if name not in zones:
        zones[name] = ZoneInfo(name)
    return zones[name]


out = []
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    if parts[0] == "i":
        z = zone(parts[1])
        local = (EPOCH + timedelta(seconds=int(parts[2]))).astimezone(z)
        offset = int(local.utcoffset().total_seconds())
        dst = 1 if local.dst() else 0
        out.append(f"{offset} {dst} {local.tzname()}")
    elif parts[0] == "w":
        z = zone(parts[1])
        y, mo, d, h, mi, s = map(int, parts[2:8])
        local = datetime(y, mo, d, h, mi, s, tzinfo=z, fold=0)
        out.append(str(int((local - EPOCH).total_seconds())))
    else:
        raise SystemExit(f"unknown question {parts[0]!r}")
sys.stdout.write("\n".join(out) + "\n")
