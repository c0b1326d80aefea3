"""fm.Match: creation, commands, events, state and views, clone, save/load/undo,
pickling, results, full games on every built-in scenario."""

from __future__ import annotations

import copy
import json
import pathlib
import pickle
import random

import pytest

import fm
from conftest import finish_setup, play_random


def test_scenarios_lists_the_builtins() -> None:
    names = fm.scenarios()
    assert "system-demo" in names
    assert all(isinstance(n, str) for n in names)


def test_creation_from_name_path_json_dict_and_scenario(tmp_path: pathlib.Path) -> None:
    by_name = fm.Match("system-demo", seed=3)
    text = fm.Scenario("system-demo").to_json()
    path = tmp_path / "demo.json"
    path.write_text(text)
    others = [
        fm.Match(str(path), seed=3),
        fm.Match(path, seed=3),
        fm.Match(text, seed=3),
        fm.Match(json.loads(text), seed=3),
        fm.Match(fm.Scenario("system-demo"), seed=3),
        fm.Match(seed=3),
    ]
    for m in others:
        assert m.hash == by_name.hash
        assert m.scenario.id == "system-demo"
        assert m.seed == 3
    assert fm.Match().seed == 0


def test_scenario_object() -> None:
    sc = fm.Scenario("system-demo")
    assert sc.id == "system-demo"
    assert sc.sides == {"a": "Blue", "b": "Red"}
    assert len(sc.hexes) == 120 and sc.hexes[0] == "0101"
    assert len(sc.unit_ids) == 14
    # done, two support fire choices, then per unit and hex at least moves and retreats
    assert sc.action_space_size >= 3 + 2 * 14 * 120
    assert sc.turn_count == 6
    assert sc.to_dict()["id"] == "system-demo"
    assert fm.Scenario(sc.to_json()) == sc
    c, h, w = sc.observation_shape
    assert (h, w) == (10, 12) and len(sc.observation_channels) == c
    assert sc.feature_names == fm.FEATURE_NAMES
    assert "Scenario(id='system-demo'" in repr(sc)


def test_pending_and_legal_commands(match: fm.Match) -> None:
    p = match.pending
    assert p.kind == "setup" and p.side == "b"
    assert p.to_dict() == {"kind": "setup", "side": "b"}
    assert repr(p) == "Pending(kind='setup', side='b')"
    assert match.to_move == "b" and match.turn == 1 and match.phase == "setup"
    cmds = match.legal_commands()
    assert cmds and all(isinstance(c, fm.Place) for c in cmds)
    assert all(isinstance(c, fm.Command) for c in cmds)
    with pytest.raises(AttributeError):
        p.nothing_here


def test_apply_typed_dict_and_json_text(match: fm.Match) -> None:
    a, b, c = match.clone(), match.clone(), match.clone()
    cmd = fm.Place("red-militia-bn", "1105")
    e1 = a.apply(cmd)
    e2 = b.apply({"type": "place", "unit": "red-militia-bn", "hex": "1105"})
    e3 = c.apply('{"type": "place", "unit": "red-militia-bn", "hex": "1105"}')
    assert e1 == e2 == e3
    assert a.hash == b.hash == c.hash
    assert [e.type for e in e1] == ["unit_placed", "phase_started"]


def test_events_are_typed_with_attributes_dicts_and_reprs(moving: fm.Match) -> None:
    move = next(c for c in moving.legal_commands() if isinstance(c, fm.Move))
    (ev,) = moving.apply(move)
    assert isinstance(ev, fm.events.UnitMoved) and isinstance(ev, fm.Event)
    assert ev.type == "unit_moved"
    assert ev.unit == move.unit and ev.path == move.path
    assert ev.from_ == getattr(ev, "from") == "0304"
    assert isinstance(ev.mp, str)
    d = ev.to_dict()
    assert list(d) == ["type", "unit", "from", "path", "mp"]
    assert d == json.loads(ev.to_json())
    d["unit"] = "changed"
    assert ev.unit == move.unit, "to_dict returns a copy"
    assert repr(ev).startswith("UnitMoved(unit='blue-1-inf-div', from_='0304', path=[")
    assert ev.fields() == ["unit", "from_", "path", "mp"]
    assert fm.Event.from_dict(ev.to_dict()) == ev
    assert fm.Event.from_dict(ev.to_json()) == ev
    assert hash(fm.Event.from_dict(ev.to_dict())) == hash(ev)
    with pytest.raises(AttributeError):
        ev.nope


