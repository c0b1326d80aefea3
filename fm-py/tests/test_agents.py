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


def test_out_of_range_int_settings_are_protocol_errors_naming_them() -> None:
    """Issue 33, finding 7: no bare ``OverflowError``. An int setting negative, too
    large for its type or past the search's limit is refused with ``fm.ProtocolError``
    naming the setting and its range, and so is a float setting too large for a float;
    the match is unchanged."""
    m = fm.Match("system-demo", seed=1)
    before = m.save()
    ranges = {
        "iterations": "1 to 10000000",
        "seed": "0 to 18446744073709551615",
        "rollout": "0 to 100000",
        "max_priors": "1 to 1000000",
        "max_candidates": "0 to 18446744073709551615",
    }
    for name, span in ranges.items():
        for value in (2**40, -1, 2**64, 2**200):
            if name in ("seed", "max_candidates") and value == 2**40:
                continue  # in range
            with pytest.raises(fm.ProtocolError) as e:
                m.think(**{name: value})
            assert name in str(e.value) and span in str(e.value), (name, value, e.value)
            assert str(value) in str(e.value)
    for name in ("exploration", "widening", "time_budget"):
        with pytest.raises(fm.ProtocolError) as e:
            m.think(**{name: 10**400})
        assert name in str(e.value), e.value
    # The largest values in range are accepted.
    r = m.think(iterations=1, seed=2**64 - 1, max_candidates=2**64 - 1, rollout=0, max_priors=1)
    assert r["index"] in m.legal_actions()
    with pytest.raises(TypeError):
        m.think(iterations="3")  # type: ignore[arg-type]
    # fm.agents passes them through.
    with pytest.raises(fm.ProtocolError, match="iterations"):
        agents.mcts(iterations=2**40)(m)
    with pytest.raises(fm.ProtocolError, match="rollout"):
        agents.mcts(rollout=-1)(m)
    assert m.save() == before


def test_information_state_tensor_bounds_are_value_errors() -> None:
    m = fm.Match("system-demo", seed=1)
    for value in (-1, 2**64, 2**200):
        with pytest.raises(ValueError, match="max_commands"):
            m.information_state_tensor("a", value)


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
