#!/usr/bin/python3
"""Times calls of notify's D-Bus scheduler (io.github.notify.Scheduler1) against a running
`notify daemon` on the session bus of the environment (BENCHMARKS.md, "The D-Bus service"). Prints one JSON object: milliseconds per case, with the floors of one
call (the bus daemon's GetId, notify's Peer.Ping and Version property) timed in the same
rounds as one Schedule, and as many Schedule calls back to back.

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


def ping(destination, path, interface, method, parameters=None):
    start = time.perf_counter()
    bus.call_sync(destination, path, interface, method, parameters, None, Gio.DBusCallFlags.NONE, 120000, None)
    return (time.perf_counter() - start) * 1000


def main(argv):
    singles, rounds = int(argv[1]), int(argv[2])
    # One call of each kind per round, interleaved, so that the floors share the machine's
    # moment with the call they are the floor of: the bus daemon alone (GetId: the client,
    # one hop and back), notify's sd-bus answering without notify's code (Peer.Ping), notify's
    # handler without the store (the Version property), and one Schedule.
    cases = {
        "bus_getid": lambda i: ping("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId"),
        "notify_ping": lambda i: ping(NAME, PATH, "org.freedesktop.DBus.Peer", "Ping"),
        "notify_version": lambda i: ping(NAME, PATH, "org.freedesktop.DBus.Properties", "Get",
                                         GLib.Variant("(ss)", (NAME, "Version"))),
        "single": lambda i: call("Schedule", GLib.Variant("(saa{sv})", ("bench.single", [
            {"id": GLib.Variant("s", "s%d" % (i % 50)), "body": GLib.Variant("s", "one"),
             "in": GLib.Variant("s", "1h")}]))),
    }
    times = {name: [] for name in cases}
    for i in range(singles):
        for name, case in cases.items():
            times[name].append(case(i))
    # The same Schedule back to back, as a client scheduling many one by one calls it: each
    # call also waits for what the daemon does after the one before (its wake-up, a checkpoint).
    times["back_to_back"] = [call("Schedule", GLib.Variant("(saa{sv})", ("bench.single", [
        {"id": GLib.Variant("s", "t%d" % (i % 50)), "body": GLib.Variant("s", "one"),
         "in": GLib.Variant("s", "1h")}]))) for i in range(singles)]
    result = {}
    for name, values in times.items():
        values.sort()
        result[name + "_p50"] = statistics.median(values)
        result[name + "_p95"] = values[int(len(values) * 0.95) - 1]
    for size in (64, 1000):
        times = [call("Schedule", batch("bench.b%d.%d" % (size, r), size)) for r in range(rounds)]
        result["batch%d_median" % size] = statistics.median(times)
        result["batch%d_min" % size] = min(times)
    listing = sorted(call("ListPending", GLib.Variant("(s)", ("bench.b64.0",))) for _ in range(50))
    result["list64_p50"] = statistics.median(listing)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
