"""A second rules system through the same class: fm.Match plays the toy race of the
Rust tests (tests/support/race.rs: roll a die as often as you like, a 1 loses the
turn's total, holding banks it; first to the target wins), compiled into the wheel by
the cargo feature toy-system (scripts/test_py.sh builds the tested wheel with it). No
Python class knows the race: everything goes through the system-agnostic match layer.
"""

from __future__ import annotations

import copy
import json
import pathlib
import pickle
import random
from typing import Any, Callable

import pytest

import fm

if "race" not in fm.systems():
    pytest.skip(
        "the wheel was built without the toy-system feature (scripts/test_py.sh builds it)",
        allow_module_level=True,
    )

SIDES = ("a", "b")


def race(seed: int = 1) -> fm.Match:
    return fm.Match("race-to-10", seed=seed)


def play_dicts(m: fm.Match, rng: random.Random, limit: int = 10_000) -> int:
    """Plays random legal commands, given back as the dicts legal_commands() lists."""
    n = 0
    while not m.is_over and n < limit:
        cmds: list[Any] = m.legal_commands()
        assert cmds and all(isinstance(c, dict) for c in cmds)
        events: list[Any] = m.apply(rng.choice(cmds))
        assert events and all(isinstance(e, dict) and "type" in e for e in events)
        n += 1
    return n


def test_systems_and_scenarios() -> None:
    assert fm.systems() == ["fm", "huzzah", "race"]
    names = fm.scenarios()
    assert names[-3:] == ["huzzah-encounter", "huzzah-firefight", "race-to-10"]
    assert "race-to-10" in names and "system-demo" in names
    assert fm.scenarios("race") == ["race-to-10"]
    assert fm.scenarios("huzzah") == ["huzzah-encounter", "huzzah-firefight"]
    assert fm.scenarios("fm") == names[:-3]
    with pytest.raises(fm.ProtocolError, match='unknown rules system "chess"'):
        fm.scenarios("chess")


def test_a_whole_game_through_dicts() -> None:
    m = race()
    assert m.system == "race" and m.seed == 1
    assert m.scenario_data == {"id": "race-to-10", "target": 10}
    pending: Any = m.pending
    assert pending == {"kind": "turn", "side": "a"} and m.to_move == "a"
    assert m.opening_events == [] and m.log == []
    assert m.legal_commands() == [{"type": "roll"}]
    n = play_dicts(m, random.Random(1))
    assert m.is_over and n == len(m.log) > 2
    w = m.winner
    assert w in SIDES
    assert m.result is not None and m.result["winner"] == w
    assert isinstance(m.result["reason"], str) and m.result["reason"]
    pending = m.pending
    assert pending == {"kind": "game_over", "winner": w}
    assert m.to_move is None
    assert m.legal_commands() == [] and m.legal_actions() == []
    r = m.returns()
    assert r[w] == 1 and sum(r.values()) == 0
    assert m.state["winner"] == w
    log: list[Any] = m.log
    for entry in log:
        assert set(entry) == {"command", "events", "hash"}
        assert len(entry["hash"]) == 16 and int(entry["hash"], 16) >= 0
    assert log[-1]["events"][-1] == {"type": "won", "side": w}
    events: list[Any] = m.events()
    assert events == [e for entry in log for e in entry["events"]]
    with pytest.raises(fm.RuleError) as info:
        m.apply({"type": "roll"})
    assert info.value.rule == "over"


def test_a_whole_game_through_action_indices() -> None:
    by_dict, by_index = race(5), race(5)
    assert by_index.action_space_size == 2
    rng = random.Random(5)
    while not by_index.is_over:
        legal = by_index.legal_actions()
        assert legal and set(legal) <= {0, 1} and legal == sorted(legal)
        mask = by_index.legal_action_mask()
        assert len(mask) == 2 and [i for i, b in enumerate(mask) if b] == legal
        for i in legal:
            c: Any = by_index.command_of(i)
            assert isinstance(c, dict) and by_index.action_of(c) == i
        i = rng.choice(legal)
        c = by_index.command_of(i)
        assert by_index.apply_action(i) == by_dict.apply(c)
        assert by_index.hash == by_dict.hash
    assert by_dict.is_over and by_dict.save() == by_index.save()
    with pytest.raises(fm.RuleError):
        by_index.apply_action(0)


