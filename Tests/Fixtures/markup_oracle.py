#!/usr/bin/python3
"""A body-markup oracle for notify's BodyMarkup: Pango, which dunst and GNOME Shell parse a
notification body with. Pango has no <a>, and servers take links out before it parses the
body (dunst), so <a ...> and </a> tags are removed first.

stdin: a JSON array of markup texts. stdout: a JSON array, one entry per text: the text
Pango reads from it, or null when Pango refuses it.
"""
import json
import re
import sys

import gi

gi.require_version("Pango", "1.0")
from gi.repository import GLib, Pango  # noqa: E402

LINK = re.compile(r"</?a(\s[^>]*)?>")


def text(markup):
    try:
        _, _, plain, _ = Pango.parse_markup(LINK.sub("", markup), -1, "\0")
        return plain
    except GLib.Error:
        return None


print(json.dumps([text(m) for m in json.load(sys.stdin)]))
