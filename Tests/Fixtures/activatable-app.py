#!/usr/bin/python3
"""An app started by D-Bus activation (a desktop entry with DBusActivatable=true), for tests.

    /usr/bin/python3 activatable-app.py --name BUS_NAME --record FILE
        [--notify PATH_TO_NOTIFY] [--db DB] [--app APP] [--stay]

Connects to $DBUS_SESSION_BUS_ADDRESS (the bus daemon sets it for the services it starts),
exports org.freedesktop.Application at the path derived from BUS_NAME ("/" + BUS_NAME with
"." -> "/" and "-" -> "_"), then takes BUS_NAME. FILE gets one JSON line per event:

    {"started": true, "pid": P, "activated": true|false, "name": BUS_NAME}  first thing
    {"method": "ActivateAction", "action": A, "parameter": [...], "platformData": {...}, "sender": S}
    {"method": "Activate", "platformData": {...}, "sender": S}
    {"method": "Open", "uris": [...], "platformData": {...}, "sender": S}
    {"launchResponse": JSON|null, "exit": N|null, "stdout": "...", "stderr": "..."}
    {"exiting": true, "pid": P}
    {"error": "..."}                                                     what went wrong

Variants are written as plain JSON (an `ay` as its UTF-8 text, else "base64:...").
"activated" says whether the bus daemon started the process (DBUS_STARTER_BUS_TYPE is set).
After ActivateAction and Activate it runs `PATH_TO_NOTIFY launch-response [--app APP]
[--db DB]` (what an app launched by a click does) and records the result: launchResponse
is the parsed stdout, null when it is not JSON. Only then does it answer the call, so the
caller's reply means the record is complete. Then, unless --stay, it releases BUS_NAME (the
next call activates a new process) and exits 0. With --stay it runs until SIGTERM, SIGINT
or the bus going away. Needs Debian's python3-gi (run it with /usr/bin/python3).
"""

import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import traceback

from gi.repository import Gio, GLib

APPLICATION = "org.freedesktop.Application"
INTROSPECTION = """
<node>
  <interface name="org.freedesktop.Application">
    <method name="Activate">
      <arg type="a{sv}" name="platform_data" direction="in"/>
    </method>
    <method name="Open">
      <arg type="as" name="uris" direction="in"/>
      <arg type="a{sv}" name="platform_data" direction="in"/>
    </method>
    <method name="ActivateAction">
      <arg type="s" name="action_name" direction="in"/>
      <arg type="av" name="parameter" direction="in"/>
      <arg type="a{sv}" name="platform_data" direction="in"/>
    </method>
  </interface>
</node>
"""
LAUNCH_RESPONSE_TIMEOUT = 30  # seconds


def object_path(bus_name):
    """The Desktop Entry spec's path for a D-Bus activatable app's bus name."""
    return "/" + bus_name.replace(".", "/").replace("-", "_")


def text_of_bytes(data):
    data = bytes(data)
    try:
        return data.rstrip(b"\0").decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")


def children(value):
    return [value.get_child_value(i) for i in range(value.n_children())]


def plain(value):
    """A GLib.Variant as plain JSON: strings, numbers, bools, lists, objects."""
    t = value.get_type_string()
    if t == "v":
        return plain(value.get_variant())
    if t == "ay":
        return text_of_bytes(value.get_data_as_bytes().get_data())
    if t.startswith("a{"):
        return {str(plain(e.get_child_value(0))): plain(e.get_child_value(1)) for e in children(value)}
    if t[0] in "a(":
        return [plain(c) for c in children(value)]
    if t[0] == "m":
        return None if value.n_children() == 0 else plain(value.get_child_value(0))
    if t == "h":
        return value.get_handle()
    return value.unpack()  # s o g b y n q i u x t d


