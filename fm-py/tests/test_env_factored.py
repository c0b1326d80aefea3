"""The environments' factored actions (``actions="factored"``, issue 32 point 1): a
small ``Discrete(K)`` in which each step picks one option of the command's current
stage, the command applied when its last stage is chosen; and the mask on the step
that autoresets a vector environment (point 2)."""

from __future__ import annotations

import types
import warnings
from typing import Any, List

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

import fm
from conftest import _need
from fm.env import FmEnv, FmGymEnv, FmParallelEnv, env, parallel_env

BUILTIN = [
    "system-demo",
    "meuse-argonne",
    "vimy-ridge",
    "suez-1916",
    "huzzah-encounter",
    "huzzah-firefight",
]


@pytest.mark.parametrize("scenario", BUILTIN)
def test_the_factored_spaces_are_k_options_and_the_stages_are_features(scenario: str) -> None:
    m = fm.Match(scenario)
    sizes = m.factored_sizes
    k = max(sizes)
    a = FmEnv(scenario=scenario, actions="factored")
    d = FmEnv(scenario=scenario, actions="factored", turns="decision")
    p = FmParallelEnv(scenario=scenario, actions="factored")
    g = FmGymEnv(scenario=scenario, actions="factored")
    assert a.factored_sizes == d.factored_sizes == sizes
    assert a.num_choices == d.num_choices == p.num_choices == g.num_choices == k
    assert a.action_space("a").n == k + 1 and a.wait_action == k  # the wait action
    assert d.action_space("a").n == k and d.wait_action is None
    assert p.action_space("b").n == k + 1 and p.wait_action == k
    assert isinstance(g.action_space, spaces.Discrete) and g.action_space.n == k
    # The features gain the stage being chosen, then each stage's option but the last's.
    extra = len(sizes) + sum(sizes[:-1])
    flat = FmEnv(scenario=scenario)
    assert a.observation_size == flat.observation_size + extra
    assert a.feature_names[: len(flat.feature_names)] == flat.feature_names
    assert a.feature_names[len(flat.feature_names)] == "factored_stage_0"
    assert a.feature_names[-1] == f"factored_choice_{len(sizes) - 2}_{sizes[-2] - 1}"
    assert g.observation_space.shape == (a.observation_size,)
    assert a.state_space.shape == (2 * a.observation_size,)


def _stage_features(e: Any, obs: Any) -> Any:
    feats = obs["features"] if isinstance(obs, dict) else obs[e._board_size :]
    names = e.feature_names
    return {n: v for n, v in zip(names, feats) if n.startswith("factored_")}


@pytest.mark.parametrize("scenario", ["system-demo", "huzzah-firefight"])
def test_a_factored_game_is_the_flat_game_chosen_stage_by_stage(scenario: str) -> None:
    # The same commands, chosen as flat indices in one environment and stage by stage
    # in the other: the same game, the turn passing and rewards coming only when a
    # command is complete, the stages shown to the deciding side alone.
    flat = FmEnv(scenario=scenario, turns="decision")
    fac = FmEnv(scenario=scenario, turns="decision", actions="factored")
    flat.reset(seed=8)
    fac.reset(seed=8)
    rng = np.random.default_rng(8)
    sizes = fac.factored_sizes
    commands = stages = 0
    while flat.match is not None and not flat.match.is_over:
        assert fac.match is not None and fac.match.hash == flat.match.hash
        agent = flat.agent_selection
        assert fac.agent_selection == agent
        action = int(rng.choice(flat.match.legal_actions()))
        seq = fac.match.action_to_factored(action)
        for i, option in enumerate(seq):
            obs = fac.observe(agent)
            assert isinstance(obs, dict)
            mask = obs["action_mask"]
            assert mask.shape == (max(sizes),)
            assert np.flatnonzero(mask).tolist() == fac.match.factored_options(seq[:i])
            assert not mask[sizes[i] :].any()  # past this stage's size: nothing
            feats = _stage_features(fac, obs)
            assert [feats[f"factored_stage_{j}"] for j in range(len(sizes))] == [
                float(j == i) for j in range(len(sizes))
            ]
            chosen = [n for n, v in feats.items() if n.startswith("factored_choice") and v]
            assert chosen == [f"factored_choice_{j}_{seq[j]}" for j in range(i)]
            other = "b" if agent == "a" else "a"
            o_other = fac.observe(other)
            assert not any(_stage_features(fac, o_other).values())  # hidden from it
            assert not fac.action_mask(other).any()
            fac.step(option)
            stages += 1
            if i < len(seq) - 1:
                assert fac.agent_selection == agent and fac.match.hash == flat.match.hash
                assert fac.rewards == {"a": 0.0, "b": 0.0}
        flat.step(action)
        commands += 1
        assert fac.match.hash == flat.match.hash
        assert fac.rewards == flat.rewards and fac.terminations == flat.terminations
    assert fac.match is not None and fac.match.is_over and len(fac.match.log) == commands
    assert stages > commands


