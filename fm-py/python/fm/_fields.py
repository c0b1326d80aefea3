"""The documented fields of the command and event classes.

The native classes serve their fields through ``__getattr__`` (the JSON fields of the
wrapped value), which ``help()``, ``inspect``, ``dir()`` and Jupyter cannot see. This
module gives each class, from the generated table :mod:`fm._field_docs` (the Rust doc
comments of fm-core's enum fields and the stubs' types), a read-only property per field
(its docstring ``"type: meaning"``) and an "Attributes:" section in its docstring.
A property reads the same value ``__getattr__`` does (the native ``_field``).
"""

from __future__ import annotations

import operator
import textwrap
from typing import Any

from fm._field_docs import Fields

_SECTION = "\n\nAttributes:\n"


def _section(fields: list[tuple[str, str, str]]) -> str:
    if not fields:
        return _SECTION + "    None: the JSON form holds only the ``type``.\n"
    lines = []
    for name, typ, doc in fields:
        lines.append(
            textwrap.fill(
                f"{name} ({typ}): {doc}",
                width=88,
                initial_indent="    ",
                subsequent_indent="        ",
            )
        )
    return _SECTION + "\n".join(lines) + "\n"


def install(namespace: Any, table: Fields) -> None:
    """Adds the properties and the docstring section to each class of ``table`` found in
    ``namespace`` (a module). Done once per class: a second call changes nothing."""
    for name, fields in table.items():
        cls = getattr(namespace, name)
        doc = cls.__doc__ or ""
        if _SECTION in doc:
            continue
        for attr, typ, meaning in fields:
            setattr(cls, attr, property(operator.methodcaller("_field", attr), doc=f"{typ}: {meaning}"))
        cls.__doc__ = doc.rstrip() + _section(fields)
