"""Huzzah! Glorious Empires through fm.Match: the second real rules system plays through
the same class as Fire & Movement, by dicts, saves and the action indices."""

from __future__ import annotations

import random
from typing import Any

import pytest

import fm


def test_the_firefight_plays_to_a_result() -> None:
    assert "huzzah" in fm.systems()
    assert fm.scenarios("huzzah") == ["huzzah-encounter", "huzzah-firefight"]
    m = fm.Match("huzzah-firefight", seed=5)
    assert m.system == "huzzah"
    pending: Any = m.pending
    assert pending["kind"] == "place_officer" and pending["side"] == "b"
    rng = random.Random(5)
    kinds: set[str] = set()
    n = 0
    while not m.is_over and n < 5000:
        cmds: list[Any] = m.legal_commands()
        assert cmds
        events: list[Any] = m.apply(rng.choice(cmds))
        for e in events:
            kinds.add(e["type"])
        n += 1
    assert m.is_over
    assert {"skirmish_tested", "artillery_tested", "fire_resolved", "morale_tested"} <= kinds
    result: Any = m.result
    assert "stand-in" in result["reason"]
    back = fm.Match.load(m.save())
    assert back.hash == m.hash and back.log == m.log


def test_a_refused_command_names_the_page_and_changes_nothing() -> None:
    m = fm.Match("huzzah-firefight", seed=1)
    before = m.hash
    with pytest.raises(fm.RuleError) as info:
        m.apply({"type": "fire", "unit": "fr-1", "target": "br-1"})
    assert info.value.rule == "p7"
    assert m.hash == before
    with pytest.raises(fm.RuleError) as info:
        m.apply({"type": "place_officer", "officer": "nobody"})
    assert info.value.rule == "input"
    with pytest.raises(fm.RuleError):
        m.apply({"type": "place_officer", "officer": "br-cinc", "at": [10**15, 0]})
    assert m.hash == before
    with pytest.raises(fm.ProtocolError):
        m.apply({"type": "place_officer", "officer": "br-cinc", "at": "here"})
