"""What a user sees of the package: the installed wheel, the documented fields of every
command and event class (``help()``, ``inspect``), ``UnitMoved.to``, and signatures
(no ``Ellipsis`` default, the same as the stubs')."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import inspect
import json
import os
import pathlib
import pydoc
import random
import sysconfig
import types
from typing import Any, Iterator, is_typeddict

import pytest

import fm
import fm.events
import fm.huzzah
import fm.huzzah.events
import fm.huzzah.pending
from fm import _field_docs
from conftest import play_random

PACKAGE = pathlib.Path(fm.__file__).parent
# pydoc's renderer without bold (what help() prints to a pipe); not in typeshed.
PLAIN: Any = getattr(pydoc, "plaintext")

# (module, base class, generated table): every command and event class of both systems.
CLASSES: list[tuple[types.ModuleType, type, _field_docs.Fields]] = [
    (fm, fm.Command, _field_docs.FM_COMMANDS),
    (fm.events, fm.events.Event, _field_docs.FM_EVENTS),
    (fm.huzzah, fm.huzzah.Command, _field_docs.HUZZAH_COMMANDS),
    (fm.huzzah.events, fm.huzzah.events.Event, _field_docs.HUZZAH_EVENTS),
    (fm.huzzah.events, fm.huzzah.events.Value, _field_docs.HUZZAH_VALUES),
    (fm.huzzah.pending, fm.huzzah.Pending, _field_docs.HUZZAH_PENDING),
]

# Properties derived from the JSON fields, not keys of the JSON form.
DERIVED = {("UnitMoved", "to")}


def test_the_tested_fm_is_the_installed_wheel() -> None:
    """scripts/test_py.sh installs the abi3 wheel it built and sets
    FM_TEST_INSTALLED_WHEEL: the suite must then run against that wheel, not a source
    tree on sys.path or an editable install."""
    if not os.environ.get("FM_TEST_INSTALLED_WHEEL"):
        pytest.skip("FM_TEST_INSTALLED_WHEEL unset (scripts/test_py.sh sets it)")
    site = {pathlib.Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    assert PACKAGE.resolve().parent in site, f"fm imported from {PACKAGE}, not site-packages"
    native = importlib.import_module("fm._fm").__file__
    assert native is not None and native.endswith(".abi3.so")
    dist = importlib.metadata.distribution("fm-py")
    direct = dist.read_text("direct_url.json")
    if direct is not None:
        assert not json.loads(direct).get("dir_info", {}).get("editable", False)


def _classes(module: types.ModuleType, base: type) -> dict[str, type]:
    return {
        name: obj
        for name, obj in vars(module).items()
        if isinstance(obj, type) and issubclass(obj, base) and obj is not base
    }


@pytest.mark.parametrize("module,base,table", CLASSES, ids=lambda x: getattr(x, "__name__", ""))
def test_help_lists_every_field_of_every_class(
    module: types.ModuleType, base: type, table: _field_docs.Fields
) -> None:
    classes = _classes(module, base)
    # Every class the module has is documented (a new variant needs its stub class,
    # which scripts/gen_py_fields.py then documents).
    assert set(classes) == set(table)
    for name, cls in classes.items():
        text = pydoc.render_doc(cls, renderer=PLAIN)
        doc = inspect.getdoc(cls) or ""
        for attr, typ, meaning in table[name]:
            assert attr in text, (name, attr)
            assert f"{attr} ({typ}):" in doc, (name, attr)
            prop = inspect.getattr_static(cls, attr)
            assert isinstance(prop, property) and prop.fset is None, (name, attr)
            assert prop.__doc__ == f"{typ}: {meaning}"
            # The meaning is the Rust doc comment, never empty.
            assert meaning.strip(), (name, attr)
        if not table[name]:
            assert "Attributes:" in doc


def test_help_of_unit_moved() -> None:
    """The issue's example: ``help(fm.events.UnitMoved)`` shows its fields."""
    text = pydoc.render_doc(fm.events.UnitMoved, renderer=PLAIN)
    for line in (
        "unit (str): The unit.",
        "from_ (str | None): Start hex; `None` for a reinforcement entering.",
        "path (list[str]): Hexes entered, in order.",
        "mp (str): MP spent.",
        "to (str): The hex the unit ended its move in",
    ):
        assert line in text


def _objects(m: fm.Match) -> Iterator[Any]:
    """Every command and event of a match so far, opening events included."""
    yield from m.opening_events
    for entry in m.log:
        yield entry.command
        yield from entry.events


