#!/usr/bin/python3
"""Floods notify's D-Bus scheduler (io.github.notify.Scheduler1) with `Schedule` calls, one
batch of 64 after the other for one app, as fast as it can, until SIGTERM (BENCHMARKS.md,
"The D-Bus service"). The batch's ids repeat,
so each call replaces the app's 64 pending notifications (due in an hour: none fires).

  flood.py [--batch N] REPORT [APP]

--batch sets the requests per call (default 64; ids f0 to fN-1).

Waits (up to 20 s) for the service on the session bus of the environment, then calls.
On SIGTERM it writes to REPORT one JSON object: the first call's start (CLOCK_REALTIME,
seconds), the calls answered, errors, and the seconds it flooded.
"""
import json
import signal
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"


def main(argv):
    size = 64
    if argv[1:2] == ["--batch"]:
        size, argv = int(argv[2]), argv[:1] + argv[3:]
    report, app = argv[1], argv[2] if len(argv) > 2 else "bench.flood"
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    deadline = time.monotonic() + 20
    while True:
        owned = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "NameHasOwner", GLib.Variant("(s)", (NAME,)), None, Gio.DBusCallFlags.NONE,
                              1000, None).unpack()[0]
        if owned:
            break
        if time.monotonic() > deadline:
            sys.exit("flood: %s did not appear on the bus within 20 s" % NAME)
        time.sleep(0.01)
    items = ", ".join("{'id': <'f%d'>, 'body': <'flood %d'>, 'in': <'1h'>}" % (i, i) for i in range(size))
    batch = GLib.Variant.parse(GLib.VariantType("(saa{sv})"), "('%s', [%s])" % (app, items), None, None)
    state = {"first": time.time(), "calls": 0, "errors": 0}
    started = time.monotonic()

    def finish(*_):
        state["seconds"] = time.monotonic() - started
        with open(report, "w") as out:
            json.dump(state, out)
        sys.exit(0)

    signal.signal(signal.SIGTERM, finish)
    while True:
        try:
            bus.call_sync(NAME, PATH, NAME, "Schedule", batch, None, Gio.DBusCallFlags.NONE, 60000, None)
            state["calls"] += 1
        except GLib.Error:
            state["errors"] += 1


if __name__ == "__main__":
    main(sys.argv)
