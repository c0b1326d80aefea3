"""The installed wheel on its own: scripts/test_py.sh runs this in a fresh virtual
environment of each CPython it finds (3.11 and any newer one: the abi3 wheel's promise),
with nothing installed but the wheel. Not a pytest module (no ``test_`` prefix)."""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pydoc
import sys

import fm
import fm.events
import fm.huzzah

native = pathlib.Path(str(importlib.import_module("fm._fm").__file__))
assert native.name.endswith(".abi3.so"), native
assert "site-packages" in native.parts, native
m = fm.Match("system-demo", seed=1)
commands = m.playout()
assert m.is_over and commands > 0
h = fm.Match("huzzah-firefight", seed=1)
assert h.playout(max_commands=50) > 0
assert isinstance(h.log[-1].command, fm.huzzah.Command)
assert "to (str)" in pydoc.render_doc(fm.events.UnitMoved, renderer=getattr(pydoc, "plaintext"))
assert inspect.signature(fm.Match.odds).parameters["units"].default is None
print(f"fm {fm.__version__} on Python {sys.version.split()[0]}: ok ({native.name})")
