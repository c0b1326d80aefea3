"""Every error is a Python exception of the fm hierarchy; nothing panics into Python."""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

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
        fm.Move("u", "0102")  # a str is not a list of hexes


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
