#!/usr/bin/python3
"""Says whether a weekly quiet-hours schedule is quiet at given instants, with Python's own
calendar and zoneinfo: an implementation of SPEC.md §2 and the quiet-hours rules that shares no code
with notify's, for QuietHoursOracleTests.

    /usr/bin/python3 quiet_oracle.py < cases.json > results.json

stdin:  {"cases": [{"zone": "Europe/Berlin", "from": "22:00", "to": "07:00",
                    "days": [1, 2, 3, 4, 5], "instants": [1774735200, ...]}, ...]}
        days are ISO weekdays (Monday 1 ... Sunday 7), instants whole Unix seconds.
stdout: {"results": [[true, false, ...], ...]}, one list per case, in order.

The rules: a period starts on each of the days at `from` and ends at the next `to`, the same
day when `to` is later than `from`, else the day after. A wall-clock time inside a DST gap
moves forward by the gap and one in a repeated hour is its first instance; that is exactly
what an aware datetime with fold=0 means (PEP 495), so `.timestamp()` resolves both ends. A
period is [start, end), empty when the ends cross. Exits 1 with a message on stderr when
zoneinfo or a zone is missing.
"""

import json
import sys
from datetime import date, datetime, timedelta

try:
    from zoneinfo import ZoneInfo
except ImportError:
    sys.exit("quiet_oracle: Python's zoneinfo module is missing (needs Python 3.9 or later)")


def resolve(day: date, hour: int, minute: int, zone: ZoneInfo) -> float:
    """The instant of a wall-clock time: fold=0 is the first instance, or before a gap's offset."""
    return datetime(day.year, day.month, day.day, hour, minute, fold=0, tzinfo=zone).timestamp()


def is_quiet(case: dict, zone: ZoneInfo, instant: int) -> bool:
    from_hour, from_minute = (int(part) for part in case["from"].split(":"))
    to_hour, to_minute = (int(part) for part in case["to"].split(":"))
    ends_next_day = (to_hour, to_minute) <= (from_hour, from_minute)
    local_date = datetime.fromtimestamp(instant, zone).date()
    # A period is at most a day and a DST shift long: the ones starting from three days
    # before the local date to two after are more than enough.
    for shift in range(-3, 3):
        start_day = local_date + timedelta(days=shift)
        if start_day.isoweekday() not in case["days"]:
            continue
        end_day = start_day + timedelta(days=1) if ends_next_day else start_day
        start = resolve(start_day, from_hour, from_minute, zone)
        end = resolve(end_day, to_hour, to_minute, zone)
        if start <= instant < end:
            return True
    return False


def main() -> None:
    cases = json.load(sys.stdin)["cases"]
    results = []
    for case in cases:
        try:
            zone = ZoneInfo(case["zone"])
        except Exception as error:  # ZoneInfoNotFoundError, or no tzdata at all
            sys.exit(f"quiet_oracle: no zone {case['zone']}: {error}")
        results.append([is_quiet(case, zone, instant) for instant in case["instants"]])
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
