#!/usr/bin/python3
"""What a screen reader hears from the apps on the accessibility bus (AT-SPI), as JSON lines.

Run it with the system Python (python3-pyatspi) in the same D-Bus session as the apps, for
example:

    dbus-run-session -- sh -c '/usr/bin/python3 Tools/screen-reader-listener.py & exec Apps/.build/debug/showcase'

It follows the rules Orca applies to an application's events (see Orca's "Tips for Application
Developers"): a widget that takes the focus is presented by its name and description; a change
of name or description is presented when it comes from the widget that has the focus; an
`announcement` event (AT-SPI 2.46, GTK 4.14) is presented as it comes. Everything else that
carries text (name and description changes of widgets without the focus) reaches the bus but is
not spoken.

Lines printed on standard output, one JSON object each, flushed at once:
  {"kind":"ready"}                                   once listening
  {"kind":"heard","text":…,"via":…,"role":…,"name":…} a sentence a screen reader speaks;
        via is "focus-name", "focus-description", "name", "description" or "announcement"
  {"kind":"unspoken","text":…,"via":…,"role":…,"name":…} text on the bus that is not spoken
  {"kind":"focus","role":…,"name":…}                 the focus moved (before its "heard" lines)
"""

import json
import os
import sys

import pyatspi
from gi.repository import GLib


def emit(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


class Listener:
    def __init__(self):
        self.focus = None

    @staticmethod
    def describe(source):
        try:
            return source.getRoleName(), source.name or ""
        except Exception:  # the object went away (defunct) before we asked
            return "", ""

    def same(self, source):
        try:
            return self.focus is not None and source == self.focus
        except Exception:
            return False

    def heard(self, text, via, source, spoken=True):
        if not text:
            return
        role, name = self.describe(source)
        emit(kind="heard" if spoken else "unspoken", text=text, via=via, role=role, name=name)

    def on_event(self, event):
        kind = event.type
        source = event.source
        if kind.startswith("object:state-changed:focused"):
            if event.detail1 != 1:
                return
            self.focus = source
            role, name = self.describe(source)
            emit(kind="focus", role=role, name=name)
            self.heard(name, "focus-name", source)
            try:
                description = source.description or ""
            except Exception:
                description = ""
            self.heard(description, "focus-description", source)
        elif kind.startswith("object:property-change:accessible-name"):
            self.heard(str(event.any_data or ""), "name", source, spoken=self.same(source))
        elif kind.startswith("object:property-change:accessible-description"):
            self.heard(str(event.any_data or ""), "description", source, spoken=self.same(source))
        elif kind.startswith("object:announcement"):
            self.heard(str(event.any_data or ""), "announcement", source)


def main():
    listener = Listener()
    pyatspi.Registry.registerEventListener(
        listener.on_event,
        "object:state-changed:focused",
        "object:property-change:accessible-name",
        "object:property-change:accessible-description",
        "object:announcement",
    )
    # Started beside an app (`sh -c 'listener & exec app'`): end with it, whatever becomes of
    # the bus.
    parent = os.getppid()

    def parent_alive():
        if os.getppid() != parent:
            pyatspi.Registry.stop()
            return False
        return True

    GLib.timeout_add(250, parent_alive)
    emit(kind="ready")
    pyatspi.Registry.start()


if __name__ == "__main__":
    main()