def test_commands_are_checked() -> None:
    m = race()
    before = m.hash
    bad: list[Any] = [
        {"type": "roll", "twice": True},
        {"type": "jump"},
        {"kind": "roll"},
        '{"type": "roll", "type": "hold"}',
        "not json",
        fm.Done(),
        42,
        [{"type": "roll"}],
    ]
    for c in bad:
        with pytest.raises(fm.ProtocolError) as info:
            m.apply(c)
        assert info.value.message and not isinstance(info.value, fm.UnsupportedError)
        assert m.hash == before and m.log == []
    with pytest.raises(fm.ProtocolError, match=r"^command JSON: unknown field `twice`$"):
        m.apply({"type": "roll", "twice": True})
    with pytest.raises(fm.ProtocolError, match="duplicate key"):
        m.apply('{"type": "roll", "type": "hold"}')
    with pytest.raises(fm.RuleError) as rinfo:
        m.apply({"type": "hold"})
    assert rinfo.value.rule == "hold" and m.hash == before
    for i in (2, -1, 2**64, 10**30):
        with pytest.raises(fm.RuleError) as rinfo:
            m.apply_action(i)
        assert rinfo.value.rule == "input"
        assert m.command_of(i) is None
    with pytest.raises(TypeError, match="action index must be an int"):
        m.apply_action(True)
    assert m.action_of({"type": "jump"}) is None
    rolled: list[Any] = m.apply('{"type": "roll"}')
    assert rolled[0]["type"] == "rolled"
    assert m.apply("\ufeff" + json.dumps({"type": "roll"}))


def test_save_load_and_undo(tmp_path: pathlib.Path) -> None:
    m = race(2)
    play_dicts(m, random.Random(2), limit=7)
    text = m.save()
    data = json.loads(text)
    assert data["system"] == "race" and data["format"] == 6
    assert data["scenario"] == "race-to-10" and len(data["scenario_hash"]) == 16
    again = fm.Match.load(text)
    assert again.system == "race" and again.hash == m.hash and again.save() == text
    path = tmp_path / "race.json"
    m.save(path)
    assert fm.Match.load(path).hash == m.hash
    assert fm.Match.load(str(path)).hash == m.hash
    assert fm.Match.load(text.encode()).hash == m.hash
    # The generator is saved too: both continue identically.
    play_dicts(again, random.Random(9))
    play_dicts(m, random.Random(9))
    assert again.save() == m.save()
    # Undo takes back one command; redoing it rolls the same die.
    log: list[Any] = m.log
    n, last = len(log), log[-1]["command"]
    before = m.hash
    assert m.undo() and len(m.log) == n - 1 and not m.is_over
    m.apply(last)
    assert m.hash == before
    assert not race().undo()
    # A save is verified by replay, and names a system that must be registered.
    data = json.loads(m.save())
    data["log"][1]["hash"] = "0000000000000000"
    with pytest.raises(fm.SaveError) as sinfo:
        fm.Match.load(json.dumps(data))
    assert sinfo.value.index == 1
    data = json.loads(m.save())
    data["system"] = "chess"
    with pytest.raises(fm.ProtocolError, match='unknown rules system "chess"') as pinfo:
        fm.Match.load(json.dumps(data))
    assert not isinstance(pinfo.value, fm.SaveError)
    data = json.loads(m.save())
    del data["system"]
    with pytest.raises(fm.ProtocolError):
        fm.Match.load(json.dumps(data))  # read as a Fire & Movement save: refused


