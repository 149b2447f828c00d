#!/usr/bin/env python3
"""What waking the machine costs the daemon (docs/sleep-wake-power.md), against a notify
built before it (BENCHMARKS.md figures come from here):

  idle    the daemon holding 64 notifications an hour away (each asking to wake the machine,
          for the notify that knows --wake; plain for the one before), idle over a window:
          wake-ups (voluntary + involuntary context switches of all its threads, from
          /proc/PID/task/*/status) and resident memory (VmRSS), each binary in turn;
  rearm   CPU time the daemon spends on another process's schedule (the store watch's
          wake-up, the outlook read, the re-arm; with --wake also the alarm timer's re-arm):
          the daemon's own CPU nanoseconds (/proc/PID/task/*/schedstat) over N schedules,
          a new earliest instant each time so that every one re-arms, divided by N. The
          two binaries alternate in rounds; the medians are compared.

  python3 Benchmarks/wake_cost.py --before OLD_NOTIFY --after NEW_NOTIFY
                                  [--window SECONDS] [--schedules N] [--rounds R]

Both binaries should be built alike (scripts/install.sh's release build). Needs root for
the alarm timer of the new one (CAP_WAKE_ALARM); it runs without, its timer then refused.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(binary, db, *arguments):
    subprocess.run([binary, *arguments, "--db", db], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def environment():
    env = dict(os.environ)
    for key in ["JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_DB", "WATCHDOG_USEC", "NOTIFY_SOCKET"]:
        env.pop(key, None)
    return env


def start_daemon(binary, db, folder):
    out = open(os.path.join(folder, "daemon.out"), "wb")
    err = open(os.path.join(folder, "daemon.err"), "wb")
    daemon = subprocess.Popen([binary, "daemon", "--sink", "stdout", "--db", db], stdout=out, stderr=err,
                              env=environment())
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(os.path.join(folder, "daemon.err"), "rb") as f:
            if b"ready; watching" in f.read():
                # (its first wake-up has run: READY comes after it; a little more for the log line)
                time.sleep(1)
                return daemon
        time.sleep(0.05)
    daemon.kill()
    raise SystemExit("the daemon did not get ready within 60 s")


def tasks(pid):
    return os.listdir(f"/proc/{pid}/task")


def switches(pid):
    total = 0
    for task in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def cpu_ns(pid):
    total = 0
    for task in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def alarm_timers(pid):
    found = 0
    for fd in os.listdir(f"/proc/{pid}/fdinfo"):
        try:
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                text = f.read()
        except FileNotFoundError:
            continue
        if "clockid: 8" in text or "clockid: 9" in text:
            found += 1
    return found


def knows_wake(binary):
    help_text = subprocess.run([binary, "schedule", "--help"], capture_output=True, text=True).stdout
    return "--wake" in help_text


def idle(binary, window, count):
    folder = tempfile.mkdtemp(prefix="notify-wake-cost")
    try:
        db = os.path.join(folder, "notify.db")
        wake = ["--wake"] if knows_wake(binary) else []
        for i in range(count):
            run(binary, db, "schedule", "--app", "idle", "--id", f"n{i}", "--in", f"1h{i + 1}s",
                "--title", f"idle {i}", *wake)
        daemon = start_daemon(binary, db, folder)
        try:
            before = switches(daemon.pid)
            time.sleep(window)
            after = switches(daemon.pid)
            return {"wakeups": after - before, "rss": rss_kib(daemon.pid), "alarms": alarm_timers(daemon.pid)}
        finally:
            daemon.terminate()
            daemon.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def rearm(binary, schedules):
    folder = tempfile.mkdtemp(prefix="notify-wake-rearm")
    try:
        db = os.path.join(folder, "notify.db")
        wake = ["--wake"] if knows_wake(binary) else []
        run(binary, db, "schedule", "--app", "r", "--id", "far", "--in", "2h", "--title", "far", *wake)
        daemon = start_daemon(binary, db, folder)
        try:
            spent = 0
            for i in range(schedules):
                # Each one the new earliest: the daemon re-arms for it.
                start = cpu_ns(daemon.pid)
                run(binary, db, "schedule", "--app", "r", "--id", f"s{i}", "--in", f"{3600 - i}s",
                    "--title", "soon", *wake)
                # (the daemon's wake-up on the commit: it is done once its CPU time stops moving)
                last, still = cpu_ns(daemon.pid), 0
                while still < 10:
                    time.sleep(0.01)
                    now = cpu_ns(daemon.pid)
                    still = still + 1 if now == last else 0
                    last = now
                spent += last - start
            return spent / schedules / 1000
        finally:
            daemon.terminate()
            daemon.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--window", type=float, default=60)
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--schedules", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()

    print(f"idle: {arguments.count} pending an hour away, {arguments.window:.0f} s window")
    results = {}
    for name in ["before", "after"]:
        binary = getattr(arguments, name)
        results[name] = idle(binary, arguments.window, arguments.count)
        r = results[name]
        print(f"  {name:6} {binary}: {r['wakeups']} wake-ups, RSS {r['rss']} KiB, alarm timers {r['alarms']}"
              f"{' (waking)' if knows_wake(binary) else ' (plain)'}")
    print(f"  RSS after - before: {results['after']['rss'] - results['before']['rss']} KiB")

    print(f"rearm: daemon CPU per schedule that re-arms, {arguments.schedules} schedules x {arguments.rounds} rounds")
    costs = {"before": [], "after": []}
    for _ in range(arguments.rounds):
        for name in ["before", "after"]:
            costs[name].append(rearm(getattr(arguments, name), arguments.schedules))
    for name in ["before", "after"]:
        print(f"  {name:6}: median {statistics.median(costs[name]):.1f} us ({', '.join(f'{c:.1f}' for c in costs[name])})")
    print(f"  after - before: {statistics.median(costs['after']) - statistics.median(costs['before']):+.1f} us")


if __name__ == "__main__":
    sys.exit(main())
