#!/usr/bin/python3
"""A scripted org.freedesktop.Notifications server for tests (spec 1.2).

    /usr/bin/python3 notification-server.py --record FILE [--capabilities body,actions,...]
                                             [--notify-delay SECONDS | --silent]

Connects to $DBUS_SESSION_BUS_ADDRESS, exports the interfaces at /org/freedesktop/Notifications,
takes the name org.freedesktop.Notifications (failing if someone owns it) and then prints
READY on stdout. With --notify-delay it answers each Notify that many seconds late (a slow
server: it still shows every call it got, and the caller may have given up). With --silent
it never answers Notify (a hung server): each call is recorded as {"arrived":"Notify",
"summary","sender"} and nothing is shown. It shows nothing: every call and every signal it emits is appended to FILE
as one JSON line, and the test drives the user's side through org.notify.Test:

    Click(u id, s action_key, s token)  ActivationToken(id, token) when token is not empty,
                                        then ActionInvoked(id, action_key), then
                                        NotificationClosed(id, 2), as servers close on click
    Reply(u id, s text)                 NotificationReplied(id, text) (KDE's inline reply; advertise
                                        the `inline-reply` capability), then NotificationClosed(id, 2)
    Close(u id, u reason)               NotificationClosed(id, reason): 1 expired, 2 dismissed
    Shown() -> au                       the ids currently shown, ascending

Signals are broadcast, in that order, before the method returns. Exits 0 on SIGTERM or
SIGINT, and when the bus goes away. Needs Debian's python3-gi (run it with /usr/bin/python3).
"""

import argparse
import base64
import json
import os
import signal
import sys

from gi.repository import Gio, GLib

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
NOTIFICATIONS = "org.freedesktop.Notifications"
TEST = "org.notify.Test"
DEFAULT_CAPABILITIES = "body,actions,body-markup"
SERVER_INFORMATION = ("scripted", "notify-tests", "1", "1.2")

# NotificationClosed reasons (spec: 1 expired, 2 dismissed by the user, 3 CloseNotification).
CLOSED_DISMISSED = 2
CLOSED_BY_CALL = 3

INTROSPECTION = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="GetCapabilities">
      <arg type="as" name="capabilities" direction="out"/>
    </method>
    <method name="Notify">
      <arg type="s" name="app_name" direction="in"/>
      <arg type="u" name="replaces_id" direction="in"/>
      <arg type="s" name="app_icon" direction="in"/>
      <arg type="s" name="summary" direction="in"/>
      <arg type="s" name="body" direction="in"/>
      <arg type="as" name="actions" direction="in"/>
      <arg type="a{sv}" name="hints" direction="in"/>
      <arg type="i" name="expire_timeout" direction="in"/>
      <arg type="u" name="id" direction="out"/>
    </method>
    <method name="CloseNotification">
      <arg type="u" name="id" direction="in"/>
    </method>
    <method name="GetServerInformation">
      <arg type="s" name="name" direction="out"/>
      <arg type="s" name="vendor" direction="out"/>
      <arg type="s" name="version" direction="out"/>
      <arg type="s" name="spec_version" direction="out"/>
    </method>
    <signal name="NotificationClosed">
      <arg type="u" name="id"/>
      <arg type="u" name="reason"/>
    </signal>
    <signal name="ActionInvoked">
      <arg type="u" name="id"/>
      <arg type="s" name="action_key"/>
    </signal>
    <signal name="ActivationToken">
      <arg type="u" name="id"/>
      <arg type="s" name="activation_token"/>
    </signal>
    <signal name="NotificationReplied">
      <arg type="u" name="id"/>
      <arg type="s" name="text"/>
    </signal>
  </interface>
  <interface name="org.notify.Test">
    <method name="Click">
      <arg type="u" name="id" direction="in"/>
      <arg type="s" name="action_key" direction="in"/>
      <arg type="s" name="token" direction="in"/>
    </method>
    <method name="Reply">
      <arg type="u" name="id" direction="in"/>
      <arg type="s" name="text" direction="in"/>
    </method>
    <method name="Close">
      <arg type="u" name="id" direction="in"/>
      <arg type="u" name="reason" direction="in"/>
    </method>
    <method name="Shown">
      <arg type="au" name="ids" direction="out"/>
    </method>
  </interface>