def test_clone_copy_and_pickle() -> None:
    m = race(3)
    play_dicts(m, random.Random(3), limit=4)
    for twin in (m.clone(), copy.copy(m), copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert twin.system == "race"
        assert twin.hash == m.hash and twin.save() == m.save()
        twin.apply({"type": "roll"})
        assert len(twin.log) == len(m.log) + 1 and twin.hash != m.hash


def test_views_exports_and_hashes() -> None:
    m = race(4)
    play_dicts(m, random.Random(4), limit=6)
    for side in SIDES:
        v = m.view(side)
        assert isinstance(v, dict) and v == m.view(SIDES.index(side))
        assert v == m.state  # the race hides nothing
        h = m.view_hash(side)
        assert isinstance(h, int)
        rec = m.export(side)
        assert rec["side"] == side and rec["view"] == v
        assert rec["view_hash"] == f"{h:016x}"
        assert rec["scenario"] == m.scenario_data
        assert len(rec["log"]) == len(m.log)
        assert "seed" not in json.dumps(rec), "an export holds no seed"
    with pytest.raises(ValueError, match='unknown side "Red"'):
        m.view("Red")  # the race names no sides
    with pytest.raises(TypeError, match="not a bool"):
        m.view(True)
    h = m.hash
    assert isinstance(h, int) and h == m.hash
    if not m.is_over:
        m.apply({"type": "roll"})
        assert m.hash != h
    assert repr(race()) == "<fm.Match race-to-10 (race) seed=1: waiting for a; 0 command(s)>"


def _fm_only(m: fm.Match) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("Match.scenario", lambda: m.scenario),
        ("Match.turn", lambda: m.turn),
        ("Match.phase", lambda: m.phase),
        ("Match.active", lambda: m.active),
        ("Match.legal_commands_for", lambda: m.legal_commands_for("u")),
        ("Match.explain", lambda: m.explain({"type": "roll"})),
        ("Match.reachable", lambda: m.reachable("u")),
        ("Match.odds", lambda: m.odds("0101")),
        ("Match.svg", lambda: m.svg()),
        ("Match._repr_svg_", lambda: m._repr_svg_()),
        ("fm.Scenario", lambda: fm.Scenario("race-to-10")),
        ("fm.Scenario", lambda: fm.Scenario({"system": "race", "id": "r", "target": 3})),
    ]


def test_a_system_without_a_length_bound_gives_none() -> None:
    assert race().max_game_length() is None
    assert fm.max_game_length("race-to-10") is None


def test_fire_and_movement_features_raise_unsupported_error() -> None:
    m = race()
    for name, f in _fm_only(m):
        with pytest.raises(fm.UnsupportedError) as info:
            f()
        e = info.value
        assert e.system == "race", name
        assert name in e.message and "Fire & Movement" in e.message, e.message
        # One class, three readings: an fm input error, a ValueError like every fm
        # exception, and a NotImplementedError (Jupyter then skips _repr_svg_).
        assert isinstance(e, fm.ProtocolError) and isinstance(e, ValueError)
        assert isinstance(e, NotImplementedError)
    assert m.hash == race().hash and m.log == []
    e2 = pickle.loads(pickle.dumps(fm.UnsupportedError("Match.svg is ...", "race")))
    assert type(e2) is fm.UnsupportedError and e2.system == "race" and str(e2) == "Match.svg is ..."
    # The observation is the match layer's query, which the toy system does not answer.
    for f in (
        lambda: m.observation_spec,
        lambda: m.observation("a"),
        lambda: m.observation_bytes("b"),
    ):
        with pytest.raises(fm.UnsupportedError) as info:
            f()
        assert info.value.system == "race"
        assert "observation is not supported by the \"race\" rules system" in info.value.message
    # Nor spectator views: a spectator's query says so, even with an empty log.
    for f in (
        lambda: m.view("spectator"),
        lambda: m.view_hash("spectator"),
        lambda: m.spectator_log(),
        lambda: m.log_words("spectator"),
    ):
        with pytest.raises(fm.UnsupportedError) as info:
            f()
        assert info.value.system == "race"
        assert "spectator view is not supported" in info.value.message, info.value.message
    from fm.env import FmEnv

    with pytest.raises(fm.UnsupportedError):
        FmEnv(scenario="race-to-10")


