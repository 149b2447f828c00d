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
import sys

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
