"""Every error is a Python exception of the fm hierarchy; nothing panics into Python."""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
import sys
import time
from typing import Any, Callable

import pytest

import fm
from conftest import play_random


def test_rule_error(moving: fm.Match) -> None:
    before, n = moving.hash, len(moving.log)
    with pytest.raises(fm.RuleError) as info:
        moving.apply(fm.Move("red-10-inf-rgt", ["0804"]))
    e = info.value
    assert isinstance(e, ValueError)
    assert e.rule == "5.2"
    assert "red-10-inf-rgt" in e.message
    assert str(e) == f"{e.rule}: {e.message}"
    assert moving.hash == before and len(moving.log) == n, "a refused command changes nothing"


def test_rule_error_out_of_sequence_and_unknown_input(match: fm.Match) -> None:
    with pytest.raises(fm.RuleError) as info:
        match.apply(fm.Done())
    assert info.value.rule in ("3.0", "4.1")
    with pytest.raises(fm.RuleError) as info:
        match.apply(fm.Place("nobody", "0101"))
    assert info.value.rule == "input"
    with pytest.raises(fm.RuleError) as info:
        match.apply(fm.Place("red-militia-bn", "9999"))
    assert info.value.rule == "input"
    for bad in (10**9, -1):
        with pytest.raises(fm.RuleError) as info:
            match.apply_action(bad)
        assert info.value.rule == "input"
    assert match.command_of(-5) is None


def test_rule_error_after_the_game_is_over() -> None:
    m = fm.Match("system-demo", seed=2)
    play_random(m, random.Random(2))
    assert m.is_over
    with pytest.raises(fm.RuleError) as info:
        m.apply(fm.Done())
    assert info.value.rule == "4.1"


def test_scenario_errors(tmp_path: pathlib.Path) -> None:
    with pytest.raises(fm.ScenarioError) as info:
        fm.Match("no-such-scenario")
    assert "no-such-scenario" in str(info.value) and isinstance(info.value, ValueError)
    with pytest.raises(fm.ScenarioError) as info:
        fm.Scenario('{"id": 1')
    assert info.value.path == "id" and "line 1 column" in info.value.message
    # One-line JSON (json.dumps): the error names the JSON path, not a column.
    data = fm.Scenario("system-demo").to_dict()
    del data["units"][3]["side"]
    with pytest.raises(fm.ScenarioError) as info:
        fm.Scenario(json.dumps(data))
    assert info.value.path == "units[3].side"
    with pytest.raises(fm.ScenarioError) as info:
        fm.Match(data)
    assert info.value.path == "units[3].side"
    data = fm.Scenario("system-demo").to_dict()
    data["units"][3]["start"] = {"hex": "9999"}
    with pytest.raises(fm.ScenarioError) as info:
        fm.Scenario(json.dumps(data))
    assert info.value.path == "units[3].start.hex"
    assert "9999" in info.value.message
    with pytest.raises(fm.ScenarioError):
        fm.Scenario(data)
    with pytest.raises(fm.ScenarioError):
        fm.Match(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(fm.ScenarioError):
        fm.Match(bad)
    with pytest.raises(fm.ProtocolError):
        fm.Match(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        42,
        None,
        [],
        {},
        {"unit": "x"},
        {"type": "mvoe", "unit": "x", "path": []},
        {"type": "move", "unit": "x"},
        {"type": "move", "unit": "x", "path": ["0101"], "extra": 1},
        {"type": "move", "unit": 7, "path": ["0101"]},
        {"type": "move", "unit": "x", "path": "0101"},
        {"type": "move", "unit": "x", "path": ["12a4"]},
        {"type": "place", "unit": "x", "hex": 101},
        {"type": "bombard", "hex": "0101", "markers": -1},
        {"type": "bombard", "hex": "0101", "markers": 1.5},
        {"type": "support_fire", "commit": "yes"},
        {1: "done"},
        "not json",
        '{"type": "done", "x": 1}',
        b"bytes",
    ],
)
def test_protocol_errors(moving: fm.Match, bad: Any) -> None:
    before = moving.hash
    with pytest.raises(fm.ProtocolError) as info:
        moving.apply(bad)
    assert isinstance(info.value, ValueError) and info.value.message
    assert moving.hash == before