def _check_properties(objects: Iterator[Any], tables: list[tuple[str, _field_docs.Fields]]) -> set[str]:
    """Each documented property reads what ``__getattr__`` and the JSON form hold, and
    the JSON form has no field the table lacks. ``tables``: each module's table (a
    command and a pending decision may share a class name). Returns the class names
    seen."""
    seen = set()
    for obj in objects:
        name = type(obj).__name__
        rows = next(t[name] for mod, t in tables if mod == type(obj).__module__ and name in t)
        attrs = {attr for attr, _, _ in rows}
        assert set(obj.fields()) <= attrs, name
        d = obj.to_dict()
        for attr, _, _ in rows:
            value = getattr(obj, attr)
            assert value == obj._field(attr)
            key = attr.rstrip("_")
            if key in d:
                assert _plain(value) == d[key], (name, attr)
            else:
                assert (name, attr) in DERIVED or value in (None, [], 0), (name, attr)
        seen.add(name)
    return seen


def _plain(v: Any) -> Any:
    """A typed attribute (a Huzzah! value or decision, a tuple) as its JSON form."""
    if isinstance(v, (fm.huzzah.events.Value, fm.huzzah.Pending)):
        return v.to_dict()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def test_properties_read_the_fields_in_played_games() -> None:
    tables = [("fm", _field_docs.FM_COMMANDS), ("fm.events", _field_docs.FM_EVENTS)]
    seen: set[str] = set()
    for scenario, seed in [("system-demo", 1), ("suez-1916", 2)]:
        m = fm.Match(scenario, seed=seed)
        play_random(m, random.Random(seed), limit=400)
        seen |= _check_properties(_objects(m), tables)
    assert {"Move", "Attack", "UnitMoved", "CombatResolved", "Done"} <= seen
    h = fm.Match("huzzah-firefight", seed=1)
    h.playout(max_commands=300, seed=1)
    hz_tables = [
        ("fm.huzzah", _field_docs.HUZZAH_COMMANDS),
        ("fm.huzzah.events", _field_docs.HUZZAH_EVENTS),
        ("fm.huzzah.events", _field_docs.HUZZAH_VALUES),
        ("fm.huzzah.pending", _field_docs.HUZZAH_PENDING),
    ]
    objects = list(_objects(h))
    objects += [e.decision for e in objects if isinstance(e, fm.huzzah.events.Awaiting)]
    objects += [e.test for e in objects if isinstance(e, fm.huzzah.events.FireResolved)]
    hz = _check_properties(iter(objects), hz_tables)
    assert {"Fire", "FireResolved", "EndPhase", "DeclareFire", "FactorTest"} <= hz


def test_unit_moved_to_is_the_last_hex_entered(moving: fm.Match) -> None:
    move = next(c for c in moving.legal_commands() if isinstance(c, fm.Move) and len(c.path) > 1)
    events = moving.apply(move)
    moved = next(e for e in events if isinstance(e, fm.events.UnitMoved))
    assert moved.to == move.path[-1] == moved.path[-1]
    assert moved.to != moved.from_
    unit = next(u for u in moving.state["units"] if u["id"] == move.unit)
    assert unit["loc"] == {"map": moved.to}
    # The JSON form (docs/protocol.md) is unchanged: no "to" key.
    assert "to" not in moved.to_dict() and "to" not in moved.fields()
    assert set(json.loads(moved.to_json())) == {"type", "unit", "from", "path", "mp"}
    again = fm.events.Event.from_dict(moved.to_json())
    assert again == moved and again.to == moved.to


def test_unit_moved_to_of_a_hand_built_event_without_path() -> None:
    e = fm.events.Event.from_dict(
        {"type": "unit_moved", "unit": "u", "from": "0101", "path": [], "mp": "0"}
    )
    assert not hasattr(e, "to")
    with pytest.raises(AttributeError, match="empty path"):
        e.to


# ------------------------------------------------------------------ signatures

MODULES = [
    "fm",
    "fm.events",
    "fm.huzzah",
    "fm.huzzah.events",
    "fm.huzzah.pending",
    "fm.agents",
    "fm.openspiel",
    "fm.env",
    "fm.tournament",
]
STUBS = {
    "fm": "__init__.pyi",
    "fm.events": "events.pyi",
    "fm.huzzah": "huzzah/__init__.pyi",
    "fm.huzzah.events": "huzzah/events.pyi",
    "fm.huzzah.pending": "huzzah/pending.pyi",
}
# How many stub functions each module has at least (the walk must not come up empty;
# fm.huzzah.pending's classes have attributes only).
MIN_COMPARED = {
    "fm": 60,
    "fm.events": 5,
    "fm.huzzah": 25,
    "fm.huzzah.events": 12,
    "fm.huzzah.pending": 0,
}


def _public_callables() -> Iterator[tuple[str, str, Any]]:
    """(module, qualified name, object) of every public function, class and method of
    the package's modules."""
    for modname in MODULES:
        module = importlib.import_module(modname)
        for name, obj in sorted(vars(module).items()):
            if name.startswith("_") or not getattr(obj, "__module__", "").startswith("fm"):
                continue
            if inspect.isclass(obj):
                yield modname, name, obj
                for mname, member in sorted(vars(obj).items()):
                    if mname.startswith("_") and mname != "__init__":
                        continue
                    if isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if callable(member) and not inspect.isclass(member):
                        yield modname, f"{name}.{mname}", member
            elif callable(obj):
                yield modname, name, obj


