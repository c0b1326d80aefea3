#!/usr/bin/env python3
"""Writes fm-py/python/fm/_field_docs.py: the fields of every command and event class of
the Python module (Fire & Movement's and Huzzah!'s), of Huzzah!'s pending decisions and
of the values inside its events (a point, a shape, a test, ...), each with its Python
type and its meaning, for ``help()``, ``inspect`` and Jupyter (``fm/_fields.py`` turns
the table into read-only properties and an "Attributes:" section of each class's
docstring).

The meanings are the doc comments of the variant fields of fm-core's enums and of the
fields of its structs (one source, the Rust one: a comment changed there changes
``help()``); the types are those of the hand-written stubs (``python/fm/*.pyi``,
checked against the module by mypy stubtest).
A field missing from a stub, or a stub field that is neither a Rust field nor a derived
property listed in DERIVED below, is an error, so the stubs, the Rust enums and the
table cannot drift apart.

    python3 scripts/gen_py_fields.py           (rewrites the table)
    python3 scripts/gen_py_fields.py --check   (exits 1 if it is not current; test_py.sh)

Standard library only; the Rust enums and structs are read line by line (doc comments,
attributes, `Variant {`, `Variant(Type),`, `field: Type,`), the form rustfmt keeps them
in.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fm-py/python/fm/_field_docs.py"

# (table name, Rust file, enum, stub file, stub base class)
SOURCES = [
    ("FM_COMMANDS", "fm-core/src/fm/command.rs", "Command", "fm-py/python/fm/__init__.pyi", "Command"),
    ("FM_EVENTS", "fm-core/src/fm/event.rs", "Event", "fm-py/python/fm/events.pyi", "Event"),
    (
        "HUZZAH_COMMANDS",
        "fm-core/src/huzzah/command.rs",
        "Command",
        "fm-py/python/fm/huzzah/__init__.pyi",
        "Command",
    ),
    (
        "HUZZAH_EVENTS",
        "fm-core/src/huzzah/event.rs",
        "Event",
        "fm-py/python/fm/huzzah/events.pyi",
        "Event",
    ),
    (
        "HUZZAH_PENDING",
        "fm-core/src/huzzah/state.rs",
        "Pending",
        "fm-py/python/fm/huzzah/pending.pyi",
        "Pending",
    ),
]

# The values inside Huzzah!'s events, one class each (table HUZZAH_VALUES, stubs in
# VALUES_STUB, base class Value): (Rust file, Rust type, its form, Python class). A
# `struct` has a row per field; a `tagged` enum (serde's internal tag `phase`) the tag's
# row, then every field of its variants (a field's docs joined when they differ); an
# `external` enum of one-value variants (`{"unit": id}`) a row per variant.
VALUES = [
    ("fm-core/src/huzzah/geometry/position.rs", "Point", "struct", "Point"),
    ("fm-core/src/huzzah/geometry/shape.rs", "Shape", "struct", "Shape"),
    ("fm-core/src/huzzah/event.rs", "Test", "struct", "FactorTest"),
    ("fm-core/src/huzzah/event.rs", "Modifier", "struct", "Modifier"),
    ("fm-core/src/huzzah/state.rs", "Phase", "tagged:phase", "Phase"),
    ("fm-core/src/huzzah/state.rs", "Outcome", "struct", "Outcome"),
    ("fm-core/src/huzzah/command.rs", "GroupArg", "external", "Group"),
]
VALUES_STUB = "fm-py/python/fm/huzzah/events.pyi"

# Properties the bindings derive from the JSON fields (fm-py/src/fm/field.rs, `field`):
# (table, class) -> [(attribute, meaning)]. Their types come from the stubs too.
DERIVED = {
    ("FM_EVENTS", "UnitMoved"): [
        (
            "to",
            "The hex the unit ended its move in: the last of `path` (derived from it; "
            "not a key of the JSON form).",
        )
    ],
}

# JSON keys that are Python keywords (or shadow `type`) are read as `key_` (fm-py/src/typed.rs).
KEYWORDS = {"from", "type", "in", "is", "with"}


def q(s: str) -> str:
    """A Python string literal in double quotes (the project's style)."""
    return json.dumps(s, ensure_ascii=False)


def attr_name(key: str) -> str:
    return key + "_" if key in KEYWORDS else key


def plain(doc: str) -> str:
    """A Rust doc comment as docstring text: intra-doc links lose their brackets."""
    return re.sub(r"\[(`[^`]+`)\](\([^)]*\))?", r"\1", doc)


def snake(name: str) -> str:
    """A variant's name as serde's `rename_all = "snake_case"` writes it."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def rust_variants(path: Path, enum: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The variants of `pub enum <enum>` and their fields: [(variant, [(key, doc)])]; a
    one-value variant `Name(Type),` has the one field `(snake name, its doc)`. A field's
    key is its name, or the name its `#[serde(rename = "…")]` gives it."""
    return rust_items(path, f"pub enum {enum} {{", f"enum {enum}")


def rust_struct(path: Path, struct: str) -> list[tuple[str, str]]:
    """The fields of `pub struct <struct>`: [(key, doc)]."""
    found = rust_items(path, f"pub struct {struct} {{", f"struct {struct}", struct=True)
    return found[0][1]


def rust_items(
    path: Path, opening: str, what: str, struct: bool = False
) -> list[tuple[str, list[tuple[str, str]]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index(opening)
    except ValueError:
        sys.exit(f"gen_py_fields: no `{opening}` in {path}")
    variants: list[tuple[str, list[tuple[str, str]]]] = []
    doc: list[str] = []
    fields: list[tuple[str, str]] | None = None
    if struct:
        fields = []
        variants.append((what, fields))
    rename: str | None = None
    in_attr = False
    for n, raw in enumerate(lines[start + 1 :], start + 2):
        line = raw.strip()
        if in_attr:
            # An attribute rustfmt wrapped over several lines ends with `)]`.
            in_attr = not line.endswith(")]")
            continue
        if line == "}" and (fields is None or struct):
            return variants
        if line.startswith("///"):
            doc.append(line[3:].strip())
        elif line.startswith("#["):
            in_attr = line.count("(") > line.count(")")
            if m := re.search(r'rename = "([^"]+)"', line):
                rename = m.group(1)
        elif (m := re.fullmatch(r"([A-Z]\w*) \{", line)) and not struct:
            fields = []
            variants.append((m.group(1), fields))
            doc = []
        elif (m := re.fullmatch(r"([A-Z]\w*),", line)) and not struct:
            variants.append((m.group(1), []))
            doc = []
        elif (m := re.fullmatch(r"([A-Z]\w*)\(.+\),", line)) and not struct:
            if not doc:
                sys.exit(f"gen_py_fields: {path}:{n}: variant `{m.group(1)}` has no doc comment")
            variants.append((m.group(1), [(snake(m.group(1)), plain(" ".join(doc)))]))
            doc = []
        elif line in ("},", "}") and fields is not None:
            fields = None
        elif (m := re.fullmatch(r"(?:pub )?([a-z_][a-z0-9_]*): .+,", line)) and fields is not None:
            if not doc:
                sys.exit(f"gen_py_fields: {path}:{n}: field `{m.group(1)}` has no doc comment")
            fields.append((rename or m.group(1), plain(" ".join(doc))))
            doc = []
            rename = None
        elif line:
            sys.exit(f"gen_py_fields: {path}:{n}: unexpected line in {what}: {raw!r}")
    sys.exit(f"gen_py_fields: {path}: {what} does not end")


def value_rows(path: Path, rust: str, form: str) -> list[tuple[str, str]]:
    """The fields of one value class (see VALUES): [(key, doc)]."""
    if form == "struct":
        return rust_struct(path, rust)
    variants = rust_variants(path, rust)
    if form == "external":
        return [f for _, fields in variants for f in fields]
    tag = form.split(":", 1)[1]
    names = ", ".join(f"`{snake(v)}`" for v, _ in variants)
    rows: list[tuple[str, str]] = [(tag, f"The {rust.lower()}: one of {names}.")]
    docs: dict[str, list[tuple[str, str]]] = {}
    for v, fields in variants:
        for key, doc in fields:
            docs.setdefault(key, [])
            if all(doc != d for _, d in docs[key]):
                docs[key].append((snake(v), doc))
    for key, found in docs.items():
        first = found[0][1]
        more = "".join(f" (`{v}`: {d})" for v, d in found[1:])
        rows.append((key, first + more))
    return rows


def stub_fields(path: Path, base: str) -> dict[str, list[tuple[str, str]]]:
    """The annotated attributes of each direct subclass of `base` in a stub file."""
    out: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    in_doc = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(rf"class (\w+)\({base}\):", raw):
            current = out.setdefault(m.group(1), [])
            in_doc = False
            continue
        if raw and not raw.startswith(" "):
            current = None
            continue
        if current is None:
            continue
        line = raw.strip()
        # Docstrings (the class's, or an attribute's) are skipped.
        quotes = line.count('"""')
        if in_doc:
            in_doc = quotes % 2 == 0
            continue
        if line.startswith('"""'):
            in_doc = quotes == 1
            continue
        if m := re.fullmatch(r"(\w+): (.+)", line):
            current.append((m.group(1), m.group(2)))
    return out


def build() -> str:
    out = [
        '"""The fields of the command and event classes: for each class, its attributes as',
        "``(name, type, meaning)``, in the order of the JSON form (derived ones last).",
        "",
        "Generated by scripts/gen_py_fields.py from the doc comments of fm-core's enums and",
        "the types of the stubs: do not edit (scripts/test_py.sh checks that it is current).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "Fields = dict[str, list[tuple[str, str, str]]]",
    ]
    errors: list[str] = []
    for table, rust, enum, stub, base in SOURCES:
        variants = rust_variants(ROOT / rust, enum)
        stubs = stub_fields(ROOT / stub, base)
        out += ["", f"{table}: Fields = {{"]
        for variant, fields in variants:
            typed = dict(stubs.get(variant, []))
            if variant not in stubs:
                errors.append(f"{stub}: no class {variant}({base}) for {rust}'s {enum}::{variant}")
                continue
            rows = [(attr_name(k), doc) for k, doc in fields]
            rows += DERIVED.get((table, variant), [])
            for attr, _ in rows:
                if attr not in typed:
                    errors.append(f"{stub}: {variant} lacks the field `{attr}: <type>`")
            extra = set(typed) - {a for a, _ in rows}
            if extra:
                errors.append(
                    f"{stub}: {variant} has {sorted(extra)}, not fields of {rust}'s "
                    f"{enum}::{variant} (a derived one goes in DERIVED)"
                )
            out.append(f"    {q(variant)}: [")
            for attr, doc in rows:
                out.append(f"        ({q(attr)}, {q(typed.get(attr, ''))}, {q(doc)}),")
            out.append("    ],")
        unknown = set(stubs) - {v for v, _ in variants}
        if unknown:
            errors.append(f"{stub}: {sorted(unknown)} are no variants of {rust}'s {enum}")
        out.append("}")
    stubs = stub_fields(ROOT / VALUES_STUB, "Value")
    out += ["", "HUZZAH_VALUES: Fields = {"]
    for rust, name, form, cls in VALUES:
        typed = dict(stubs.get(cls, []))
        if cls not in stubs:
            errors.append(f"{VALUES_STUB}: no class {cls}(Value) for {rust}'s {name}")
            continue
        rows = [(attr_name(k), doc) for k, doc in value_rows(ROOT / rust, name, form)]
        for attr, _ in rows:
            if attr not in typed:
                errors.append(f"{VALUES_STUB}: {cls} lacks the field `{attr}: <type>`")
        extra = set(typed) - {a for a, _ in rows}
        if extra:
            errors.append(f"{VALUES_STUB}: {cls} has {sorted(extra)}, not fields of {rust}'s {name}")
        out.append(f"    {q(cls)}: [")
        for attr, doc in rows:
            out.append(f"        ({q(attr)}, {q(typed.get(attr, ''))}, {q(doc)}),")
        out.append("    ],")
    unknown = set(stubs) - {cls for *_, cls in VALUES}
    if unknown:
        errors.append(f"{VALUES_STUB}: {sorted(unknown)} are no value classes (VALUES)")
    out.append("}")
    if errors:
        sys.exit("gen_py_fields:\n  " + "\n  ".join(errors))
    return "\n".join(out) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the table is not current")
    args = p.parse_args()
    text = build()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            sys.exit(
                f"gen_py_fields: {OUT.relative_to(ROOT)} is out of date "
                "(a doc comment or a stub changed): run python3 scripts/gen_py_fields.py"
            )
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