def test_protocol_errors_from_constructors_and_parsers() -> None:
    with pytest.raises(fm.ProtocolError):
        fm.Move("u", ["01-02"])
    with pytest.raises(fm.ProtocolError):
        fm.Place("u", "101")
    with pytest.raises(fm.ProtocolError):
        fm.Command.from_dict({"type": "nope"})
    with pytest.raises(fm.ProtocolError):
        fm.Event.from_dict({"type": "unit_moved"})
    with pytest.raises(TypeError):
        fm.Move("u", "0102")  # type: ignore[arg-type]  # a str is not a list of hexes


def test_json_text_is_read_strictly(moving: fm.Match) -> None:
    """Duplicate keys in JSON text are refused, not read as the last one."""
    before = moving.hash
    with pytest.raises(fm.ProtocolError, match="duplicate key"):
        moving.apply('{"type": "done", "type": "done"}')
    with pytest.raises(fm.ProtocolError, match="duplicate key"):
        fm.command('{"type": "place", "unit": "a", "unit": "b", "hex": "0101"}')
    with pytest.raises(fm.ProtocolError, match="duplicate key"):
        fm.Event.from_dict('{"type": "turn_started", "turn": 1, "turn": 2}')
    assert moving.hash == before
    text = fm.Scenario("system-demo").to_json()
    dup = '{"id": "x", ' + text.lstrip()[1:]
    for make in (fm.Scenario, fm.Match):
        with pytest.raises(fm.ScenarioError, match="duplicate key"):
            make(dup)
    save = moving.save()
    with pytest.raises(fm.ProtocolError, match="duplicate key"):
        fm.Match.load('{"seed": 1, ' + save[1:])


def test_save_errors(moving: fm.Match) -> None:
    play_random(moving, random.Random(1), limit=20)
    text = moving.save()
    with pytest.raises(fm.ProtocolError) as info:
        fm.Match.load("{not json")
    assert not isinstance(info.value, fm.SaveError)
    data = json.loads(text)
    data["log"][3]["hash"] = "0000000000000000"
    with pytest.raises(fm.SaveError) as sinfo:
        fm.Match.load(json.dumps(data))
    assert sinfo.value.index == 3 and isinstance(sinfo.value, fm.ProtocolError)
    data = json.loads(text)
    data["opening_hash"] = "0000000000000001"
    with pytest.raises(fm.SaveError) as sinfo:
        fm.Match.load(json.dumps(data))
    assert sinfo.value.index is None
    data = json.loads(text)
    # A save names its built-in scenario; the embedded form (format 2's) is read too.
    assert data["scenario"] == moving.scenario_data["id"]
    data["scenario"] = moving.scenario_data
    del data["scenario_hash"]
    assert fm.Match.load(json.dumps(data)).hash == moving.hash
    data["scenario"]["units"][0]["steps"] = []
    with pytest.raises(fm.ScenarioError):
        fm.Match.load(json.dumps(data))


