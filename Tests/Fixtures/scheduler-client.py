#!/usr/bin/python3
"""A client of notify's scheduler (io.github.notify.Scheduler1) for the tests, with the
distribution's python3-gi. Each command prints one JSON object on stdout:
{"result": [...]} or {"error": "<D-Bus error name>", "message": "..."}.

  scheduler-client.py batch APP N            Schedule N requests ('in' 1h, 1h+1m, ...; ids b1..bN)
  scheduler-client.py huge APP BYTES         Schedule one request whose body is BYTES long
  scheduler-client.py wrong-signature APP    Schedule with (s) only
  scheduler-client.py present APP ID         Present one notification with userInfo {"room": "4B"}
  scheduler-client.py rich APP ID FILE...    Schedule one request in 1h with subtitle, level, thread,
                                             markup and FILEs as attachments (descriptors, `ah`)
  scheduler-client.py present-many APP N     Present N notifications (ids p0..pN-1), one call each;
                                             {"result": N} or the first error
  scheduler-client.py sound-file APP ID NAME FILE
                                             Schedule one request in 1h with sound NAME given as
                                             FILE (an open descriptor, `soundFile`)
  scheduler-client.py attach-fd APP ID MODE FILE
                                             Schedule one request in 1h attaching FILE opened
                                             MODE: read, write (write-only), path (O_PATH); or
                                             MODE mem with FILE ignored: /proc/self/mem
  scheduler-client.py same-fd APP N COPIES FILE
                                             Schedule N requests in 1h (ids d1..dN), each
                                             attaching FILE's one descriptor COPIES times
  scheduler-client.py files APP FILE...      Schedule one request per FILE in 1h (ids f1..),
                                             each attaching its own descriptor
  scheduler-client.py limited APP FILE       Schedule one request in 2h (id late) attaching FILE
  scheduler-client.py sound-and-attach APP ID NAME SOUND FILE
                                             Schedule one request in 1h with sound NAME given
                                             as SOUND and FILE attached
  scheduler-client.py sound-then-never APP NAME SOUND
                                             Schedule two requests: sound NAME given as SOUND,
                                             then one whose rule never fires
  scheduler-client.py handoff APP DIR        Connect, print {"name", "pid"}, fork: the parent
                                             exits; the child waits for DIR/go, then calls
                                             ListHistory(APP, 10), SetBadge(APP, 42) and
                                             Subscribe(APP) on the inherited connection, by
                                             hand, and writes their answers to DIR/answers.json
  scheduler-client.py pipelined APP FILE     Schedule one request (id p1) attaching FILE and,
                                             without waiting for its answer, Cancel(['p1']);
                                             {"schedule": answer, "cancel": answer}
  scheduler-client.py batch-beside-read APP N DB
                                             Hold DB's write lock, Schedule N requests (ids
                                             b1..bN) and, once the bus passed that call on,
                                             ListPending on another connection; release the
                                             lock once the list is answered (or after 20 s):
                                             {"read": answer, "readFirst": bool, "batch": answer}
  scheduler-client.py list APP               ListPending
  scheduler-client.py subscribe APP          Subscribe (and leave)
  scheduler-client.py listen APP RECORD      Subscribe(APP), then append each signal it receives
                                             to RECORD as a JSON line; prints {"result": "ready"}
                                             once subscribed; runs until killed

With CUT_AFTER_ANSWER=1 in the environment the client kills its whole process group
(SIGKILL) right after printing: a power cut the moment an answer arrived.
"""
import json
import os
import re
import signal
import struct
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "io.github.notify.Scheduler1"
PATH = "/io/github/notify/Scheduler1"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(method, parameters, timeout_ms=60000, fds=None):
    try:
        if fds is None:
            reply = bus.call_sync(NAME, PATH, NAME, method, parameters, None, Gio.DBusCallFlags.NONE, timeout_ms, None)
        else:
            reply, _ = bus.call_with_unix_fd_list_sync(
                NAME, PATH, NAME, method, parameters, None, Gio.DBusCallFlags.NONE, timeout_ms, fds, None)
        return {"result": reply.unpack()}
    except GLib.Error as error:
        match = re.match(r"GDBus\.Error:([^:]+): (.*)", error.message, re.S)
        if match:
            return {"error": match.group(1), "message": match.group(2)}
        return {"error": "local", "message": error.message}


def out(value):
    print(json.dumps(value), flush=True)
    if os.environ.get("CUT_AFTER_ANSWER") == "1":
        # The power goes the moment the answer is in (the power-cut tests): everything of
        # this process group stops before the daemon can do anything more.
        os.killpg(0, signal.SIGKILL)


