#!/usr/bin/python3
"""The worst stall another caller sees while one client sends the largest call the
scheduler's file bounds allow (BENCHMARKS.md, "Scheduling over the D-Bus service": stall).
Against a running `notify daemon` on the session bus of the environment.

  stall.py ROUNDS WORK_DIR      prints one JSON object per round and kind of call
  stall.py probe OUT            (internal) ListPending back to back until SIGTERM;
                                writes [start, milliseconds] pairs to OUT

Each round: a prober process on a connection of its own calls ListPending('bench.probe')
back to back; meanwhile this process sends one Schedule for a fresh app: a batch of 1000
requests (the most a call takes), the soonest 64 kept by the limit, five of them attaching
a different 10 MiB image each and the first giving a 29 s 48 kHz 24-bit stereo WAV
(8.4 MB) as its sound: 58.5 MB of files, within the call's 64 MiB. The figure is the
longest ListPending that overlapped the Schedule, beside the longest before it. The same
is measured for the batch of 1000 without files, and for the 64 kept requests alone with
the same files: what the batch's store transaction costs, and what the files cost.
"""
import json
import os
import signal
import struct
import subprocess
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"


def probe(out):
    bus = Gio.DBusConnection.new_for_address_sync(
        os.environ["DBUS_SESSION_BUS_ADDRESS"],
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    samples = []
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    arguments = GLib.Variant("(s)", ("bench.probe",))
    while not stopping:
        start = time.monotonic()
        bus.call_sync(NAME, PATH, NAME, "ListPending", arguments, None, Gio.DBusCallFlags.NONE, 120000, None)
        samples.append((start, (time.monotonic() - start) * 1000))
    with open(out, "w") as record:
        json.dump(samples, record)


def files(work):
    images = []
    for index in range(5):
        path = "%s/image%d.png" % (work, index)
        if not os.path.exists(path):
            with open(path, "wb") as image:
                image.write(b"\x89PNG\r\n\x1a\n" + bytes([index + 1]) * (10 * 1024 * 1024 - 8))
        images.append(path)
    sound = work + "/long.wav"
    if not os.path.exists(sound):
        rate, channels, width = 48000, 2, 3
        data = rate * 29 * channels * width
        with open(sound, "wb") as wav:
            wav.write(b"RIFF" + struct.pack("<I", 36 + data) + b"WAVEfmt " + struct.pack(
                "<IHHIIHH", 16, 1, channels, rate, rate * channels * width, channels * width, width * 8))
            wav.write(b"data" + struct.pack("<I", data) + bytes(data))
    return images, sound


def largest_call(app, images, sound, count=1000, with_files=True):
    fds = Gio.UnixFDList.new()
    handles = [fds.append(os.open(path, os.O_RDONLY)) for path in images]
    sound_handle = fds.append(os.open(sound, os.O_RDONLY))
    requests = []
    for index in range(count):
        request = {"id": GLib.Variant("s", "r%d" % index), "body": GLib.Variant("s", "n %d" % index),
                   "in": GLib.Variant("s", "%dm" % (60 + index))}
        if with_files and index < len(handles):
            request["attachments"] = GLib.Variant("ah", [handles[index]])
        if with_files and index == 0:
            request["sound"] = GLib.Variant("s", "long.wav")
            request["soundFile"] = GLib.Variant("h", sound_handle)
        requests.append(request)
    return GLib.Variant("(saa{sv})", (app, requests)), fds


def main(argv):
    if argv[1] == "probe":
        probe(argv[2])
        return 0
    rounds, work = int(argv[1]), argv[2]
    images, sound = files(work)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    kinds = [("largest", 1000, True), ("batch1000", 1000, False), ("files64", 64, True)]
    for round_index, (kind, count, with_files) in [(r, k) for r in range(rounds) for k in kinds]:
        out = "%s/probe-%d-%s.json" % (work, round_index, kind)
        prober = subprocess.Popen([sys.executable, argv[0], "probe", out])
        time.sleep(0.5)
        parameters, fds = largest_call(
            "bench.stall%d.%d.%s" % (os.getpid(), round_index, kind), images, sound, count, with_files)
        start = time.monotonic()
        answer = "ok"
        try:
            bus.call_with_unix_fd_list_sync(
                NAME, PATH, NAME, "Schedule", parameters, None, Gio.DBusCallFlags.NONE, 120000, fds, None)
        except GLib.Error as error:
            answer = error.message.split(":")[2] if "Scheduler1.Error" in error.message else error.message
        end = time.monotonic()
        time.sleep(0.5)
        prober.send_signal(signal.SIGTERM)
        prober.wait()
        samples = json.load(open(out))
        before = [ms for at, ms in samples if at + ms / 1000 < start]
        during = [ms for at, ms in samples if at < end and at + ms / 1000 > start]
        print(json.dumps({
            "kind": kind, "schedule_ms": (end - start) * 1000, "answer": answer,
            "worst_during_ms": max(during) if during else None, "probes_during": len(during),
            "worst_before_ms": max(before) if before else None,
            "p50_before_ms": sorted(before)[len(before) // 2] if before else None,
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
