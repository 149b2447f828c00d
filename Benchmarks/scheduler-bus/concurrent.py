#!/usr/bin/python3
"""CLIENTS processes call notify's D-Bus scheduler at once, each CALLS `Schedule` of one
request back to back on a connection of its own (an app each, so the 64 limit discards
nothing). Prints one JSON object: the calls per second of them all, from the moment they
are released together to the last answer, and each answer's p50 and p95.

  concurrent.py CLIENTS CALLS
"""
import json
import os
import statistics
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"


def client(index, calls, release, report):
    bus = Gio.DBusConnection.new_for_address_sync(
        os.environ["DBUS_SESSION_BUS_ADDRESS"],
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    requests = [GLib.Variant("(saa{sv})", ("bench.c%d" % index, [
        {"id": GLib.Variant("s", "s%d" % (i % 50)), "body": GLib.Variant("s", "one"),
         "in": GLib.Variant("s", "%dm" % (60 + i % 50))}])) for i in range(calls)]
    os.read(release, 1)
    times = []
    for request in requests:
        start = time.perf_counter()
        bus.call_sync(NAME, PATH, NAME, "Schedule", request, None, Gio.DBusCallFlags.NONE, 120000, None)
        times.append((time.perf_counter() - start) * 1000)
    os.write(report, (json.dumps(times) + "\n").encode())


def main(argv):
    clients, calls = int(argv[1]), int(argv[2])
    release_read, release_write = os.pipe()
    report_read, report_write = os.pipe()
    children = []
    for index in range(clients):
        pid = os.fork()
        if pid == 0:
            os.close(release_write)
            client(index, calls, release_read, report_write)
            os._exit(0)
        children.append(pid)
    time.sleep(0.5)  # every client connected and its requests built
    start = time.perf_counter()
    os.write(release_write, b"x" * clients)
    for pid in children:
        os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(report_write)
    data = b""
    while True:
        chunk = os.read(report_read, 65536)
        if not chunk:
            break
        data += chunk
    times = sorted(t for line in data.decode().splitlines() for t in json.loads(line))
    print(json.dumps({
        "calls_per_second": clients * calls / elapsed,
        "p50": statistics.median(times),
        "p95": times[int(len(times) * 0.95)],
    }))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