def test_command_classes_match_the_protocol() -> None:
    cases = [
        (fm.Place("u", "0101"), {"type": "place", "unit": "u", "hex": "0101"}),
        (fm.Move("u", ["0102", "0103"]), {"type": "move", "unit": "u", "path": ["0102", "0103"]}),
        (fm.Bombard("0302", 2), {"type": "bombard", "hex": "0302", "markers": 2}),
        (fm.Attack("0703", ["x", "y"]), {"type": "attack", "hex": "0703", "units": ["x", "y"]}),
        (fm.SupportFire(True), {"type": "support_fire", "commit": True}),
        (fm.ChooseLoss("u"), {"type": "choose_loss", "unit": "u"}),
        (fm.Retreat("u", ["0604"]), {"type": "retreat", "unit": "u", "path": ["0604"]}),
        (
            fm.Retreat("u", ["0605", "0504"], ["0503"]),
            {"type": "retreat", "unit": "u", "path": ["0605", "0504"], "displace": ["0503"]},
        ),
        (fm.StiffResistance("u"), {"type": "stiff_resistance", "unit": "u"}),
        (fm.Advance("u", "0203"), {"type": "advance", "unit": "u", "to": "0203"}),
        (fm.Replace("u", "0101"), {"type": "replace", "unit": "u", "hex": "0101", "full": False}),
        (
            fm.Replace("u", "0101", full=True),
            {"type": "replace", "unit": "u", "hex": "0101", "full": True},
        ),
        (fm.Rebuild(["u", "v"]), {"type": "rebuild", "units": ["u", "v"]}),
        (fm.BreakDown("u"), {"type": "break_down", "unit": "u"}),
        (fm.PlaceAircraft("0505"), {"type": "place_aircraft", "hex": "0505"}),
        (fm.Artillery("0505", 2, True), {"type": "artillery", "hex": "0505", "markers": 2, "gas": True}),
        (fm.LostBattalion(False), {"type": "lost_battalion", "declare": False}),
        (fm.AirUnit("0505"), {"type": "air_unit", "hex": "0505", "observe": False}),
        (fm.AirUnit("0505", observe=True), {"type": "air_unit", "hex": "0505", "observe": True}),
        (fm.Kress("2334"), {"type": "kress", "hex": "2334"}),
        (fm.Done(), {"type": "done"}),
    ]
    for cmd, d in cases:
        assert cmd.to_dict() == d
        assert json.loads(cmd.to_json()) == d
        assert fm.Command.from_dict(d) == cmd
        assert fm.command(d) == cmd
        assert type(fm.command(d)) is type(cmd)
        assert hash(fm.command(d)) == hash(cmd)
        assert cmd.type == d["type"]
        for k, v in d.items():
            if k != "type":
                assert getattr(cmd, k) == v
    assert fm.Retreat("u", []).displace == []
    assert fm.command({"type": "air_unit", "hex": "0505"}) == fm.AirUnit("0505")
    # combat_resolved leaves a zero column shift (Suez 1916) out of its JSON.
    ev = fm.Event.from_dict(
        {"type": "combat_resolved", "kind": "ground", "attack": 4, "defense": 4,
         "differential": 0, "line": "clear", "column": "0", "die": 4, "result": "A2",
         "applies": True}
    )
    assert isinstance(ev, fm.events.CombatResolved) and ev.shift == 0
    assert "shift" not in ev.to_dict()
    # Lists left out of the JSON when empty read as []: the units a Suez 1916 stiff
    # resistance also holds, the other brigades of a Meuse Argonne 17.5 target.
    ev = fm.Event.from_dict({"type": "stiff_resistance", "unit": "u"})
    assert isinstance(ev, fm.events.StiffResistance) and ev.held == []
    ev = fm.Event.from_dict({"type": "stiff_resistance", "unit": "u", "held": ["v"]})
    assert ev.held == ["v"]
    ev = fm.Event.from_dict({"type": "artillery_retreat_offered", "unit": "u", "hits": 1})
    assert ev.stacked == []
    # A Meuse Argonne 13.2 breakdown before the division entered has no hex.
    ev = fm.Event.from_dict({"type": "division_broken_down", "unit": "d", "brigades": ["b"]})
    assert ev.hex is None
    assert repr(fm.Move("u", ["0102"])) == "Move(unit='u', path=['0102'])"
    assert repr(fm.Done()) == "Done()"
    assert fm.Done() != fm.Move("u", ["0102"])
    assert len({fm.Done(), fm.Done(), fm.SupportFire(False)}) == 2