class App:
    def __init__(self, args, loop):
        self.args = args
        self.loop = loop
        self.connection = None
        self.leaving = False

    def record(self, entry):
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.args.record, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)  # one write per line: a reader never sees half a line
        finally:
            os.close(fd)

    def launch_response(self):
        command = [self.args.notify, "launch-response"]
        if self.args.app is not None:
            command += ["--app", self.args.app]
        if self.args.db is not None:
            command += ["--db", self.args.db]
        entry = {"launchResponse": None, "exit": None, "stdout": "", "stderr": ""}
        try:
            done = subprocess.run(
                command, stdin=subprocess.DEVNULL, capture_output=True, timeout=LAUNCH_RESPONSE_TIMEOUT
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            entry["error"] = f"{' '.join(command)}: {error}"
            self.record(entry)
            return
        stdout = done.stdout.decode("utf-8", "replace")
        entry.update(exit=done.returncode, stdout=stdout, stderr=done.stderr.decode("utf-8", "replace"))
        try:
            entry["launchResponse"] = json.loads(stdout) if stdout.strip() else None
        except ValueError:
            pass
        self.record(entry)

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        failed = False
        try:
            self.handle(sender, method, parameters)
        except Exception:
            self.record({"error": traceback.format_exc()})
            failed = True
        if not self.args.stay:
            self.leave()
        if failed:
            invocation.return_dbus_error("org.notify.Test.Error.Failed", f"{method} failed in the fixture")
        else:
            invocation.return_value(None)
        if not self.args.stay:
            # After calls that already reached this process (they run at default priority).
            GLib.idle_add(self.quit)

    def handle(self, sender, method, parameters):
        data = plain(parameters.get_child_value(parameters.n_children() - 1))
        if method == "ActivateAction":
            action = parameters.get_child_value(0).get_string()
            parameter = [plain(v) for v in children(parameters.get_child_value(1))]
            self.record(
                {"method": method, "action": action, "parameter": parameter, "platformData": data, "sender": sender}
            )
            self.launch_response()
        elif method == "Activate":
            self.record({"method": method, "platformData": data, "sender": sender})
            self.launch_response()
        elif method == "Open":
            uris = plain(parameters.get_child_value(0))
            self.record({"method": method, "uris": uris, "platformData": data, "sender": sender})
        else:
            raise NotImplementedError(method)

    def leave(self):
        """Gives the name up before answering: a later call activates a new process."""
        if self.leaving:
            return
        self.leaving = True
        try:
            self.connection.call_sync(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName",
                GLib.Variant("(s)", (self.args.name,)), GLib.VariantType("(u)"),
                Gio.DBusCallFlags.NONE, -1, None,
            )
        except GLib.Error as error:
            self.record({"error": f"ReleaseName: {error.message}"})

    def quit(self):
        self.loop.quit()
        return GLib.SOURCE_REMOVE


def main():
    parser = argparse.ArgumentParser(description="A D-Bus activatable app for tests.")
    parser.add_argument("--name", required=True, help="the bus name to own, e.g. org.example.Notified")
    parser.add_argument("--record", required=True, metavar="FILE", help="append a JSON line per event")
    parser.add_argument("--notify", default="notify", metavar="PATH", help="the notify executable (default: notify)")
    parser.add_argument("--db", help="passed to notify launch-response as --db")
    parser.add_argument("--app", help="passed to notify launch-response as --app")
    parser.add_argument("--stay", action="store_true", help="keep running after a call")
    args = parser.parse_args()

    loop = GLib.MainLoop()
    app = App(args, loop)
    app.record(
        {"started": True, "pid": os.getpid(), "activated": "DBUS_STARTER_BUS_TYPE" in os.environ, "name": args.name}
    )

    def fail(message):
        app.record({"error": message})
        print(f"activatable-app: {message}", file=sys.stderr, flush=True)
        sys.exit(1)

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        fail("DBUS_SESSION_BUS_ADDRESS is not set")
    if not Gio.dbus_is_name(args.name) or Gio.dbus_is_unique_name(args.name):
        fail(f"{args.name!r} is not a well-known bus name")
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, app.quit)

    try:
        # The shared connection exits the process (SIGTERM, handled above) when the bus goes.
        connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    except GLib.Error as error:
        fail(f"cannot connect to the session bus: {error.message}")
    app.connection = connection
    info = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION).lookup_interface(APPLICATION)
    connection.register_object(object_path(args.name), info, app.on_call, None, None)

    # Owned only once the object is exported: the message that activated us is delivered
    # as soon as the name is ours.
    DO_NOT_QUEUE, PRIMARY_OWNER = 4, 1
    (result,) = connection.call_sync(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
        GLib.Variant("(su)", (args.name, DO_NOT_QUEUE)), GLib.VariantType("(u)"),
        Gio.DBusCallFlags.NONE, -1, None,
    ).unpack()
    if result != PRIMARY_OWNER:
        fail(f"{args.name} is owned by another process (RequestName answered {result})")

    loop.run()
    try:
        connection.flush_sync(None)  # the last reply leaves before the process does
    except GLib.Error:
        pass  # the bus is gone
    app.record({"exiting": True, "pid": os.getpid()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