def _garbage(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["str", "int", "float", "none", "bool", "list", "dict", "hex", "unit", "type"]
    k = rng.choice(kinds if depth < 3 else kinds[:5])
    if k == "str":
        return rng.choice(["", "x", "é\u2022", "\x00", "a" * 50])
    if k == "int":
        return rng.choice([0, 1, -1, 2, 255, 256, 2**64, -(2**70)])
    if k == "float":
        return rng.choice([0.5, float("nan"), float("inf"), 1e308])
    if k == "none":
        return None
    if k == "bool":
        return rng.random() < 0.5
    if k == "list":
        return [_garbage(rng, depth + 1) for _ in range(rng.randrange(4))]
    if k == "hex":
        return rng.choice(["0101", "0505", "9999", "0000", "12345"])
    if k == "unit":
        return rng.choice(fm.Scenario("system-demo").unit_ids + ["ghost"])
    if k == "type":
        return rng.choice(
            ["move", "place", "attack", "bombard", "retreat", "advance", "done",
             "support_fire", "choose_loss", "stiff_resistance", "zzz"]
        )
    keys = ["type", "unit", "hex", "path", "units", "markers", "commit", "to", "displace", "x"]
    return {rng.choice(keys): _garbage(rng, depth + 1) for _ in range(rng.randrange(5))}


def test_fuzzed_commands_raise_only_fm_errors() -> None:
    rng = random.Random(1234)
    m = fm.Match("system-demo", seed=3)
    play_random(m, random.Random(3), limit=15)
    for _ in range(3000):
        g = _garbage(rng)
        if rng.random() < 0.5:
            g = {"type": _garbage(rng, 3) if rng.random() < 0.2 else rng.choice(
                ["move", "attack", "retreat", "bombard", "place", "advance"]), **(g if isinstance(g, dict) else {})}
        before = m.hash
        try:
            m.apply(g)
        except (fm.RuleError, fm.ProtocolError):
            assert m.hash == before
        except Exception as e:  # pragma: no cover - the assertion explains
            raise AssertionError(f"{type(e).__name__} for {g!r}: {e}") from e
        if m.is_over:
            m = fm.Match("system-demo", seed=rng.randrange(100))


# ---------------------------------------------------------------- Python data as JSON


def _nested(depth: int, kind: str = "dict") -> Any:
    """`depth` containers nested in each other (built without recursion)."""
    x: Any = "0101"
    for _ in range(depth):
        x = {"x": x} if kind == "dict" else [x]
    return x


def _cyclic_dict() -> dict[str, Any]:
    d: dict[str, Any] = {"type": "move", "unit": "x"}
    d["path"] = d
    return d


def _cyclic_list() -> dict[str, Any]:
    path: list[Any] = ["0101"]
    path.append(path)
    return {"type": "move", "unit": "x", "path": path}


def _json_entry_points(m: fm.Match) -> list[tuple[str, Callable[[Any], object]]]:
    return [
        ("Match.apply", m.apply),
        ("Match.explain", m.explain),
        ("Match.action_of", m.action_of),
        ("fm.command", fm.command),
        ("Command.from_dict", fm.Command.from_dict),
        ("Event.from_dict", fm.Event.from_dict),
        ("fm.Match", fm.Match),
        ("fm.Scenario", fm.Scenario),
    ]


@pytest.mark.parametrize(
    "make",
    [
        _cyclic_dict,
        _cyclic_list,
        lambda: {"type": "move", "unit": "x", "path": _nested(10_000, "list")},
        lambda: {"type": "move", "unit": "x", "path": _nested(10_000, "dict")},
        lambda: {"type": "move", "unit": "x", "path": _nested(fm.MAX_JSON_DEPTH, "list")},
    ],
    ids=["cyclic-dict", "cyclic-list", "deep-list", "deep-dict", "just-too-deep"],
)
def test_deep_or_cyclic_data_raise_protocol_error(moving: fm.Match, make: Callable[[], Any]) -> None:
    """Issue 13 #4: these crashed the interpreter (a stack overflow in the conversion)."""
    before = moving.hash
    for name, f in _json_entry_points(moving):
        with pytest.raises(fm.ProtocolError) as info:
            f(make())
        msg = info.value.message
        assert "contains itself" in msg or f"more than {fm.MAX_JSON_DEPTH} levels" in msg, (name, msg)
    assert moving.hash == before
    # A dict that contains itself as a value (not on a list) is refused the same way.
    d: dict[str, Any] = {}
    d["d"] = d
    with pytest.raises(fm.ProtocolError, match="contains itself"):
        moving.apply(d)


def test_nesting_up_to_the_limit_is_read() -> None:
    assert fm.MAX_JSON_DEPTH == 128
    # 128 levels (the command dict itself is the first): read, then refused as a command.
    with pytest.raises(fm.ProtocolError) as info:
        fm.command({"type": "move", "unit": "x", "path": _nested(fm.MAX_JSON_DEPTH - 1, "list")})
    assert "levels" not in info.value.message
    # The same value twice (not a cycle) is fine.
    shared = ["0101"]
    c = fm.command({"type": "retreat", "unit": "u", "path": shared, "displace": shared})
    assert c == fm.Retreat("u", ["0101"], ["0101"])


def test_error_paths_name_the_offending_value() -> None:
    with pytest.raises(fm.ProtocolError, match=r"command\.path\[1\]: a set cannot"):
        fm.command({"type": "move", "unit": "x", "path": ["0101", {1}]})
    with pytest.raises(fm.ProtocolError, match=r"event\.units: a bytes cannot"):
        fm.Event.from_dict({"type": "reinforcements_arrived", "units": b"x"})


def test_oversized_data_is_refused_and_conversion_is_linear() -> None:
    big = "x" * fm.MAX_INPUT_BYTES
    with pytest.raises(fm.ProtocolError, match="too large"):
        fm.command({"type": "done", "x": big})
    with pytest.raises(fm.ProtocolError, match="too large"):
        fm.command(json.dumps({"type": "done", "x": big}))
    del big
    # 600,000 values convert in a blink (nothing quadratic; generous bound for slow CI).
    t = time.perf_counter()
    with pytest.raises(fm.ProtocolError):
        fm.command({"type": "rebuild", "units": [{"k": i} for i in range(300_000)]})
    assert time.perf_counter() - t < 10


def test_the_interpreter_survives_the_crashing_inputs() -> None:
    """The inputs of issue 13 #4 in a child interpreter: it must exit normally."""
    code = """
import fm
m = fm.Match("system-demo", seed=1)
d = {"type": "move", "unit": "x"}
d["path"] = d
deep = "0101"
for _ in range(100_000):
    deep = [deep]
n = 0
for bad in (d, {"type": "move", "unit": "x", "path": deep}):
    for f in (m.apply, fm.Match, fm.Event.from_dict, fm.Scenario, fm.command):
        try:
            f(bad)
        except fm.ProtocolError:
            n += 1
print("survived", n)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.split() == ["survived", "10"]


# ---------------------------------------------------------------- integer arguments


@pytest.mark.parametrize("bad", [-1, -(2**70), 2**63, 2**64, 2**200, 10**9])
def test_every_out_of_range_action_index_is_a_rule_error(match: fm.Match, bad: int) -> None:
    with pytest.raises(fm.RuleError) as info:
        match.apply_action(bad)
    assert info.value.rule == "input"
    assert info.value.message == f"action index {bad} has no command here"
    assert match.command_of(bad) is None


def test_action_indices_are_ints_not_bools_or_floats(match: fm.Match) -> None:
    import numpy as np

    i = match.legal_actions()[0]
    assert match.command_of(np.int64(i)) == match.command_of(i)
    for bad in (True, False, 1.0, "0", None):
        with pytest.raises(TypeError, match="action index must be an int"):
            match.apply_action(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="action index must be an int"):
            match.command_of(bad)  # type: ignore[arg-type]
    assert match.apply_action(np.int64(i))


def test_marker_counts_out_of_range_are_protocol_errors(moving: fm.Match) -> None:
    for bad in (-1, 256, 2**64):
        with pytest.raises(fm.ProtocolError, match="marker count"):
            fm.Bombard("0101", bad)
        with pytest.raises(fm.ProtocolError, match="marker count"):
            fm.Artillery("0101", bad)
        with pytest.raises(fm.ProtocolError, match="marker count"):
            moving.odds("0805", ["blue-2-inf-bde"], attacker_markers=bad)
    with pytest.raises(TypeError, match="markers must be an int"):
        fm.Bombard("0101", True)
    with pytest.raises(TypeError, match="markers must be an int"):
        fm.Bombard("0101", 1.0)  # type: ignore[arg-type]
    assert fm.Bombard("0101", 2).markers == 2


@pytest.mark.parametrize("bad", [-1, 2**64, -(2**64)])
def test_seeds_outside_u64_are_value_errors(bad: int) -> None:
    with pytest.raises(ValueError, match=r"seed must be in 0\.\.2\*\*64-1") as info:
        fm.Match("system-demo", seed=bad)
    assert str(bad) in str(info.value)
    with pytest.raises(ValueError, match="seed must be in"):
        fm.play_random("system-demo", 1, seed=bad)
    with pytest.raises(ValueError, match="seed must be in"):
        fm.rust_playthrough_hash("system-demo", bad, 1)


def test_seed_and_count_types() -> None:
    assert fm.Match(seed=2**64 - 1).seed == 2**64 - 1
    with pytest.raises(TypeError, match="seed must be an int"):
        fm.Match(seed=True)
    with pytest.raises(TypeError, match="seed must be an int"):
        fm.Match(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games must be a non-negative int"):
        fm.play_random("system-demo", -1)
    with pytest.raises(ValueError, match="threads must be a non-negative int"):
        fm.play_random("system-demo", 1, threads=-2)
    with pytest.raises(ValueError, match="steps must be a non-negative int"):
        fm.rust_playthrough_hash("system-demo", 1, -1)
    assert fm.play_random("system-demo", 0, threads=3)["games"] == 0
    a = fm.play_random("system-demo", 3, seed=2, threads=8)
    b = fm.play_random("system-demo", 3, seed=2)
    assert a["winners"] == b["winners"] and a["commands"] == b["commands"]


# ---------------------------------------------------------------- lists of strings


@pytest.mark.parametrize(
    "build, param",
    [
        (lambda: fm.Move("u", "0405"), "path"),  # type: ignore[arg-type]
        (lambda: fm.Move("u", b"0405"), "path"),  # type: ignore[arg-type]
        (lambda: fm.Move("u", 405), "path"),  # type: ignore[arg-type]
        (lambda: fm.Move("u", [405]), r"path\[0\]"),  # type: ignore[list-item]
        (lambda: fm.Attack("0101", "blue-1"), "units"),  # type: ignore[arg-type]
        (lambda: fm.Retreat("u", "0101"), "path"),  # type: ignore[arg-type]
        (lambda: fm.Retreat("u", ["0101"], "0102"), "displace"),  # type: ignore[arg-type]
        (lambda: fm.Rebuild("blue-1"), "units"),  # type: ignore[arg-type]
    ],
)
def test_a_bare_str_is_not_a_list(build: Callable[[], object], param: str) -> None:
    with pytest.raises(TypeError, match=param) as info:
        build()
    assert "must be a" in str(info.value)
    assert "Can't extract" not in str(info.value)


def test_lists_and_tuples_of_str_are_accepted() -> None:
    assert fm.Move("u", ("0405", "0404")) == fm.Move("u", ["0405", "0404"])
    assert fm.Attack("0101", ("a", "b")).units == ["a", "b"]
    assert fm.Retreat("u", ["0101"]).to_dict() == fm.Retreat("u", ["0101"], []).to_dict()
    assert fm.Rebuild(()).units == []


# ---------------------------------------------------------------- per-unit queries


def test_per_unit_queries_refuse_unknown_units(moving: fm.Match) -> None:
    for query in (moving.reachable, moving.legal_commands_for):
        with pytest.raises(fm.RuleError) as info:
            query("nobody")
        assert info.value.rule == "input"
        assert info.value.message == "unknown unit 'nobody'"
    with pytest.raises(fm.RuleError, match="unknown unit 'nobody'"):
        moving.odds("0805", ["nobody"], side="a")
    # A known unit that cannot do anything now gives an empty list, not an error.
    assert moving.legal_commands_for("red-10-inf-rgt") == []


# ---------------------------------------------------------------- files and text


def test_load_strips_a_byte_order_mark(moving: fm.Match, tmp_path: pathlib.Path) -> None:
    text = moving.save()
    assert fm.Match.load("\ufeff" + text).hash == moving.hash
    assert fm.Match.load(b"\xef\xbb\xbf" + text.encode()).hash == moving.hash
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert fm.Match.load(path).hash == moving.hash
    assert fm.Match.load(str(path)).hash == moving.hash
    sc = fm.Scenario("system-demo").to_json()
    assert fm.Scenario("\ufeff" + sc) == fm.Scenario("system-demo")
    scp = tmp_path / "bom-scenario.json"
    scp.write_bytes(b"\xef\xbb\xbf" + sc.encode())
    assert fm.Scenario(scp) == fm.Scenario(str(scp)) == fm.Scenario("system-demo")
    assert moving.apply("\ufeff" + json.dumps({"type": "done"}))


def test_file_errors_name_the_path(tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "no-such-save.json"
    for source in (missing, str(missing)):
        with pytest.raises(FileNotFoundError) as info:
            fm.Match.load(source)
        assert info.value.filename == str(missing)
        assert str(missing) in str(info.value)
    with pytest.raises(IsADirectoryError) as dinfo:
        fm.Match.load(tmp_path)
    assert dinfo.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as winfo:
        fm.Match("system-demo").save(tmp_path / "no-dir" / "x.json")
    assert str(tmp_path / "no-dir" / "x.json") in str(winfo.value)
    with pytest.raises(fm.ScenarioError) as sinfo:
        fm.Scenario(missing)
    assert str(missing) in str(sinfo.value)
    with pytest.raises(TypeError, match="Match.load takes"):
        fm.Match.load(42)  # type: ignore[arg-type]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_and_oversized_files_are_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(fm.ProtocolError, match="larger than 64 MiB") as info:
        fm.Match.load(pathlib.Path("/dev/zero"))
    assert "/dev/zero" in info.value.message and not isinstance(info.value, fm.SaveError)
    with pytest.raises(fm.ProtocolError, match="larger than 64 MiB"):
        fm.Match.load("/dev/zero")
    with pytest.raises(fm.ScenarioError, match="larger than 64 MiB") as sinfo:
        fm.Scenario(pathlib.Path("/dev/zero"))
    assert "/dev/zero" in sinfo.value.message
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(fm.MAX_INPUT_BYTES + 1)
    with pytest.raises(fm.ProtocolError, match="larger than"):
        fm.Match.load(big)
    with pytest.raises(fm.ScenarioError, match="larger than"):
        fm.Match(big)
    with pytest.raises(fm.ProtocolError, match="too large"):
        fm.Match.load("{" + " " * fm.MAX_INPUT_BYTES + "}")
