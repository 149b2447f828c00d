#!/usr/bin/python3
"""Times calls of notify's D-Bus scheduler (io.github.notify.Scheduler1) against a running
`notify daemon` on the session bus of the environment (BENCHMARKS.md, "Scheduling over the
D-Bus service"). Prints one JSON object: milliseconds per case.

  bench.py SINGLE_CALLS BATCH_ROUNDS
"""
import json
import statistics
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(method, parameters):
    start = time.perf_counter()
    try:
        bus.call_sync(NAME, PATH, NAME, method, parameters, None, Gio.DBusCallFlags.NONE, 120000, None)
    except GLib.Error as error:
        # A batch past the 64 limit answers LimitReached once it stored what it keeps.
        if "Scheduler1.Error.LimitReached" not in error.message:
            raise
    return (time.perf_counter() - start) * 1000


def batch(app, count):
    # GVariant's text parser builds the batch before the clock starts.
    items = ", ".join("{'id': <'b%d'>, 'body': <'n %d'>, 'in': <'%dm'>}" % (i, i, 60 + i) for i in range(count))
    return GLib.Variant.parse(GLib.VariantType("(saa{sv})"), "('%s', [%s])" % (app, items), None, None)


def main(argv):
    singles, rounds = int(argv[1]), int(argv[2])
    one = [
        call("Schedule", GLib.Variant("(saa{sv})", ("bench.single", [
            {"id": GLib.Variant("s", "s%d" % (i % 50)), "body": GLib.Variant("s", "one"),
             "in": GLib.Variant("s", "1h")}])))
        for i in range(singles)
    ]
    one.sort()
    result = {"single_p50": statistics.median(one), "single_p95": one[int(len(one) * 0.95) - 1]}
    for size in (64, 1000):
        times = [call("Schedule", batch("bench.b%d.%d" % (size, r), size)) for r in range(rounds)]
        result["batch%d_median" % size] = statistics.median(times)
        result["batch%d_min" % size] = min(times)
    listing = sorted(call("ListPending", GLib.Variant("(s)", ("bench.b64.0",))) for _ in range(50))
    result["list64_p50"] = statistics.median(listing)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