def test_a_scenario_by_json_naming_its_system(tmp_path: pathlib.Path) -> None:
    data = {"system": "race", "id": "race-to-6", "target": 6}
    text = json.dumps(data)
    path = tmp_path / "race-to-6.json"
    path.write_text(text)
    ms = [fm.Match(x, seed=2) for x in (text, data, path, str(path))]
    for m in ms:
        assert m.system == "race"
        assert m.scenario_data == {"id": "race-to-6", "target": 6}
        assert m.hash == ms[0].hash
    m = ms[0]
    play_dicts(m, random.Random(2))
    assert m.is_over and m.winner is not None
    log: list[Any] = m.log
    assert max(e["score"] for entry in log for e in entry["events"] if e["type"] == "held") >= 6
    back = fm.Match.load(m.save())
    assert back.scenario_data == m.scenario_data and back.hash == m.hash
    # The race's own scenario checks, and the layer's for the system.
    with pytest.raises(fm.ScenarioError) as info:
        fm.Match({"system": "race", "id": "r", "target": 0})
    assert info.value.path == "target"
    with pytest.raises(fm.ScenarioError):
        fm.Match({"system": "race", "id": "r", "target": 6, "dice": 2})
    with pytest.raises(fm.ScenarioError, match="duplicate key"):
        fm.Match('{"system": "race", "id": "r", "target": 6, "target": 7}')
    with pytest.raises(fm.ScenarioError, match="^scenario JSON: EOF while parsing"):
        fm.Match('{"id": "r", "target": 6, "system": "race"')
    with pytest.raises(fm.ProtocolError, match='unknown rules system "chess"'):
        fm.Match({"system": "chess", "id": "c"})
    with pytest.raises(fm.ProtocolError, match="system: a string expected"):
        fm.Match({"system": 7})
    # Fire & Movement scenario data may name its system too.
    fmdata = fm.Scenario("system-demo").to_dict()
    fmdata["system"] = "fm"
    by_name = fm.Match("system-demo", seed=3)
    assert fm.Match(fmdata, seed=3).hash == by_name.hash
    assert fm.Match(json.dumps(fmdata), seed=3).hash == by_name.hash
    assert fm.Match(fmdata, seed=3).system == "fm" and "system" not in json.loads(by_name.save())


def test_play_random_playout_and_parity() -> None:
    a = fm.play_random("race-to-10", 6, seed=1)
    b = fm.play_random("race-to-10", 6, seed=1, threads=2)
    assert a["games"] == 6 and sum(a["wins"].values()) == 6 and a["wins"]["draw"] == 0
    assert a["winners"] == b["winners"] and a["commands"] == b["commands"] > 6 * 2
    with pytest.raises(fm.ScenarioError):
        fm.play_random({"system": "race", "id": "r", "target": 0})
    m = race(6)
    n = m.playout(seed=6)
    assert m.is_over and n == len(m.log)
    assert race(6).playout(max_commands=2) == 2
    twin = race(6)
    twin.playout(seed=6)
    assert twin.save() == m.save(), "a seeded playout is reproducible"
    # The same seed and commands give the same events from Python as in Rust.
    for seed in (0, 1, 7):
        py = race(seed)
        h = 0xCBF29CE484222325
        k = 0
        while k < 600 and not py.is_over:
            cmds: list[Any] = py.legal_commands()
            for e in py.apply(cmds[(k * 7) % len(cmds)]):
                text = json.dumps(e, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                for byte in text.encode() + b"\n":
                    h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
            k += 1
        assert (h, k, py.hash) == fm.rust_playthrough_hash("race-to-10", seed, 600)
