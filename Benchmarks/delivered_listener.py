#!/usr/bin/python3
"""Subscribes to APP on notify's D-Bus service and appends, for each Delivered signal, one
line `ID MS` to RECORD: how many milliseconds after the notification's instant (its
fireDateMs) the signal reached this process. Prints `ready` once subscribed.
Used by Benchmarks/store-reads.sh.

  delivered_listener.py APP RECORD
"""
import sys
import time

from gi.repository import Gio, GLib

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"


def main(argv):
    app, record_path = argv[1], argv[2]
    record = open(record_path, "a", buffering=1)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def heard(_connection, _sender, _path, _interface, member, parameters):
        arrived = time.time() * 1000
        if member != "Delivered":
            return
        _, identifier, details = parameters.unpack()
        instant = details.get("fireDateMs")
        if instant is not None:
            record.write(f"{identifier} {arrived - instant:.2f}\n")

    bus.signal_subscribe(None, NAME, "Delivered", PATH, None, Gio.DBusSignalFlags.NONE, heard)
    bus.call_sync(NAME, PATH, NAME, "Subscribe", GLib.Variant("(s)", (app,)), None,
                  Gio.DBusCallFlags.NONE, 10000, None)
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
