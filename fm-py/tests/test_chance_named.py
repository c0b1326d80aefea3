"""Issue 30: chance nodes name their roll, and a match can be explicit from the start."""

from __future__ import annotations

import random

import pytest

import fm


def test_explicit_from_construction_makes_the_huzzah_roll_off_a_chance_node() -> None:
    m = fm.Match("huzzah-encounter", seed=5, chance_mode="explicit")
    assert m.chance_mode == "explicit"
    assert m.is_chance_node
    node = m.chance_node()
    assert node is not None
    assert node["outcomes"] == 6
    assert node["roll"]["roll"] == "roll_off"
    assert node["roll"]["dice"] == "2d6"
    assert node["roll"]["die"] == 1
    assert node["roll"]["side"] == "a"
    # Before the opening, no side decides and the battle is not over.
    assert isinstance(m.pending, fm.huzzah.pending.Opening)
    assert m.pending.kind == "opening"
    assert not m.is_over and m.winner is None
    assert m.legal_commands() == []
    # The roll-off re-rolls ties (page 7), so the outcomes vary: die faces 6, 5, 4, ...
    events: list[object] = []
    outcomes = iter(range(200))
    while m.is_chance_node:
        node = m.chance_node()
        assert node is not None and node["roll"]["roll"] in ("roll_off", "placement")
        events = m.apply_chance((5 - next(outcomes)) % node["outcomes"])
    assert events, "the last outcome gives the opening's events"
    assert m.chance_node() is None
    back = fm.Match.load(m.save())
    assert back.save() == m.save()


def test_fm_explicit_from_construction_and_combat_nodes_are_named() -> None:
    m = fm.Match("system-demo", seed=3, chance_mode="explicit")
    assert m.chance_mode == "explicit"
    rng = random.Random(4)
    rolls: set[str] = set()
    for _ in range(400):
        if m.is_over:
            break
        node = m.chance_node()
        if node is not None:
            rolls.add(node["roll"]["roll"])
            m.apply_chance(rng.randrange(node["outcomes"]))
            continue
        m.apply_action(rng.choice(m.legal_actions()))
    assert "combat" in rolls or "bombardment" in rolls, rolls


def test_bad_chance_mode_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        fm.Match("system-demo", seed=1, chance_mode="maybe")
