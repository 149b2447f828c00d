#!/usr/bin/python3
"""How long `notify daemon` and `notify fire-due` take to stop on a signal while the sink is
slow, hung or stalled (BENCHMARKS.md, Reliability: signals, stalled sinks, auto sink).

    /usr/bin/python3 Benchmarks/reliability/stop_latency.py NOTIFY [--rounds N]

NOTIFY is the binary to measure (build one from main for the "before" figures). Each case
starts a private session bus (Tests/Fixtures/private-bus.sh) with the scripted server
(Tests/Fixtures/notification-server.py, --notify-delay 2 or --silent), schedules 10
notifications due at once, starts the firer, waits until the first Notify call arrives,
sends the signal and measures until the process has exited (gives up after 90 s). Then it
prints the exit status, how many the server showed, and what the store holds. The stdout
cases use a FIFO the script holds open without reading (stalled) or closes (gone).
"""

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
GIVE_UP = 90


def wait_for(condition, timeout, interval=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def records(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


class Bus:
    def __init__(self, folder, server_args):
        self.state = os.path.join(folder, "bus")
        out = subprocess.run(
            ["bash", os.path.join(FIXTURES, "private-bus.sh"), "start", self.state, os.path.join(folder, "services")],
            check=True, capture_output=True, text=True).stdout
        self.address = out.split("'")[1]
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address)
        self.record = os.path.join(folder, "server.record")
        self.server = None
        if server_args is not None:
            self.server = subprocess.Popen(
                ["/usr/bin/python3", os.path.join(FIXTURES, "notification-server.py"), "--record", self.record]
                + server_args, env=self.env, stdout=subprocess.PIPE, text=True)
            assert self.server.stdout.readline().strip() == "READY"

    def shown(self):
        return sum(1 for r in records(self.record) if r.get("call") == "Notify")

    def arrived(self):
        return sum(1 for r in records(self.record) if r.get("arrived") == "Notify" or r.get("call") == "Notify")

    def stop(self):
        if self.server:
            self.server.terminate()
            self.server.wait()
        subprocess.run(["bash", os.path.join(FIXTURES, "private-bus.sh"), "stop", self.state], check=False)


def env_for(bus=None):
    env = dict(os.environ)
    for key in ("JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_SOCKET", "NOTIFY_DB"):
        env.pop(key, None)
    if bus:
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    return env


def schedule(notify, db, count, env):
    for i in range(count):
        subprocess.run([notify, "schedule", "--in", "1s", "--id", f"n{i}", "--title", f"n{i}", "--db", db],
                       check=True, capture_output=True, env=env)


def store_state(db):
    with sqlite3.connect(db) as c:
        pending = c.execute("SELECT count(*) FROM notification WHERE next_fire_at IS NOT NULL").fetchone()[0]
        claimed = c.execute("SELECT count(*) FROM claim").fetchone()[0]
        kinds = dict(c.execute("SELECT kind, count(*) FROM event GROUP BY kind").fetchall())
    return {"pending": pending, "claimed": claimed, "delivered": kinds.get("delivered", 0),
            "failed": kinds.get("failed", 0)}


def desktop_case(notify, command, sig, server_args):
    with tempfile.TemporaryDirectory(prefix="stop-latency-") as folder:
        bus = Bus(folder, server_args)
        try:
            db = os.path.join(folder, "notify.db")
            env = env_for(bus)
            schedule(notify, db, 10, env)
            time.sleep(1.1)
            args = [notify, command, "--sink", "desktop", "--db", db]
            err = open(os.path.join(folder, "err"), "w")
            proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                    preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
            if not wait_for(lambda: bus.arrived() >= 1, 30):
                proc.kill()
                return {"error": "no Notify call arrived"}
            time.sleep(0.2)
            start = time.monotonic()
            proc.send_signal(sig)
            try:
                status = proc.wait(GIVE_UP)
                elapsed = time.monotonic() - start
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
                elapsed = None
            time.sleep(0.3)
            return {"seconds": elapsed, "status": status, "shown": bus.shown(), **store_state(db)}
        finally:
            bus.stop()


def stdout_stalled_case(notify, sig):
    with tempfile.TemporaryDirectory(prefix="stop-latency-") as folder:
        db = os.path.join(folder, "notify.db")
        fifo = os.path.join(folder, "out")
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        env = env_for()
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        # Lines of about 16 KB: a few fill the pipe.
        body = "x" * 3900
        for i in range(20):
            subprocess.run([notify, "schedule", "--in", "1s", "--id", f"n{i}", "--title", f"n{i}", "--body", body * 1,
                            "--db", db], check=True, capture_output=True, env=env)
        time.sleep(1.1)
        writer = os.open(fifo, os.O_WRONLY)
        err = open(os.path.join(folder, "err"), "w")
        proc = subprocess.Popen([notify, "daemon", "--sink", "stdout", "--db", db], env=env, stdout=writer,
                                stderr=err, preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
        os.close(writer)
        # Stalled: the pipe is full once 64 KiB are in it.
        wait_for(lambda: fifo_bytes(reader) >= 60000, 20)
        time.sleep(1)
        start = time.monotonic()
        proc.send_signal(sig)
        try:
            status = proc.wait(GIVE_UP)
            elapsed = time.monotonic() - start
        except subprocess.TimeoutExpired:
            proc.kill()
            status = proc.wait()
            elapsed = None
        os.close(reader)
        return {"seconds": elapsed, "status": status, **store_state(db)}


def fifo_bytes(fd):
    import fcntl
    import termios
    import array
    buf = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, buf)
    return buf[0]


def stdout_gone_case(notify):
    """`notify daemon | head -1`: the reader takes one line and goes."""
    with tempfile.TemporaryDirectory(prefix="stop-latency-") as folder:
        db = os.path.join(folder, "notify.db")
        env = env_for()
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        for i in range(5):
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 2 + i))
            subprocess.run([notify, "schedule", "--at", at, "--id", f"n{i}", "--title", f"n{i}", "--db", db],
                           check=True, capture_output=True, env=env)
        r, w = os.pipe()
        proc = subprocess.Popen([notify, "daemon", "--sink", "stdout", "--db", db], env=env, stdout=w,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
        os.close(w)
        with os.fdopen(r) as reader:
            reader.readline()
        start = time.monotonic()
        try:
            proc.wait(15)
            elapsed = time.monotonic() - start
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            elapsed = None
        stderr = proc.stderr.read().strip().splitlines()
        return {"seconds_after_reader_left": elapsed, "status": proc.returncode, "last_stderr": stderr[-1:],
                **store_state(db)}


def auto_case(notify):
    """`--sink auto` started before the server: where deliveries go as the server comes and goes."""
    with tempfile.TemporaryDirectory(prefix="stop-latency-") as folder:
        bus = Bus(folder, None)
        try:
            db = os.path.join(folder, "notify.db")
            env = env_for(bus)
            out_path, err_path = os.path.join(folder, "out"), os.path.join(folder, "err")
            proc = subprocess.Popen([notify, "daemon", "--sink", "auto", "--db", db], env=env,
                                    stdout=open(out_path, "w"), stderr=open(err_path, "w"),
                                    preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
            wait_for(lambda: "ready;" in open(err_path).read(), 20)

            def deliver(name):
                subprocess.run([notify, "schedule", "--in", "1s", "--id", name, "--title", name, "--db", db],
                               check=True, capture_output=True, env=env)
                wait_for(lambda: store_state(db)["delivered"] + store_state(db)["failed"] >= deliver.count + 1, 30)
                deliver.count += 1
            deliver.count = 0

            def on_stdout(name):
                return f'"id":"{name}"' in open(out_path).read()

            deliver("before")
            bus.server = subprocess.Popen(
                ["/usr/bin/python3", os.path.join(FIXTURES, "notification-server.py"), "--record", bus.record],
                env=bus.env, stdout=subprocess.PIPE, text=True)
            assert bus.server.stdout.readline().strip() == "READY"
            start = time.monotonic()
            switched = wait_for(lambda: "delivering to the desktop" in open(err_path).read(), 5)
            switch_seconds = time.monotonic() - start if switched else None
            deliver("during")
            bus.server.terminate()
            bus.server.wait()
            bus.server = None
            time.sleep(0.5)
            deliver("after1")
            deliver("after2")
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
            return {"switch_to_desktop_seconds": None if switch_seconds is None else round(switch_seconds, 3),
                    "during_on_desktop": bus.shown() == 1, "during_on_stdout": on_stdout("during"),
                    "after_on_stdout": [on_stdout("after1"), on_stdout("after2")], **store_state(db)}
        finally:
            bus.stop()


def auto_leaves_case(notify):
    """`--sink auto` started with a server that then goes away: where the next deliveries go."""
    with tempfile.TemporaryDirectory(prefix="stop-latency-") as folder:
        bus = Bus(folder, [])
        try:
            db = os.path.join(folder, "notify.db")
            env = env_for(bus)
            out_path, err_path = os.path.join(folder, "out"), os.path.join(folder, "err")
            proc = subprocess.Popen([notify, "daemon", "--sink", "auto", "--db", db], env=env,
                                    stdout=open(out_path, "w"), stderr=open(err_path, "w"),
                                    preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))
            wait_for(lambda: "ready;" in open(err_path).read(), 20)
            for i, name in enumerate(["first", "after1", "after2"]):
                if i == 1:
                    bus.server.terminate()
                    bus.server.wait()
                    bus.server = None
                    time.sleep(0.5)
                subprocess.run([notify, "schedule", "--in", "1s", "--id", name, "--title", name, "--db", db],
                               check=True, capture_output=True, env=env)
                wait_for(lambda: store_state(db)["delivered"] + store_state(db)["failed"] >= i + 1, 60)
            out = open(out_path).read()
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
            return {"first_on_desktop": bus.shown() == 1,
                    "after_on_stdout": ['"id":"after1"' in out, '"id":"after2"' in out], **store_state(db)}
        finally:
            bus.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notify")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    cases = [
        ("daemon, server answers in 2 s, SIGTERM", lambda: desktop_case(args.notify, "daemon", signal.SIGTERM, ["--notify-delay", "2"])),
        ("daemon, server answers in 2 s, SIGINT", lambda: desktop_case(args.notify, "daemon", signal.SIGINT, ["--notify-delay", "2"])),
        ("daemon, server answers in 2 s, SIGHUP", lambda: desktop_case(args.notify, "daemon", signal.SIGHUP, ["--notify-delay", "2"])),
        ("daemon, server never answers, SIGTERM", lambda: desktop_case(args.notify, "daemon", signal.SIGTERM, ["--silent"])),
        ("fire-due, server answers in 2 s, SIGTERM", lambda: desktop_case(args.notify, "fire-due", signal.SIGTERM, ["--notify-delay", "2"])),
        ("fire-due, server never answers, SIGTERM", lambda: desktop_case(args.notify, "fire-due", signal.SIGTERM, ["--silent"])),
        ("daemon, stdout reader stalled, SIGTERM", lambda: stdout_stalled_case(args.notify, signal.SIGTERM)),
        ("daemon | head -1", lambda: stdout_gone_case(args.notify)),
        ("daemon --sink auto, server comes and goes", lambda: auto_case(args.notify)),
        ("daemon --sink auto, server leaves", lambda: auto_leaves_case(args.notify)),
    ]
    for name, case in cases:
        if args.only and args.only not in name:
            continue
        for _ in range(args.rounds):
            result = case()
            if isinstance(result.get("seconds"), float):
                result["seconds"] = round(result["seconds"], 2)
            if isinstance(result.get("seconds_after_reader_left"), float):
                result["seconds_after_reader_left"] = round(result["seconds_after_reader_left"], 2)
            print(f"{name}: {json.dumps(result)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