def test_illegal_options_raise_lose_or_are_penalised() -> None:
    e = FmEnv(scenario="system-demo", actions="factored", turns="decision")
    e.reset(seed=1)
    assert e.match is not None
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.action_mask(agent) == 0)[0])
    before = e.match.hash
    with pytest.raises(fm.RuleError):
        e.step(bad)
    assert e.match.hash == before and e.num_steps == 0 and e._prefix == []
    with pytest.raises(ValueError, match="outside"):
        e.step(e.num_choices)
    # A head whose unit has somewhere to go is accepted, then a bad second stage.
    head = int(np.flatnonzero(e.action_mask(agent))[-1])
    e.step(head)
    if e._prefix:
        bad2 = int(np.flatnonzero(e.action_mask(agent) == 0)[0])
        with pytest.raises(fm.RuleError):
            e.step(bad2)
        assert e._prefix == [head]
    lose = FmGymEnv(scenario="system-demo", actions="factored")
    lose.reset(seed=1)
    bad = int(np.flatnonzero(~lose.action_masks())[0])
    _, reward, terminated, _, info = lose.step(bad)
    assert terminated and reward == -1.0 and not info["action_mask"].any()
    pen = FmGymEnv(
        scenario="system-demo", actions="factored", illegal_action="penalty", illegal_reward=-0.5
    )
    pen.reset(seed=1)
    _, reward, terminated, _, _ = pen.step(bad)
    assert not terminated and reward == -0.5


def test_the_gymnasium_environment_plays_stage_by_stage_against_its_opponent() -> None:
    g = FmGymEnv(scenario="system-demo", actions="factored")
    obs, info = g.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    done = False
    while not done:
        assert g.match is not None and g.match.to_move == "a" or steps == 0 or done
        mask = g.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        before = len(g.match.log) if g.match is not None else 0
        obs, reward, terminated, truncated, info = g.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        done = terminated or truncated
        assert g.match is not None
        if g._prefix:  # a command half chosen: nothing else happened
            assert len(g.match.log) == before and reward == 0.0
    assert g.match is not None and g.match.is_over
    assert steps > len([e for e in g.match.log]) // 4


@pytest.mark.parametrize("scenario", BUILTIN)
def test_pettingzoo_and_gymnasium_tests_pass_with_factored_actions(scenario: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(scenario=scenario, actions="factored"), num_cycles=200)
        parallel_api_test(parallel_env(scenario=scenario, actions="factored"), num_cycles=200)
        seed_test(lambda: env(scenario=scenario, actions="factored"), num_cycles=100)
        parallel_seed_test(lambda: parallel_env(scenario=scenario, actions="factored"))
        max_cycles_test(
            types.SimpleNamespace(
                env=lambda **kw: env(scenario=scenario, actions="factored", **kw),
                parallel_env=lambda **kw: parallel_env(scenario=scenario, actions="factored", **kw),
            )
        )
        api_test(env(scenario=scenario, actions="factored", turns="decision"), num_cycles=200)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*environment not having a spec")
        gymnasium_check_env(FmGymEnv(scenario=scenario, actions="factored"))


def test_maskable_ppo_trains_on_factored_actions() -> None:
    _need("stable_baselines3")
    contrib = _need("sb3_contrib")
    # illegal_action="raise": one unmasked illegal option fails the test.
    e = FmGymEnv(scenario="system-demo", actions="factored", illegal_action="raise", max_cycles=60)
    model = contrib.MaskablePPO(
        "MlpPolicy", e, n_steps=64, batch_size=64, n_epochs=1, seed=0,
        policy_kwargs={"net_arch": [32]},
    )
    model.learn(total_timesteps=128)
    obs, _ = e.reset(seed=4)
    for _ in range(30):
        action, _ = model.predict(obs, action_masks=e.action_masks(), deterministic=True)
        assert e.action_masks()[int(action)]
        obs, _, terminated, truncated, _ = e.step(int(action))
        if terminated or truncated:
            break


# ------------------------------------------------------------ the step that autoresets


def _play_to_autoreset(vec: Any, n_envs: int, masks_of: Any, same_step: bool) -> List[int]:
    """Steps every environment with a legal action until one's game ends; each
    step's masks of the games going on must be non-empty (a live game always has a
    legal action). Returns the indices of the environments whose game ended."""
    rng = np.random.default_rng(0)
    masks = masks_of(None)
    for _ in range(2000):
        actions = np.array([int(rng.choice(np.flatnonzero(masks[i]))) for i in range(n_envs)])
        result = vec.step(actions)
        masks = masks_of(result)
        done = np.logical_or(result[2], result[3]) if len(result) == 5 else result[2]
        assert all(masks[i].any() for i in range(n_envs) if not done[i] or same_step)
        if done.any():
            return [int(i) for i in np.flatnonzero(done)]
    raise AssertionError("no game ended")