def test_state_and_view_dicts(moving: fm.Match) -> None:
    s = moving.state
    assert s["turn"] == 1 and s["phase"] == "movement" and s["active"] == "a"
    assert len(s["units"]) == 14
    assert s["support"]["b"]["available"] == [1, 2]
    v = moving.view("a")
    assert v["side"] == "a" and v["pending"] == moving.pending.to_dict()
    assert v["support"]["b"]["available"] is None
    assert v["support"]["b"]["available_count"] == 2
    assert moving.view("b")["support"]["b"]["available"] == [1, 2]
    assert moving.view(1) == moving.view("b") == moving.view("Red")
    with pytest.raises(ValueError):
        moving.view("c")


def test_clone_and_copies_are_independent(moving: fm.Match) -> None:
    for twin in (moving.clone(), copy.copy(moving), copy.deepcopy(moving)):
        assert twin.hash == moving.hash
        twin.apply(fm.Done())
        assert twin.hash != moving.hash
        assert len(twin.log) == len(moving.log) + 1


def _future(m: fm.Match, commands: int = 60) -> str:
    """The hash after the same random commands (agent seed 4): only the dice differ."""
    play_random(m, random.Random(4), limit=commands)
    return f"{m.hash:016x}"


def test_clone_with_seed_rolls_its_own_dice(moving: fm.Match) -> None:
    plain = {_future(moving.clone()) for _ in range(6)}
    assert len(plain) == 1, "plain copies roll the real future's dice"
    own = {_future(moving.clone(seed=k)) for k in range(6)}
    assert len(own) > 1, "re-seeded copies roll their own"
    assert {_future(moving.clone(seed=k)) for k in range(6)} == own
    assert moving.clone(seed=None).rng_state == moving.rng_state
    with pytest.raises(ValueError, match="seed must be in"):
        moving.clone(seed=-1)
    with pytest.raises(TypeError):
        moving.clone(seed="1")  # type: ignore[arg-type]


def test_rng_state_reads_sets_saves_and_undoes(moving: fm.Match) -> None:
    start = moving.rng_state
    assert len(start) == 64 and int(start, 16) > 0
    other = moving.clone()
    moving.reseed(12)
    assert moving.rng_state != start
    other.set_rng_state(moving.rng_state)
    assert other.rng_state == moving.rng_state
    assert _future(other.clone()) == _future(moving.clone())
    # A save records the reset; a load replays it.
    text = moving.save()
    assert json.loads(text)["rng_resets"][0]["state"] == moving.rng_state
    back = fm.Match.load(text)
    assert back.rng_state == moving.rng_state and back.save() == text
    # Undoing the command before the reset takes it back.
    n = len(moving.log)
    play_random(moving, random.Random(1), limit=1)
    moving.undo()
    assert len(moving.log) == n and moving.rng_state == other.rng_state
    moving.undo()
    assert "rng_resets" not in json.loads(moving.save())
    # A bad state changes nothing.
    before = other.rng_state
    for bad in ["", "zz", "0" * 64, "A" * 64]:
        with pytest.raises(ValueError, match="generator state"):
            other.set_rng_state(bad)
        assert other.rng_state == before


def _to_chance_node(m: fm.Match, rng: random.Random) -> None:
    """Plays random commands until one waits for a draw."""
    for _ in range(5000):
        if m.is_chance_node:
            return
        m.apply(rng.choice(m.legal_commands()))
    raise AssertionError("no draw came")


