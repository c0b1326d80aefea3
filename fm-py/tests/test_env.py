"""The PettingZoo environment."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

import fm
from fm.env import FmEnv, env


def test_pettingzoo_api_test() -> None:
    api_test(env(scenario="system-demo"), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(scenario="system-demo"), num_cycles=300)


def test_every_builtin_scenario_passes_the_api_test() -> None:
    for name in fm.scenarios("fm"):
        api_test(env(scenario=name), num_cycles=200)


def test_random_agents_play_a_whole_game() -> None:
    e = FmEnv(scenario="system-demo")
    e.reset(seed=3)
    sc = e.scenario
    c, h, w = sc.observation_shape
    rng = np.random.default_rng(3)
    steps = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert obs["observation"].shape == (c, h, w)
        assert obs["observation"].dtype == np.float32
        assert obs["features"].shape == (len(sc.feature_names),)
        assert obs["action_mask"].dtype == np.int8
        assert e.observation_space(agent).contains(obs)
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        assert e.match is not None and agent == e.match.to_move
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == e.match.legal_actions()
        other = "b" if agent == "a" else "a"
        assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.match is not None and e.match.is_over
    assert set(final) == {"a", "b"}
    assert sum(final.values()) == 0
    if e.match.winner is not None:
        assert final[e.match.winner] == 1.0
    assert steps == len(e.match.log)


def test_observations_hide_nothing_they_should_not() -> None:
    # The features of side a are the same whatever b's face-down marker values are,
    # because they come from a's view.
    from conftest import find_face_down

    m = find_face_down("b")
    e = FmEnv(scenario="system-demo")
    e.reset(seed=0)
    e.match = m
    obs = e.observe("a")
    names = e.scenario.feature_names
    f = dict(zip(names, obs["features"]))
    assert f["combat:enemy_revealed_values"] == 0.0
    assert f["combat:enemy_markers"] > 0.0


def test_illegal_actions_raise_or_lose() -> None:
    e = FmEnv(scenario="system-demo")
    e.reset(seed=1)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(fm.RuleError):
        e.step(bad)
    e = FmEnv(scenario="system-demo", illegal_action="lose")
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0


def test_max_steps_truncates() -> None:
    e = FmEnv(scenario="system-demo", max_steps=5)
    e.reset(seed=1)
    for _ in range(5):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    assert all(e.truncations.values())


def test_reset_options_and_render() -> None:
    e = FmEnv(scenario="system-demo", render_mode="svg")
    e.reset(options={"match_seed": 42})
    assert e.match is not None and e.match.seed == 42
    svg = e.render()
    assert svg is not None and svg.startswith("<svg")
    assert isinstance(e.state(), dict)
    e.close()