def _gym(e: Any) -> FmGymEnv:
    inner = e.unwrapped
    assert isinstance(inner, FmGymEnv)
    return inner


def _game(e: FmGymEnv) -> fm.Match:
    assert e.match is not None
    return e.match


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("actions", ["flat", "factored"])
def test_gymnasium_vector_env_masks_are_valid_on_the_autoreset_step(
    mode: str, actions: str
) -> None:
    import gymnasium
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    n = 2
    vec = SyncVectorEnv(
        [lambda: FmGymEnv(scenario="huzzah-firefight", actions=actions, max_cycles=40)] * n,
        autoreset_mode=AutoresetMode.NEXT_STEP if mode == "next_step" else AutoresetMode.SAME_STEP,
    )
    _, info = vec.reset(seed=1)
    state: dict[str, Any] = {"info": info, "ended": None}

    def masks(result: Any) -> Any:
        if result is not None:
            state["info"] = result[4]
        info = state["info"]
        got = info["action_mask"]
        for i, sub in enumerate(vec.envs):
            if not info["_action_mask"][i]:
                continue
            # The mask the step returned is that of the observation it returned.
            assert np.array_equal(got[i].astype(bool), _gym(sub).action_masks())
        return got

    # SAME_STEP: the step that ends a game resets it, and its mask is the new game's.
    ended = _play_to_autoreset(vec, n, masks, same_step=mode == "same_step")
    if mode == "next_step":
        # The step after the end resets: its observation and mask are a new game's.
        rng = np.random.default_rng(1)
        actions_now = np.array(
            [int(rng.choice(np.flatnonzero(state["info"]["action_mask"][i])))
             if i not in ended else 0 for i in range(n)]
        )
        result = vec.step(actions_now)
        for i in ended:
            assert result[4]["action_mask"][i].any()
            assert np.array_equal(
                result[4]["action_mask"][i].astype(bool), _gym(vec.envs[i]).action_masks()
            )
            assert not _game(_gym(vec.envs[i])).is_over
    vec.close()
    assert gymnasium.__version__


def test_stable_baselines3_vector_env_masks_after_autoreset() -> None:
    # SB3's DummyVecEnv resets an ended game inside the same step and returns the new
    # game's observation with the old game's info: MaskablePPO reads the masks through
    # action_masks() (get_action_masks), which are the new game's, and the reset's
    # info (reset_infos) holds its mask.
    _need("stable_baselines3")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv(
        [lambda: FmGymEnv(scenario="huzzah-firefight", actions="factored", max_cycles=40)] * 2
    )
    vec.seed(2)
    vec.reset()
    rng = np.random.default_rng(2)

    def masks(_result: Any) -> Any:
        return get_action_masks(vec)

    # The game is reset within the step that ends it: its mask must be the new one's.
    ended = _play_to_autoreset(vec, 2, masks, same_step=True)
    now = get_action_masks(vec)
    for i in ended:
        assert now[i].any()
        assert np.array_equal(vec.reset_infos[i]["action_mask"].astype(bool), now[i])
    assert rng is not None


def test_the_training_example_and_the_learner_benchmark_run(tmp_path: Any) -> None:
    # fm-py/examples/train_factored_ppo.py and benches/python/bench_maskable_ppo.py,
    # briefly: they run, and the example's result holds its curve and final games.
    _need("stable_baselines3")
    _need("sb3_contrib")
    import json
    import runpy
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    out = tmp_path / "curve.json"
    example = runpy.run_path(str(here.parent / "examples" / "train_factored_ppo.py"))
    argv = ["--cpu-minutes", "0.03", "--eval-every", "0.015", "--eval-games", "2",
            "--final-games", "3", "--n-steps", "128", "--batch-size", "64", "--out", str(out),
            "--save", str(tmp_path / "model.zip")]
    assert example["main"](argv) == 0
    r = json.loads(out.read_text())
    assert r["final"]["games"] == 3 and 0 <= r["final"]["wins"] <= 3
    assert r["curve"][0]["timesteps"] == 0 and len(r["curve"]) >= 2
    assert r["timesteps"] > 0 and (tmp_path / "model.zip").exists()
    bench = here.parent.parent / "benches" / "python" / "bench_maskable_ppo.py"
    if bench.exists():  # not in an sdist
        saved = sys.argv
        try:
            sys.argv = [str(bench), "--smoke", "--scenario", "huzzah-firefight"]
            with pytest.raises(SystemExit) as done:
                runpy.run_path(str(bench), run_name="__main__")
            assert done.value.code == 0
        finally:
            sys.argv = saved
