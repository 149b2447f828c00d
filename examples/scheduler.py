#!/usr/bin/python3
"""notify's D-Bus scheduler from Python, with the distribution's python3-gi (no pip):
says which click launched it (when one did) and which buttons were picked while it was
closed, schedules a reminder with two buttons,
prints what happens to it while it runs (Delivered, Activated with the button's key,
Dismissed), and withdraws it from the screen after a click on "Done". docs/dbus.md documents every method and key.

  examples/scheduler.py [--app org.example.Reminder] [--in 10s]

Needs `notify daemon` on the session bus, or the installed activation file (scripts/
install.sh), which starts it on this call.
"""
import argparse

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app", default="org.example.Reminder")
    parser.add_argument("--in", dest="delay", default="10s")
    options = parser.parse_args()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    scheduler = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, NAME, PATH, NAME, None)

    def heard(_proxy, _sender, signal, parameters):
        app, nid, *rest = parameters.unpack()
        print(signal, nid, rest)
        if signal == "Activated" and rest[0].get("action") == "done":
            try:
                scheduler.call_sync("Withdraw", GLib.Variant("(sas)", (options.app, [nid])), 0, -1, None)
            except GLib.Error as error:  # already gone from the screen
                print("not withdrawn:", error.message)
            loop.quit()

    # Started by a click while no process of the app ran (notify opens the app's desktop
    # entry then)? The click waits in the store, taken once.
    found, response = scheduler.call_sync(
        "TakeLaunchResponse", GLib.Variant("(s)", (options.app,)), 0, -1, None).unpack()
    if found:
        print("launched by a click on", response["id"], "action", response["actionKey"])
    # Buttons picked while no process of the app ran, and that do not open it, waited in
    # the store too: each is taken once (version 3 of the interface).
    (waited,) = scheduler.call_sync("TakeResponses", GLib.Variant("(s)", (options.app,)), 0, -1, None).unpack()
    for answer in waited:
        print("while closed:", answer["id"], "action", answer["actionKey"])
    scheduler.connect("g-signal", heard)
    # Signals are sent to the app's subscribed connections only.
    scheduler.call_sync("Subscribe", GLib.Variant("(s)", (options.app,)), 0, -1, None)
    request = {
        "title": GLib.Variant("s", "Stretch"),
        "body": GLib.Variant("s", "Time for a short break"),
        "in": GLib.Variant("s", options.delay),
        "userInfo": GLib.Variant("a{sv}", {"source": GLib.Variant("s", "scheduler.py")}),
        "actions": GLib.Variant(
            "aa{sv}",
            [
                {"key": GLib.Variant("s", "done"), "title": GLib.Variant("s", "Done")},
                {"kind": GLib.Variant("s", "snooze"), "seconds": GLib.Variant("u", 300)},
            ],
        ),
    }
    try:
        reply = scheduler.call_sync("Schedule", GLib.Variant("(saa{sv})", (options.app, [request])), 0, -1, None)
    except GLib.Error as error:
        print("not scheduled:", error.message)
        return 1
    ids, discarded = reply.unpack()
    print("scheduled", ids[0], "in", options.delay, "; discarded:", discarded or "none")
    loop = GLib.MainLoop()
    loop.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