def schedule_files(app, requests, fds):
    """Schedule REQUESTS (dicts of GLib.Variant) passing the descriptors FDS."""
    fd_list = Gio.UnixFDList.new()
    for fd in fds:
        fd_list.append(fd)
    return call("Schedule", GLib.Variant("(saa{sv})", (app, requests)), fds=fd_list)


def request_with(request_id, delay="1h", **extra):
    value = {"id": GLib.Variant("s", request_id), "title": GLib.Variant("s", "Files"),
             "in": GLib.Variant("s", delay)}
    value.update(extra)
    return value


def raw_call(sock, serial, member, signature, args):
    """One method call to the scheduler written by hand on SOCK (a connection another
    process made); its answer as call() gives it."""
    def pad(buffer, n):
        buffer += b"\0" * ((-len(buffer)) % n)

    def put_string(buffer, text):
        pad(buffer, 4)
        data = text.encode()
        buffer += struct.pack("<I", len(data)) + data + b"\0"

    def put_signature(buffer, text):
        buffer += bytes([len(text)]) + text.encode() + b"\0"

    body = bytearray()
    for kind, value in zip(signature, args):
        if kind == "s":
            put_string(body, value)
        else:
            pad(body, 4)
            body += struct.pack("<I", value)
    fields = bytearray()
    for code, kind, value in [(1, "o", PATH), (2, "s", NAME), (3, "s", member), (6, "s", NAME),
                              (8, "g", signature)]:
        pad(fields, 8)
        fields += bytes([code])
        put_signature(fields, kind)
        if kind == "g":
            put_signature(fields, value)
        else:
            put_string(fields, value)
    message = bytearray(b"l\x01\x00\x01") + struct.pack("<III", len(body), serial, len(fields)) + fields
    pad(message, 8)
    sock.sendall(bytes(message + body))

    def take(count):
        data = b""
        while len(data) < count:
            chunk = sock.recv(count - len(data))
            if not chunk:
                raise EOFError("the bus closed the connection")
            data += chunk
        return data

    while True:
        fixed = take(16)
        kind = fixed[1]
        body_length, _, fields_length = struct.unpack("<III", fixed[4:16])
        rest = take(fields_length + ((-(16 + fields_length)) % 8) + body_length)
        header, body = rest[:fields_length], rest[len(rest) - body_length:]
        offset, found = 0, {}
        while offset < fields_length:
            offset += (-offset) % 8
            code = header[offset]
            length = header[offset + 1]
            kind_of = header[offset + 2:offset + 2 + length].decode()
            offset += 3 + length
            if kind_of == "u":
                offset += (-(offset + 16)) % 4
                found[code] = struct.unpack("<I", header[offset:offset + 4])[0]
                offset += 4
            elif kind_of in ("s", "o"):
                offset += (-(offset + 16)) % 4
                size = struct.unpack("<I", header[offset:offset + 4])[0]
                found[code] = header[offset + 4:offset + 4 + size].decode()
                offset += 5 + size
            elif kind_of == "g":
                size = header[offset]
                found[code] = header[offset + 1:offset + 1 + size].decode()
                offset += 2 + size
            else:
                raise ValueError("unexpected header field type " + kind_of)
        if found.get(5) != serial:
            continue
        if kind == 3:
            size = struct.unpack("<I", body[0:4])[0] if len(body) >= 4 else 0
            return {"error": found.get(4), "message": body[4:4 + size].decode(errors="replace")}
        return {"result": "ok"}


def batch_beside_read(app, count, db):
    """A large Schedule whose transaction waits for the store's write lock, and a read by
    another connection sent after it: which is answered first."""
    import sqlite3
    import threading

    lock = sqlite3.connect(db, isolation_level=None, timeout=0)
    lock.execute("BEGIN IMMEDIATE")
    # A monitor sees the Schedule call as the bus passes it on to the daemon: the read is
    # sent after that, so the daemon has the batch first.
    address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
    monitor = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    passed = threading.Event()

    def seen(_connection, message, incoming):
        if incoming and message.get_member() == "Schedule":
            passed.set()
        return message

    monitor.add_filter(seen)
    monitor.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                      "BecomeMonitor", GLib.Variant("(asu)", (["type='method_call',member='Schedule'"], 0)),
                      None, Gio.DBusCallFlags.NONE, 10000, None)
    reader = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    answers = {}
    loop = GLib.MainLoop()

    def answered(key):
        def done(connection, result):
            try:
                answers[key] = {"result": connection.call_finish(result).unpack()}
            except GLib.Error as error:
                answers[key] = {"error": error.message}
            if key == "read":
                answers["readFirst"] = "batch" not in answers
                lock.execute("ROLLBACK")
            if "batch" in answers and "read" in answers:
                loop.quit()
        return done

    items = ", ".join("{'id': <'b%d'>, 'body': <'n %d'>, 'in': <'%dm'>}" % (i + 1, i + 1, 60 + i) for i in range(count))
    text = "(%s, [%s])" % (GLib.Variant("s", app).print_(False), items)
    bus.call(NAME, PATH, NAME, "Schedule", GLib.Variant.parse(GLib.VariantType("(saa{sv})"), text, None, None),
             None, Gio.DBusCallFlags.NONE, 60000, None, answered("batch"))
    while not passed.is_set():
        GLib.MainContext.default().iteration(False)
        passed.wait(0.01)
    reader.call(NAME, PATH, NAME, "ListPending", GLib.Variant("(s)", ("other.app",)), None, Gio.DBusCallFlags.NONE,
                60000, None, answered("read"))

    def give_up():
        if "read" not in answers:
            lock.execute("ROLLBACK")
        return False

    GLib.timeout_add_seconds(20, give_up)
    loop.run()
    return answers


