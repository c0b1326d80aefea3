"""The built-in AI from Python: ``Match.think`` and ``fm.agents``."""

from __future__ import annotations

from typing import Callable

import pytest

import fm
from fm import agents

QUICK = {"iterations": 20, "max_priors": 30}


def test_think_chooses_a_legal_command_and_changes_nothing() -> None:
    for name in fm.scenarios():
        m = fm.Match(name, seed=2)
        before, rng = m.hash, m.rng_state
        r = m.think(seed=5, **QUICK)
        assert r["index"] in m.legal_actions(), name
        assert r["side"] == m.to_move, name
        assert 0.0 <= r["value"] <= 1.0
        assert r["candidates"][0]["visits"] >= r["candidates"][-1]["visits"]
        assert (m.hash, m.rng_state) == (before, rng), name
        m.apply(r["command"])


def test_think_is_reproducible_and_its_seed_matters() -> None:
    m = fm.Match("system-demo", seed=4)
    for _ in range(30):
        action = m.sample_legal_action(1)
        assert action is not None
        m.apply_action(action)
    a = m.think(seed=3, **QUICK)
    assert m.think(seed=3, **QUICK) == a
    assert m.clone().think(seed=3, **QUICK) == a
    assert any(m.think(seed=s, **QUICK)["candidates"] != a["candidates"] for s in range(4, 10))


def test_a_time_budget_stops_the_search() -> None:
    m = fm.Match("system-demo", seed=4)
    r = m.think(iterations=10_000_000, time_budget=0.05)
    assert 0 < r["iterations"] < 10_000_000
    assert r["index"] in m.legal_actions()


def test_bad_settings_and_finished_games_are_refused() -> None:
    m = fm.Match("system-demo", seed=1)
    for bad in (
        {"iterations": 0},
        {"exploration": float("nan")},
        {"widening": 0.0},
        {"max_priors": 0},
        {"time_budget": -1.0},
        {"time_budget": float("inf")},
    ):
        with pytest.raises(fm.ProtocolError):
            m.think(**bad)
    with pytest.raises(TypeError):
        m.think(depth=3)  # type: ignore[call-arg]
    m.playout(seed=2)
    with pytest.raises(fm.RuleError) as e:
        m.think()
    assert e.value.rule == "search"


def test_agents_play_a_game_and_replay_it_exactly() -> None:
    def game() -> tuple[list[int], str | None]:
        m = fm.Match("system-demo", seed=8)
        players: dict[str, Callable[[fm.Match], int]] = {
            "a": agents.mcts(seed=1, **QUICK),
            "b": agents.random(seed=2),
        }
        actions = []
        while not m.is_over:
            assert m.to_move is not None
            action = players[m.to_move](m)
            actions.append(action)
            m.apply_action(action)
        return actions, m.winner

    first = game()
    assert first == game()
    assert len(first[0]) > 20


def test_agents_refuse_bad_arguments() -> None:
    with pytest.raises(fm.ProtocolError):
        agents.mcts(seed=-1)
    with pytest.raises(fm.ProtocolError):
        agents.mcts(depth=2)
    with pytest.raises(fm.ProtocolError):
        agents.random(seed=2**64)
    m = fm.Match("system-demo", seed=1)
    m.playout(seed=1)
    with pytest.raises(fm.RuleError):
        agents.random()(m)
    assert "iterations=200" in repr(agents.mcts())
