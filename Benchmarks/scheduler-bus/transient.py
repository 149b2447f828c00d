#!/usr/bin/python3
"""One scheduled job made and removed, four ways, interleaved, under a real user manager
(BENCHMARKS.md, "The D-Bus service"):

- `systemd-run --user --on-active=1h --unit U true` (a process; the transient timer U.timer
  and its U.service), removed with `systemctl --user stop U.timer` (a process);
- the same timer made with one `StartTransientUnit` call to the user manager
  (`org.freedesktop.systemd1`, as systemd-run makes it) and removed with `StopUnit`;
- `notify schedule --app bench.cli --id ID --in 1h --title one` (a process), removed with
  `notify cancel --app bench.cli ID`;
- one `Schedule` call of one request to `notify daemon` on the same bus, removed with
  `Cancel`.

  transient.py NOTIFY ROUNDS

Run as the user of the manager, with its environment (Tests/Fixtures/user-manager.sh run):
it starts `notify daemon --sink stdout` (NOTIFY_SCHEDULER=on, a store of its own under
$HOME) on the session bus and stops it at the end. Prints one JSON object: the p50 in
milliseconds of each way's make and remove, over ROUNDS rounds.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"
SYSTEMD = ("org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager")


def timed(body):
    start = time.perf_counter()
    body()
    return (time.perf_counter() - start) * 1000


def run(argv, env=None):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)


def main(argv):
    notify, rounds = argv[1], int(argv[2])
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    folder = tempfile.mkdtemp(prefix="notify-transient.", dir=os.environ["HOME"])
    env = dict(os.environ, NOTIFY_DB=folder + "/notify.db", NOTIFY_SCHEDULER="on")
    with open(folder + "/daemon.err", "w") as err:
        daemon = subprocess.Popen([notify, "daemon", "--sink", "stdout"], env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 20
        while not bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", GLib.Variant("(s)", (NAME,)), None, 0, 1000, None).unpack()[0]:
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("transient: notify daemon did not take %s (%s/daemon.err)" % (NAME, folder))
            time.sleep(0.01)

        def manager(method, parameters):
            bus.call_sync(SYSTEMD[0], SYSTEMD[1], SYSTEMD[2], method, parameters, None, 0, 30000, None)

        def scheduler(method, parameters):
            bus.call_sync(NAME, PATH, NAME, method, parameters, None, 0, 30000, None)

        times = {key: [] for key in (
            "systemd_run", "systemctl_stop", "start_transient_unit", "stop_unit",
            "notify_schedule", "notify_cancel", "bus_schedule", "bus_cancel")}
        for i in range(rounds):
            unit = "bench-run-%d" % i
            times["systemd_run"].append(timed(lambda: run(
                ["systemd-run", "--user", "--quiet", "--on-active=1h", "--unit", unit, "true"])))
            times["systemctl_stop"].append(timed(lambda: run(["systemctl", "--user", "stop", unit + ".timer"])))
            # What systemd-run sends: the timer, with its service as an auxiliary unit.
            call = "bench-call-%d" % i
            timer = GLib.Variant("(ssa(sv)a(sa(sv)))", (
                call + ".timer", "fail",
                [("Description", GLib.Variant("s", "bench")),
                 ("RemainAfterElapse", GLib.Variant("b", False)),
                 ("OnActiveSec", GLib.Variant("t", 3600 * 1000000))],
                [(call + ".service", [
                    ("Description", GLib.Variant("s", "bench")),
                    ("ExecStart", GLib.Variant("a(sasb)", [("/bin/true", ["/bin/true"], False)]))])]))
            times["start_transient_unit"].append(timed(lambda: manager("StartTransientUnit", timer)))
            # "replace", as `systemctl stop` sends it: the timer's start job may still be queued
            # (StartTransientUnit answers once it is queued), and "fail" refuses to cancel it.
            times["stop_unit"].append(timed(lambda: manager("StopUnit", GLib.Variant("(ss)", (call + ".timer", "replace")))))
            times["notify_schedule"].append(timed(lambda: run(
                [notify, "schedule", "--app", "bench.cli", "--id", "c%d" % i, "--in", "1h", "--title", "one"], env)))
            times["notify_cancel"].append(timed(lambda: run([notify, "cancel", "--app", "bench.cli", "c%d" % i], env)))
            request = GLib.Variant("(saa{sv})", ("bench.bus", [
                {"id": GLib.Variant("s", "b%d" % i), "title": GLib.Variant("s", "one"), "in": GLib.Variant("s", "1h")}]))
            times["bus_schedule"].append(timed(lambda: scheduler("Schedule", request)))
            times["bus_cancel"].append(timed(lambda: scheduler("Cancel", GLib.Variant("(sas)", ("bench.bus", ["b%d" % i])))))
        print(json.dumps({key + "_p50": statistics.median(values) for key, values in times.items()}))
    finally:
        daemon.terminate()
        daemon.wait(10)


if __name__ == "__main__":
    main(sys.argv)