def main(argv):
    command, app = argv[1], argv[2]
    if command == "batch":
        count = int(argv[3])
        # GVariant's text parser (C) builds a large batch in a fraction of the time the
        # per-item Python constructors take, which a loaded machine stretches past minutes.
        items = ", ".join(
            "{'id': <'b%d'>, 'body': <'n %d'>, 'in': <'%dm'>}" % (i + 1, i + 1, 60 + i) for i in range(count)
        )
        text = "(%s, [%s])" % (GLib.Variant("s", app).print_(False), items)
        out(call("Schedule", GLib.Variant.parse(GLib.VariantType("(saa{sv})"), text, None, None)))
    elif command == "huge":
        body = "x" * int(argv[3])
        out(call("Schedule", GLib.Variant("(saa{sv})", (app, [{"body": GLib.Variant("s", body), "in": GLib.Variant("s", "1h")}]))))
    elif command == "wrong-signature":
        out(call("Schedule", GLib.Variant("(s)", (app,))))
    elif command == "present":
        content = {"id": GLib.Variant("s", argv[3]), "title": GLib.Variant("s", "Hello"),
                   "userInfo": GLib.Variant("a{sv}", {"room": GLib.Variant("s", "4B")})}
        out(call("Present", GLib.Variant("(sa{sv})", (app, content))))
    elif command == "rich":
        fds = Gio.UnixFDList.new()
        handles = []
        files = [open(path, "rb") for path in argv[4:]]
        for file in files:
            handles.append(fds.append(file.fileno()))
        content = {"id": GLib.Variant("s", argv[3]), "title": GLib.Variant("s", "Rich"),
                   "body": GLib.Variant("s", "<b>bold</b> text"), "bodyMarkup": GLib.Variant("b", True),
                   "subtitle": GLib.Variant("s", "the subtitle"),
                   "interruptionLevel": GLib.Variant("s", "time-sensitive"),
                   "threadIdentifier": GLib.Variant("s", "t1"), "in": GLib.Variant("s", "1h"),
                   "attachments": GLib.Variant("ah", handles)}
        out(call("Schedule", GLib.Variant("(saa{sv})", (app, [content])), fds=fds))
    elif command == "present-many":
        count = int(argv[3])
        for index in range(count):
            answer = call("Present", GLib.Variant("(sa{sv})", (app, {"id": GLib.Variant("s", "p%d" % index),
                                                                     "title": GLib.Variant("s", "flood")})))
            if "error" in answer:
                out(answer)
                return 0
        out({"result": count})
    elif command == "sound-file":
        fds = Gio.UnixFDList.new()
        sound = open(argv[5], "rb")
        handle = fds.append(sound.fileno())
        content = {"id": GLib.Variant("s", argv[3]), "title": GLib.Variant("s", "With a sound"),
                   "in": GLib.Variant("s", "1h"), "sound": GLib.Variant("s", argv[4]),
                   "soundFile": GLib.Variant("h", handle)}
        out(call("Schedule", GLib.Variant("(saa{sv})", (app, [content])), fds=fds))
    elif command == "attach-fd":
        mode, path = argv[4], argv[5]
        if mode == "mem":
            fd = os.open("/proc/self/mem", os.O_RDONLY)
        else:
            fd = os.open(path, {"read": os.O_RDONLY, "write": os.O_WRONLY, "path": os.O_PATH}[mode])
        out(schedule_files(app, [request_with(argv[3], attachments=GLib.Variant("ah", [0]))], [fd]))
    elif command == "same-fd":
        count, copies = int(argv[3]), int(argv[4])
        fd = os.open(argv[5], os.O_RDONLY)
        requests = [request_with("d%d" % (i + 1), "%dm" % (60 + i), attachments=GLib.Variant("ah", [0] * copies))
                    for i in range(count)]
        out(schedule_files(app, requests, [fd]))
    elif command == "files":
        fds = [os.open(path, os.O_RDONLY) for path in argv[3:]]
        requests = [request_with("f%d" % (i + 1), attachments=GLib.Variant("ah", [i])) for i in range(len(fds))]
        out(schedule_files(app, requests, fds))
    elif command == "limited":
        fd = os.open(argv[3], os.O_RDONLY)
        out(schedule_files(app, [request_with("late", "2h", attachments=GLib.Variant("ah", [0]))], [fd]))
    elif command == "sound-and-attach":
        fds = [os.open(argv[5], os.O_RDONLY), os.open(argv[6], os.O_RDONLY)]
        request = request_with(argv[3], sound=GLib.Variant("s", argv[4]), soundFile=GLib.Variant("h", 0),
                          attachments=GLib.Variant("ah", [1]))
        out(schedule_files(app, [request], fds))
    elif command == "sound-then-never":
        fd = os.open(argv[4], os.O_RDONLY)
        first = request_with("with-sound", sound=GLib.Variant("s", argv[3]), soundFile=GLib.Variant("h", 0))
        never = {"id": GLib.Variant("s", "never"), "title": GLib.Variant("s", "Never"),
                 "at": GLib.Variant("s", "2030-01-01T09:00:00Z"), "rrule": GLib.Variant("s", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")}
        out(schedule_files(app, [first, never], [fd]))
    elif command == "handoff":
        folder = argv[3]
        stream = bus.get_stream()
        sock = __import__("socket").socket(fileno=os.dup(stream.get_socket().get_fd()))
        sock.setblocking(True)
        child = os.fork()
        if child:
            out({"name": bus.get_unique_name(), "pid": os.getpid(), "child": child})
            os._exit(0)
        # The child: no GDBus here (its threads stayed in the parent); the connection by hand.
        # (its output is no one's: the test reads the parent's and waits for nothing else)
        null = os.open("/dev/null", os.O_RDWR)
        for standard in (0, 1, 2):
            os.dup2(null, standard)
        while not os.path.exists(folder + "/go"):
            time.sleep(0.02)
        answers = {"pid": os.getpid()}
        for serial, (member, signature, args) in enumerate(
                [("ListHistory", "su", [app, 10]), ("SetBadge", "su", [app, 42]), ("Subscribe", "s", [app])],
                start=1000):
            try:
                answers[member] = raw_call(sock, serial, member, signature, args)
            except Exception as error:  # noqa: BLE001 - reported to the test
                answers[member] = {"error": "local", "message": str(error)}
        with open(folder + "/answers.json.partial", "w") as record:
            json.dump(answers, record)
        os.rename(folder + "/answers.json.partial", folder + "/answers.json")
        os._exit(0)
    elif command == "pipelined":
        fd_list = Gio.UnixFDList.new()
        fd_list.append(os.open(argv[3], os.O_RDONLY))
        answers = {}
        loop = GLib.MainLoop()

        def answered(key, finish):
            def done(connection, result):
                try:
                    reply = finish(connection, result)
                    answers[key] = {"result": (reply[0] if isinstance(reply, tuple) else reply).unpack()}
                except GLib.Error as error:
                    answers[key] = {"error": error.message}
                if len(answers) == 2:
                    loop.quit()
            return done

        request = request_with("p1", attachments=GLib.Variant("ah", [0]))
        bus.call_with_unix_fd_list(NAME, PATH, NAME, "Schedule", GLib.Variant("(saa{sv})", (app, [request])), None,
                                   Gio.DBusCallFlags.NONE, 60000, fd_list, None,
                                   answered("schedule", Gio.DBusConnection.call_with_unix_fd_list_finish))
        bus.call(NAME, PATH, NAME, "Cancel", GLib.Variant("(sas)", (app, ["p1"])), None, Gio.DBusCallFlags.NONE,
                 60000, None, answered("cancel", Gio.DBusConnection.call_finish))
        loop.run()
        out(answers)
    elif command == "batch-beside-read":
        out(batch_beside_read(app, int(argv[3]), argv[4]))
    elif command == "list":
        out(call("ListPending", GLib.Variant("(s)", (app,))))
    elif command == "subscribe":
        out(call("Subscribe", GLib.Variant("(s)", (app,))))
    elif command == "listen":
        record = open(argv[3], "a", buffering=1)

        def heard(_connection, sender, path, interface, member, parameters):
            record.write(json.dumps({"member": member, "args": parameters.unpack()}) + "\n")

        bus.signal_subscribe(None, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE, heard)
        answer = call("Subscribe", GLib.Variant("(s)", (app,)))
        out({"result": "ready"} if "result" in answer else answer)
        GLib.MainLoop().run()
    else:
        out({"error": "usage", "message": __doc__})
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