</node>
"""


def fail(message):
    print(f"notification-server: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def text_of_bytes(data):
    """`ay` as a string: its UTF-8 text without trailing NULs, else base64:..."""
    data = bytes(data)
    try:
        return data.rstrip(b"\0").decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")


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


def children(value):
    return [value.get_child_value(i) for i in range(value.n_children())]


class Server:
    def __init__(self, record_path, capabilities, notify_delay=0.0, silent=False):
        self.notify_delay = notify_delay
        self.silent = silent
        # --silent: the Notify calls never answered (kept, so that GLib does not answer them).
        self.unanswered = []
        self.record_path = record_path
        self.capabilities = capabilities
        self.next_id = 1
        self.shown = set()
        self.connection = None

    def record(self, entry):
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.record_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)  # one write per line: a reader never sees half a line
        finally:
            os.close(fd)

    def emit(self, name, signature, values, entry):
        self.connection.emit_signal(None, OBJECT_PATH, NOTIFICATIONS, name, GLib.Variant(signature, values))
        self.record(dict(signal=name, **entry))

    def closed(self, nid, reason):
        self.shown.discard(nid)
        self.emit("NotificationClosed", "(uu)", (nid, reason), {"id": nid, "reason": reason})

    def new_id(self):
        while self.next_id in self.shown or self.next_id == 0:
            self.next_id = (self.next_id + 1) & 0xFFFFFFFF
        nid = self.next_id
        self.next_id = (self.next_id + 1) & 0xFFFFFFFF
        return nid

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        if self.silent and interface == NOTIFICATIONS and method == "Notify":
            summary = parameters.get_child_value(3).get_string()
            self.record({"arrived": "Notify", "summary": summary, "sender": sender})
            self.unanswered.append(invocation)
            return
        try:
            reply = self.dispatch(sender, interface, method, parameters)
        except Exception as error:  # a fixture bug: answer, and say so in the record
            self.record({"error": f"{interface}.{method}: {error!r}"})
            invocation.return_dbus_error("org.notify.Test.Error.Failed", repr(error))
            return
        if self.notify_delay > 0 and interface == NOTIFICATIONS and method == "Notify":
            GLib.timeout_add(int(self.notify_delay * 1000), lambda: invocation.return_value(reply) or False)
            return
        invocation.return_value(reply)

    def dispatch(self, sender, interface, method, parameters):
        if interface == NOTIFICATIONS and method == "GetCapabilities":
            return GLib.Variant("(as)", (self.capabilities,))
        if interface == NOTIFICATIONS and method == "GetServerInformation":
            return GLib.Variant("(ssss)", SERVER_INFORMATION)
        if interface == NOTIFICATIONS and method == "Notify":
            app_name, replaces_id, app_icon, summary, body, actions, _, expire_timeout = parameters.unpack()
            # A non-zero replaces_id is returned as is (spec), shown or not, as dunst does.
            nid = replaces_id if replaces_id != 0 else self.new_id()
            self.shown.add(nid)
            self.record(
                {
                    "call": "Notify",
                    "id": nid,
                    "app_name": app_name,
                    "replaces_id": replaces_id,
                    "app_icon": app_icon,
                    "summary": summary,
                    "body": body,
                    "actions": list(actions),
                    "hints": plain(parameters.get_child_value(6)),
                    "expire_timeout": expire_timeout,
                    "sender": sender,
                }
            )
            return GLib.Variant("(u)", (nid,))
        if interface == NOTIFICATIONS and method == "CloseNotification":
            (nid,) = parameters.unpack()
            shown = nid in self.shown
            self.record({"call": "CloseNotification", "id": nid, "shown": shown, "sender": sender})
            if shown:
                self.closed(nid, CLOSED_BY_CALL)
            return None
        if interface == TEST and method == "Click":
            nid, action_key, token = parameters.unpack()
            self.record({"call": "Click", "id": nid, "action_key": action_key, "token": token, "shown": nid in self.shown})
            if token:
                self.emit("ActivationToken", "(us)", (nid, token), {"id": nid, "token": token})
            self.emit("ActionInvoked", "(us)", (nid, action_key), {"id": nid, "action_key": action_key})
            self.closed(nid, CLOSED_DISMISSED)
            return None
        if interface == TEST and method == "Reply":
            nid, text = parameters.unpack()
            self.record({"call": "Reply", "id": nid, "shown": nid in self.shown})
            self.emit("NotificationReplied", "(us)", (nid, text), {"id": nid})
            self.closed(nid, CLOSED_DISMISSED)
            return None
        if interface == TEST and method == "Close":
            nid, reason = parameters.unpack()
            self.record({"call": "Close", "id": nid, "reason": reason, "shown": nid in self.shown})
            self.closed(nid, reason)
            return None
        if interface == TEST and method == "Shown":
            return GLib.Variant("(au)", (sorted(self.shown),))
        raise NotImplementedError(f"no method {interface}.{method}")


def main():
    parser = argparse.ArgumentParser(description="A scripted freedesktop notification server for tests.")
    parser.add_argument("--record", required=True, metavar="FILE", help="append a JSON line per call and signal")
    parser.add_argument(
        "--capabilities",
        default=DEFAULT_CAPABILITIES,
        metavar="LIST",
        help=f"comma-separated GetCapabilities answer (default {DEFAULT_CAPABILITIES}; '' for none)",
    )
    parser.add_argument(
        "--notify-delay", type=float, default=0.0, metavar="SECONDS", help="answer each Notify this late"
    )
    parser.add_argument("--silent", action="store_true", help="never answer Notify (record its arrival only)")
    args = parser.parse_args()
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        fail("DBUS_SESSION_BUS_ADDRESS is not set: start a bus first (.ci/desktop-session.sh or private-bus.sh)")

    server = Server(args.record, [c for c in args.capabilities.split(",") if c], args.notify_delay, args.silent)
    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: loop.quit() or GLib.SOURCE_REMOVE)

    try:
        # The shared connection exits the process (SIGTERM, handled above) when the bus goes.
        connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    except GLib.Error as error:
        fail(f"cannot connect to the session bus: {error.message}")
    server.connection = connection
    node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
    for info in node.interfaces:
        connection.register_object(OBJECT_PATH, info, server.on_call, None, None)

    # Owned only once the objects are exported: a call that arrives at once finds them.
    DO_NOT_QUEUE, PRIMARY_OWNER = 4, 1
    (result,) = connection.call_sync(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
        GLib.Variant("(su)", (BUS_NAME, DO_NOT_QUEUE)), GLib.VariantType("(u)"),
        Gio.DBusCallFlags.NONE, -1, None,
    ).unpack()
    if result != PRIMARY_OWNER:
        fail(f"{BUS_NAME} is owned by another process (RequestName answered {result})")
    print("READY", flush=True)

    loop.run()
    try:
        connection.flush_sync(None)
    except GLib.Error:
        pass  # the bus is gone
    return 0


if __name__ == "__main__":
    sys.exit(main())