def test_explicit_chance_mode(moving: fm.Match) -> None:
    assert moving.chance_mode == "sampled" and not moving.is_chance_node
    assert moving.chance_outcomes() == []
    with pytest.raises(ValueError, match="chance mode"):
        moving.set_chance_mode("random")
    moving.set_chance_mode("explicit")
    rng_before = moving.rng_state
    _to_chance_node(moving, random.Random(3))
    outcomes = moving.chance_outcomes()
    assert len(outcomes) >= 2
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert [k for k, _ in outcomes] == list(range(len(outcomes)))
    assert moving.legal_commands() == [] and moving.legal_actions() == []
    with pytest.raises(fm.RuleError) as e:
        moving.apply(fm.Done())
    assert e.value.rule == "chance"
    with pytest.raises(fm.RuleError):
        moving.apply_chance(len(outcomes))
    with pytest.raises(fm.RuleError):
        moving.set_chance_mode("sampled")
    # Each outcome in a copy: the copies may differ, the same outcome gives the same.
    def resolve(k: int) -> int:
        c = moving.clone()
        c.apply_chance(k)
        while c.is_chance_node:
            c.apply_chance(0)
        return c.hash
    results = [resolve(k) for k, _ in outcomes]
    assert results == [resolve(k) for k, _ in outcomes]
    assert len(set(results)) > 1
    # A save keeps the waiting command; the generator is never used.
    back = fm.Match.load(moving.save())
    assert back.is_chance_node and back.chance_outcomes() == outcomes
    n = len(moving.log)
    events: list[object] = []
    while moving.is_chance_node:
        events = moving.apply_chance(0)
    assert len(moving.log) == n + 1 and events
    assert moving.rng_state == rng_before
    assert fm.Match.load(moving.save()).hash == moving.hash


def test_information_state_string(moving: fm.Match) -> None:
    a, b = moving.information_state_string("a"), moving.information_state_string(1)
    assert json.loads(a)["side"] == "a" and json.loads(b)["side"] == "b"
    assert len(json.loads(a)["log"]) == len(moving.log)
    moving.apply(fm.Done())
    assert moving.information_state_string("a") != a
    with pytest.raises(ValueError):
        moving.information_state_string("c")


def test_save_load_and_undo(moving: fm.Match, tmp_path: pathlib.Path) -> None:
    play_random(moving, random.Random(2), limit=30)
    text = moving.save()
    assert json.loads(text)["format"] == 6
    again = fm.Match.load(text)
    assert again.hash == moving.hash and again.save() == text
    path = tmp_path / "game.json"
    moving.save(path)
    assert fm.Match.load(path).hash == moving.hash
    assert fm.Match.load(str(path)).hash == moving.hash
    assert fm.Match.load(text.encode()).hash == moving.hash
    # Loading keeps the generator: both continue identically.
    rng1, rng2 = random.Random(5), random.Random(5)
    play_random(again, rng1, limit=40)
    play_random(moving, rng2, limit=40)
    assert again.save() == moving.save()
    # Undo takes back one command.
    n = len(moving.log)
    before = fm.Match.load(moving.save())
    last_cmd = moving.log[-1].command
    assert moving.undo()
    assert len(moving.log) == n - 1
    moving.apply(last_cmd)
    assert moving.hash == before.hash
    fresh = fm.Match("system-demo", seed=1)
    assert not fresh.undo()


def test_log_entries(moving: fm.Match) -> None:
    log = moving.log
    assert len(log) == 2  # two set-up placements
    e = log[0]
    assert isinstance(e.command, fm.Place)
    assert all(isinstance(x, fm.Event) for x in e.events)
    cmd, events = e
    assert cmd == e.command and events == e.events
    d = e.to_dict()
    assert set(d) == {"command", "events", "hash"}
    assert d["hash"] == f"{e.hash:016x}"
    assert repr(e).startswith("LogEntry(command=Place(")
    assert moving.events() == moving.opening_events + log[0].events + log[1].events


def test_action_encoding(moving: fm.Match) -> None:
    actions = moving.legal_actions()
    assert actions == sorted(set(actions)) and 0 in actions
    mask = moving.legal_action_mask()
    assert len(mask) == moving.scenario.action_space_size
    assert [i for i, b in enumerate(mask) if b] == actions
    for c in moving.legal_commands():
        i = moving.action_of(c)
        assert i in actions
        back = moving.command_of(i)
        assert back is not None and moving.action_of(back) == i
    move = next(c for c in moving.legal_commands() if isinstance(c, fm.Move))
    twin = moving.clone()
    idx = moving.action_of(move)
    assert idx is not None
    decoded = moving.command_of(idx)
    assert decoded is not None
    assert moving.apply_action(idx) == twin.apply(decoded)
    assert moving.command_of(10**9) is None


