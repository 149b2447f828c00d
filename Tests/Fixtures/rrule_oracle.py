#!/usr/bin/python3
"""Expands RFC 5545 rules with python-dateutil's rrule and zoneinfo: an implementation of
calendar rules that shares no code with notify's, for RecurrenceOracleTests.

    /usr/bin/python3 rrule_oracle.py < cases.json > results.json

stdin:  {"cases": [{"rule": "FREQ=WEEKLY;BYDAY=MO,WE", "exdates": ["20261224T090000"],
                    "zone": "Europe/Berlin", "start": "2026-03-29T02:30:00",
                    "end": "2026-06-01T00:00:00"}, ...]}
        start is DTSTART and end the last wall-clock time to expand to, both in the zone.
stdout: {"results": [[1774747800, ...] or {"partial": [...]} or null, ...]}: per case the occurrences' instants
        (whole Unix seconds), sorted, each once; null when dateutil found nothing within
        two seconds (a rule that never fires makes dateutil walk to year 9999) or refused
        the rule as one that makes nothing (INTERVAL never reaches BYHOUR or BYMINUTE);
        {"partial": [...]} when the two seconds ran out after some: the ones found so far.

DTSTART is an aware datetime with fold=0, so converting an occurrence to an instant moves
a time in a DST gap forward by the gap and takes a repeated hour's first instance (PEP 495),
which is SPEC.md §2's rule. Two wall-clock times that land on one instant count once.
EXDATE times are aware in the same zone, compared as wall-clock times, as dateutil does.
"""

import json
import signal
import sys
from datetime import datetime

try:
    from zoneinfo import ZoneInfo
    from dateutil.rrule import rrulestr, rruleset
except ImportError as error:
    sys.exit(f"rrule_oracle: {error} (Debian: apt-get install python3-dateutil)")


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


def expand(case):
    zone = ZoneInfo(case["zone"])
    start = datetime.fromisoformat(case["start"]).replace(tzinfo=zone)
    end = datetime.fromisoformat(case["end"]).replace(tzinfo=zone)
    rules = rruleset()
    try:
        rules.rrule(rrulestr(case["rule"], dtstart=start))
    except ValueError:
        # "Invalid rrule byxxx generates an empty set": INTERVAL never reaches BYHOUR/BYMINUTE.
        return None
    for text in case["exdates"]:
        rules.exdate(datetime.strptime(text, "%Y%m%dT%H%M%S").replace(tzinfo=zone))
    instants = set()
    signal.alarm(2)
    try:
        for occurrence in rules:
            # Same tzinfo: compared as wall-clock times, as the rule makes them.
            if occurrence.replace(tzinfo=None) > end.replace(tzinfo=None):
                break
            instants.add(int(occurrence.timestamp()))
    except Timeout:
        # A busy machine can cut a long expansion short: say how far it got.
        return None if not instants else {"partial": sorted(instants)}
    finally:
        signal.alarm(0)
    return sorted(instants)


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    cases = json.load(sys.stdin)["cases"]
    json.dump({"results": [expand(c) for c in cases]}, sys.stdout)


if __name__ == "__main__":
    main()
