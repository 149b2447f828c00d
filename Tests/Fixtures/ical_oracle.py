#!/usr/bin/env python3
"""Lists the alarm instants of iCalendar texts with recurring-ical-events (and icalendar):
an implementation of calendars, recurrences and alarms that shares no code with notify's,
for CalendarOracleTests. Run it with the interpreter of the venv .ci/install-packages makes
(NOTIFY_ICAL_ORACLE_PYTHON, default /var/cache/notify-ci/ical-oracle/bin/python).

    TZ=Europe/Berlin python ical_oracle.py < cases.json > results.json

stdin:  {"cases": [{"ics": "BEGIN:VCALENDAR...", "from": "2026-12-01T00:00:00Z",
                    "to": "2027-01-01T00:00:00Z"}, ...]}
stdout: {"versions": {...}, "results": [[{"uid", "recurrenceId", "fireDate", "action",
         "summary", "allDay"}, ...] or {"error": "..."}, ...]}

Each result lists the alarm instants in [from, to), soonest first: fireDate is RFC 3339
UTC (a floating time is read in the system zone, TZ, with fold=0); recurrenceId is null
for an item that does not repeat, the override's RECURRENCE-ID for an override, and the
occurrence's start for an occurrence of a repeating item (one a RANGE=THISANDFUTURE
override applies to included), both RFC 3339 UTC. Left out, as
notify leaves them out: alarms whose ACTION is not DISPLAY or AUDIO, occurrences of items
with STATUS:CANCELLED, and instants at or before the alarm's ACKNOWLEDGED or the item's
X-MOZ-LASTACK. allDay marks an item whose start is a DATE: recurring-ical-events adds the
trigger to the date itself there (date arithmetic drops the time), which the test does
not compare.
"""

import datetime
import json
from importlib import metadata
import os
import sys
from datetime import timezone

try:
    import icalendar
    import recurring_ical_events
    from zoneinfo import ZoneInfo
except ImportError as error:
    sys.exit(f"ical_oracle: {error} (bash .ci/install-packages makes the venv)")

SYSTEM_ZONE = ZoneInfo(os.environ.get("TZ", "UTC").lstrip(":") or "UTC")


def utc(value):
    """An aware UTC datetime of a date-time (floating: in the system zone, fold=0)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=SYSTEM_ZONE)
        return value.astimezone(timezone.utc)
    return datetime.datetime(value.year, value.month, value.day, tzinfo=SYSTEM_ZONE).astimezone(timezone.utc)


def text(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def component_of(parent):
    adapter = getattr(parent, "_adapter", parent)
    return adapter._component


def expand(case):
    calendar = icalendar.Calendar.from_ical(case["ics"])
    start = datetime.datetime.fromisoformat(case["from"].replace("Z", "+00:00"))
    end = datetime.datetime.fromisoformat(case["to"].replace("Z", "+00:00"))
    query = recurring_ical_events.of(calendar, components=["VALARM"])
    margin = datetime.timedelta(days=2)
    found = []
    for occurrence in query._occurrences_between(start - margin, end + margin):
        alarm = occurrence.alarm
        parent = occurrence.parent
        component = component_of(parent)
        action = str(alarm.get("ACTION", "")).upper()
        if action not in ("DISPLAY", "AUDIO"):
            continue
        if str(component.get("STATUS", "")).upper() == "CANCELLED":
            continue
        all_day = not isinstance(parent.start, datetime.datetime)
        if all_day:
            found.append({"uid": str(component.get("UID")), "allDay": True, "fireDate": None,
                          "action": action, "summary": component.get("SUMMARY"), "recurrenceId": None})
            continue
        fire = utc(occurrence.start)
        if not (start <= fire < end):
            continue
        acknowledged = alarm.get("ACKNOWLEDGED")
        if acknowledged is not None and utc(acknowledged.dt) >= fire:
            continue
        last_ack = component.get("X-MOZ-LASTACK")
        if last_ack is not None and utc(icalendar.vDDDTypes.from_ical(str(last_ack))) >= fire:
            continue
        rid = component.get("RECURRENCE-ID")
        if rid is not None and hasattr(parent, "_adapter") and str(rid.params.get("RANGE", "")).upper() == "THISANDFUTURE" \
                and utc(parent.start) != utc(component["DTSTART"].dt):
            # A later occurrence the override applies to (notify's tests move none): its own start.
            recurrence = text(utc(parent.start))
        elif rid is not None:
            recurrence = text(utc(rid.dt))
        elif component.get("RRULE") is not None or component.get("RDATE") is not None:
            # An absolute alarm of a repeating item goes off once, for the item.
            recurrence = None if occurrence.parent is component_of(parent) or not hasattr(parent, "_adapter") else text(utc(parent.start))
        else:
            recurrence = None
        summary = component.get("SUMMARY")
        found.append({"uid": str(component.get("UID")), "recurrenceId": recurrence, "fireDate": text(fire),
                      "action": action, "summary": None if summary is None else str(summary), "allDay": False})
    found.sort(key=lambda a: (a["fireDate"] or "", a["uid"], a["recurrenceId"] or ""))
    return found


def main():
    cases = json.load(sys.stdin)["cases"]
    results = []
    for case in cases:
        try:
            results.append(expand(case))
        except Exception as error:  # noqa: BLE001 - reported per case, the others go on
            results.append({"error": f"{type(error).__name__}: {error}"})
    versions = {name: metadata.version(name) for name in ("icalendar", "recurring-ical-events")}
    json.dump({"versions": versions, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