def test_legal_action_mask_fills_a_numpy_array_in_place(moving: fm.Match) -> None:
    np = pytest.importorskip("numpy")
    n = moving.scenario.action_space_size
    out = np.ones(n, dtype=np.uint8)  # stale ones everywhere: all must be cleared
    got = moving.legal_action_mask(out=out)
    assert got is out
    assert np.flatnonzero(out).tolist() == moving.legal_actions()
    assert out.tobytes() == moving.legal_action_mask()
    signed = np.zeros(n, dtype=np.int8)
    moving.legal_action_mask(out=signed)
    assert np.array_equal(signed, out.astype(np.int8))
    buf = bytearray(n)
    moving.legal_action_mask(out=buf)
    assert bytes(buf) == moving.legal_action_mask()
    # The same array, reused after a move: the old mask's ones are gone.
    moving.apply_action(moving.legal_actions()[-1])
    moving.legal_action_mask(out=out)
    assert np.flatnonzero(out).tolist() == moving.legal_actions()


def test_legal_action_mask_refuses_a_wrong_buffer(moving: fm.Match) -> None:
    np = pytest.importorskip("numpy")
    n = moving.scenario.action_space_size
    with pytest.raises(ValueError, match="action_space_size"):
        moving.legal_action_mask(out=np.zeros(n - 1, dtype=np.uint8))
    with pytest.raises(ValueError, match="writable"):
        moving.legal_action_mask(out=bytes(n))
    with pytest.raises(ValueError, match="C-contiguous"):
        moving.legal_action_mask(out=np.zeros(2 * n, dtype=np.uint8)[::2])
    with pytest.raises(TypeError, match="writable buffer"):
        moving.legal_action_mask(out=[0] * n)
    with pytest.raises((TypeError, ValueError)):
        moving.legal_action_mask(out=np.zeros(n, dtype=np.float32))
    before = moving.hash
    assert moving.legal_action_mask() == moving.legal_action_mask(out=bytearray(n))
    assert moving.hash == before


def test_sample_legal_action_is_the_random_agents_draw(moving: fm.Match) -> None:
    legal = moving.legal_actions()
    for seed in range(20):
        a = moving.sample_legal_action(seed)
        assert a in legal
        assert moving.sample_legal_action(seed) == a  # same state, same seed
        # playout draws the same way: one command of a playout is this action.
        played, chosen = moving.clone(), moving.clone()
        assert played.playout(max_commands=1, seed=seed) == 1
        chosen.apply_action(a)
        assert played.hash == chosen.hash
    assert len({moving.sample_legal_action(s) for s in range(50)}) > 5
    with pytest.raises(ValueError, match="seed"):
        moving.sample_legal_action(-1)
    over = fm.Match("system-demo", seed=3)
    over.playout(seed=1)
    assert over.sample_legal_action(1) is None


def test_queries(moving: fm.Match) -> None:
    r = moving.reachable("blue-1-armor-bde")
    assert r and {"hex", "cost", "path", "stop", "occupied"} <= set(r[0])
    assert moving.explain(fm.Done()) is None
    err = moving.explain(fm.Move("red-10-inf-rgt", ["0804"]))
    assert isinstance(err, fm.RuleError) and err.rule
    odds = moving.odds("0805", ["blue-2-inf-bde"], side="a")
    assert "results" in odds
    assert len(moving.legal_commands_for("blue-1-armor-bde")) > 0


def test_max_game_length_bounds_every_game() -> None:
    for name in ["system-demo", "huzzah-firefight"]:
        bound = fm.max_game_length(name)
        assert isinstance(bound, fm.GameLength)
        assert bound == fm.Match(name, seed=3).max_game_length()
        assert bound.total == bound.commands + bound.chance
        commands, chance = bound
        m = fm.Match(name, seed=1)
        m.set_chance_mode("explicit")
        m.playout(seed=1)
        log = json.loads(m.save())["log"]
        assert len(log) <= commands
        assert sum(len(e.get("chance", [])) for e in log) <= chance
    with pytest.raises(fm.ScenarioError):
        fm.max_game_length("no-such-scenario")


def test_full_random_game_on_every_scenario() -> None:
    for name in fm.scenarios("fm"):
        m = fm.Match(name, seed=11)
        rng = random.Random(11)
        n = 0
        seen: set[str] = set()
        while not m.is_over:
            cmds = m.legal_commands()
            assert cmds
            for e in m.apply(rng.choice(cmds)):
                seen.add(type(e).__name__)
                json.dumps(e.to_dict())
            n += 1
            assert n < 20_000
        assert m.result is not None
        assert m.result["winner"] == m.winner
        assert isinstance(m.result["reason"], str)
        assert m.pending.kind == "game_over"
        assert m.legal_commands() == [] and m.legal_actions() == []
        r = m.returns()
        assert sum(r.values()) == 0
        if m.winner is not None:
            assert r[m.winner] == 1
        assert "Event" not in seen, "every event has its own class"
        assert "GameOver" in seen