def _signature(obj: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except ValueError:
        return None


def test_no_signature_shows_an_ellipsis_default() -> None:
    checked = 0
    missing = []
    for modname, qualname, obj in _public_callables():
        sig = _signature(obj)
        if sig is None:
            # A class without a constructor (events) or a TypedDict has no signature;
            # anything else callable must have one for help() and Jupyter.
            if not (inspect.isclass(obj) and (obj.__init__ is object.__init__ or is_typeddict(obj))):
                missing.append(f"{modname}.{qualname}")
            continue
        for p in sig.parameters.values():
            assert p.default is not Ellipsis, f"{modname}.{qualname}: {p.name}=..."
        checked += 1
    assert not missing, f"no inspectable signature: {missing}"
    assert checked > 150


def _stub_functions(tree: ast.Module) -> Iterator[tuple[str, list[ast.FunctionDef]]]:
    """(qualified name, its definitions: several for an overload) of a stub's functions
    and methods."""
    def walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, list[ast.FunctionDef]]]:
        defs: dict[str, list[ast.FunctionDef]] = {}
        for node in body:
            if isinstance(node, ast.FunctionDef):
                decorators = {ast.unparse(d) for d in node.decorator_list}
                if decorators & {"property", "overload"} == {"property"}:
                    continue
                defs.setdefault(prefix + node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, f"{prefix}{node.name}.")
        yield from defs.items()

    yield from walk(tree.body, "")


def _stub_params(f: ast.FunctionDef) -> list[tuple[str, str, Any]]:
    """(name, kind, default) of a stub function's parameters, ``self`` left out; a
    default of ``...`` is kept as Ellipsis (and is an error: Jupyter shows it)."""
    a = f.args
    out: list[tuple[str, str, Any]] = []
    positional = a.posonlyargs + a.args
    firsts = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(positional, firsts):
        kind = "POSITIONAL_ONLY" if arg in a.posonlyargs else "POSITIONAL_OR_KEYWORD"
        out.append((arg.arg, kind, inspect.Parameter.empty if d is None else ast.literal_eval(d)))
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", inspect.Parameter.empty))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", inspect.Parameter.empty if d is None else ast.literal_eval(d)))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", inspect.Parameter.empty))
    if out and out[0][0] in ("self", "cls"):
        out = out[1:]
    return out


def _runtime_params(sig: inspect.Signature) -> list[tuple[str, str, Any]]:
    params = [(p.name, p.kind.name, p.default) for p in sig.parameters.values()]
    if params and params[0][0] in ("self", "cls", "$self"):
        params = params[1:]
    return params


def _loose(params: list[tuple[str, str, Any]]) -> list[tuple[str, str, Any]]:
    """Positional-only and positional-or-keyword are one kind here: native methods of
    pyo3 take either, stubs usually write the latter."""
    return [(n, "POSITIONAL" if k.startswith("POSITIONAL") else k, d) for n, k, d in params]


@pytest.mark.parametrize("modname", sorted(STUBS))
def test_signatures_match_the_stubs(modname: str) -> None:
    module = importlib.import_module(modname)
    tree = ast.parse((PACKAGE / STUBS[modname]).read_text(encoding="utf-8"))
    compared = 0
    for qualname, defs in _stub_functions(tree):
        stub_sigs = [_loose(_stub_params(f)) for f in defs]
        for params in stub_sigs:
            assert all(d is not Ellipsis for _, _, d in params), f"stub {modname}.{qualname}: default ..."
        if qualname.split(".")[-1].startswith("__") and not qualname.endswith("__init__"):
            continue  # slots (__eq__, __getattr__, ...): stubtest checks them
        obj: Any = module
        for part in qualname.split("."):
            if part == "__init__" and inspect.isclass(obj):
                break
            obj = inspect.getattr_static(obj, part, None)
            if isinstance(obj, (staticmethod, classmethod)):
                obj = obj.__func__
        assert obj is not None, f"{modname}.{qualname} is in the stub, not at runtime"
        sig = _signature(obj)
        assert sig is not None, f"{modname}.{qualname}: no runtime signature"
        runtime = _loose(_runtime_params(sig))
        if len(stub_sigs) == 1:
            assert runtime == stub_sigs[0], f"{modname}.{qualname}: {sig} vs the stub"
        else:
            # An overload: the runtime takes each overload's parameters, by name: its
            # positional ones as the runtime's first, its keyword-only ones anywhere.
            names = [n for n, _, _ in runtime]
            for params in stub_sigs:
                pos = [n for n, k, _ in params if k != "KEYWORD_ONLY"]
                assert pos == names[: len(pos)], f"{modname}.{qualname}"
                kw = [n for n, k, _ in params if k == "KEYWORD_ONLY"]
                assert set(kw) <= set(names), f"{modname}.{qualname}: {kw}"
        compared += 1
    assert compared >= MIN_COMPARED[modname], compared