def test_pickling_everything(moving: fm.Match) -> None:
    play_random(moving, random.Random(9), limit=25)
    m2 = pickle.loads(pickle.dumps(moving))
    assert m2.hash == moving.hash and m2.save() == moving.save()
    sc = pickle.loads(pickle.dumps(moving.scenario))
    assert sc == moving.scenario
    for c in moving.legal_commands()[:5] + [fm.Retreat("u", ["0101"], ["0102"])]:
        c2 = pickle.loads(pickle.dumps(c))
        assert c2 == c and type(c2) is type(c)
    for e in moving.events():
        e2 = pickle.loads(pickle.dumps(e))
        assert e2 == e and type(e2) is type(e)
    p = pickle.loads(pickle.dumps(moving.pending))
    assert p == moving.pending
    for err in (
        fm.RuleError("5.2", "no"),
        fm.ScenarioError("units[0]", "bad"),
        fm.ProtocolError("bad"),
        fm.SaveError("diverges", 3),
    ):
        err2 = pickle.loads(pickle.dumps(err))
        assert type(err2) is type(err) and str(err2) == str(err)
        assert err2.__dict__ == err.__dict__


def test_play_random_is_deterministic_and_threaded() -> None:
    a = fm.play_random("system-demo", 12, seed=4)
    b = fm.play_random("system-demo", 12, seed=4, threads=2)
    assert a["winners"] == b["winners"] and a["commands"] == b["commands"]
    assert a["games"] == 12 and sum(a["wins"].values()) == 12
    assert a["commands"] > 12 * 20
    # Game g is the match with seed + g and agent seed (seed + g) ^ 0x9e3779b97f4a7c15.
    one = fm.play_random(fm.Scenario("system-demo"), 1, seed=5)
    assert one["winners"][0] == a["winners"][1]


def test_repr(moving: fm.Match) -> None:
    r = repr(moving)
    assert r.startswith("<fm.Match system-demo seed=1: turn 1, movement, waiting for Blue")


def test_observation_bytes(moving: fm.Match) -> None:
    board, feats = moving.observation_bytes("a")
    c, h, w = moving.scenario.observation_shape
    assert len(board) == 4 * c * h * w
    assert len(feats) == 4 * len(fm.FEATURE_NAMES)


def test_log_entries_compare_by_value_and_hash(moving: fm.Match) -> None:
    a, b = moving.log, moving.log
    assert a[0] is not b[0] and a[0] == b[0] and hash(a[0]) == hash(b[0])
    assert a == fm.Match.load(moving.save()).log
    assert a[0] != a[1] and a[0] != a[0].to_dict() and a[0] != a[0].command
    assert len({*a, *b}) == 2
    # Equal means equal fields: an entry of another match with the same command, events
    # and hash is equal; the next command's entry is not.
    twin = moving.clone()
    moving.apply(fm.Done())
    twin.apply(fm.Done())
    assert moving.log[-1] == twin.log[-1] and moving.log[-1] not in a


def test_log_words_as_play_prints_them() -> None:
    """Issue 34: the events in words, the same lines serve's `log` gives with
    `"words": true`: the opening's, then one list per command, from `since` on; a
    side's from the events it may know."""
    for scenario in ("vimy-ridge", "huzzah-firefight"):
        m = fm.Match(scenario, seed=3)
        n = m.playout(max_commands=120, seed=5)
        opening, commands = m.log_words()
        assert opening and all(isinstance(line, str) for line in opening)
        assert len(commands) == len(m.log) == n == 120
        assert sum(len(c) for c in commands) > 100
        assert m.log_words(since=100)[1] == commands[100:]
        assert m.log_words(since=n)[1] == []
        for side in ("a", "b"):
            _, theirs = m.log_words(side)
            assert len(theirs) == n
        with pytest.raises(ValueError, match="since must be in 0..=120"):
            m.log_words(since=121)
    # Each placement reads as `play` prints it.
    m = fm.Match("vimy-ridge", seed=3)
    m.playout(max_commands=150, seed=5)
    words = m.log_words()[1]
    placed = 0
    for entry, lines in zip(m.log, words):
        if entry.command.type == "place":
            assert "   %s placed at %s" % (entry.command.unit, entry.command.hex) in lines
            placed += 1
    assert placed > 20
