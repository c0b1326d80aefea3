"""The reinforcement-learning environments: PettingZoo AEC and parallel, Gymnasium
single-agent, with PettingZoo's own test suite, Stable-Baselines3's checker and
SuperSuit's wrappers."""

from __future__ import annotations

import sys
import types
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.test.state_test import test_state as pz_state_test  # type: ignore[import-untyped]
from pettingzoo.test.state_test import test_state_space as pz_state_space_test
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

import fm
from conftest import _need
from fm.env import FmEnv, FmGymEnv, FmParallelEnv, env, gym_env, parallel_env



# ---------------------------------------------------------------- the AEC environment


def test_pettingzoo_api_test() -> None:
    api_test(env(scenario="system-demo"), num_cycles=1000)
    api_test(env(scenario="system-demo", observation="flat"), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(scenario="system-demo"), num_cycles=300)
    seed_test(lambda: env(scenario="system-demo", observation="flat"), num_cycles=300)


def test_every_builtin_scenario_passes_the_api_tests() -> None:
    for name in fm.scenarios("fm"):
        api_test(env(scenario=name), num_cycles=200)
        parallel_api_test(parallel_env(scenario=name), num_cycles=200)


@pytest.mark.parametrize("turns", ["cycle", "decision"])
def test_random_agents_play_a_whole_game(turns: str) -> None:
    e = FmEnv(scenario="system-demo", turns=turns)
    e.reset(seed=3)
    sc = e.scenario
    c, h, w = sc.observation_shape
    n = sc.action_space_size
    wait = e.wait_action
    assert (wait == n) if turns == "cycle" else (wait is None)
    assert e.action_space("a").n == (n + 1 if turns == "cycle" else n)
    rng = np.random.default_rng(3)
    steps = waits = 0
    order: list[str] = []
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert isinstance(obs, dict)
        assert obs["observation"].shape == (c, h, w)
        assert obs["observation"].dtype == np.float32
        assert obs["features"].shape == (len(sc.feature_names),)
        assert obs["action_mask"].dtype == np.int8
        assert e.observation_space(agent).contains(obs)
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        order.append(agent)
        assert e.match is not None
        other = "b" if agent == "a" else "a"
        if agent == "a" or turns == "decision":
            decider = e.match.to_move  # a cycle's decider is the one deciding as it begins
        if agent != decider:
            # turns="cycle": the side not deciding has the wait action alone.
            assert turns == "cycle"
            assert np.flatnonzero(obs["action_mask"]).tolist() == [wait]
            e.step(wait)
            waits += 1
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == e.match.legal_actions()
        if turns == "cycle":
            assert np.flatnonzero(e.action_mask(other)).tolist() == [wait]
        else:
            assert not e.action_mask(other).any()
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.match is not None and e.match.is_over
    assert set(final) == {"a", "b"}
    assert sum(final.values()) == 0
    if e.match.winner is not None:
        assert final[e.match.winner] == 1.0
    assert steps == len(e.match.log)
    if turns == "cycle":
        # Strict turns: a, b, a, b, ... whoever decides, one decision a cycle.
        assert order[::2] == ["a"] * len(order[::2]) and set(order[1::2]) <= {"b"}
        assert waits == steps - (len(order) % 2)
    else:
        assert waits == 0


def test_flat_observations_are_the_dict_ones_concatenated() -> None:
    d = FmEnv(scenario="vimy-ridge")
    f = FmEnv(scenario="vimy-ridge", observation="flat")
    d.reset(seed=5)
    f.reset(seed=5)
    space = f.observation_space("a")
    assert isinstance(space, spaces.Box) and space.shape == (d.scenario.observation_size,)
    for _ in range(40):
        agent = d.agent_selection
        od = d.observe(agent)
        of = f.observe(agent)
        assert isinstance(od, dict) and isinstance(of, np.ndarray)
        assert of.dtype == np.float32 and space.contains(of)
        np.testing.assert_array_equal(
            of, np.concatenate([od["observation"].ravel(), od["features"]])
        )
        # The flat form's mask is in the info, the same as the dict's.
        np.testing.assert_array_equal(f.infos[agent]["action_mask"], od["action_mask"])
        assert f.infos[agent]["action_mask"].dtype == np.int8
        # Each observation is a new array: a kept one does not change.
        assert f.observe(agent) is not of
        action = int(np.flatnonzero(od["action_mask"])[0])
        d.step(action)
        f.step(action)


def test_match_observation_fills_a_numpy_buffer() -> None:
    import array

    m = fm.Match("meuse-argonne", seed=2)
    sc = m.scenario
    c, h, w = sc.observation_shape
    assert sc.observation_size == c * h * w + len(sc.feature_names)
    out = np.full(sc.observation_size, -1.0, dtype=np.float32)
    assert m.observation("b", out=out) is out
    board, feats = m.observation_bytes("b")
    assert out.tobytes() == board + feats == m.observation("b")
    assert out.min() >= 0.0 and out.max() <= 1.0
    buf = array.array("f", bytes(4 * sc.observation_size))
    m.observation(1, out=buf)
    assert buf.tobytes() == out.tobytes()
    with pytest.raises(ValueError, match="observation_size"):
        m.observation("a", out=np.empty(10, np.float32))
    with pytest.raises(TypeError, match="float32"):
        m.observation("a", out=np.empty(sc.observation_size, np.float64))
    with pytest.raises(TypeError, match="float32"):
        m.observation("a", out=[0.0] * sc.observation_size)
    frozen = np.empty(sc.observation_size, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        m.observation("a", out=frozen)
    with pytest.raises(TypeError):
        m.observation(True, out=out)
    # The layout as the match layer gives it, for any system.
    spec = m.observation_spec
    assert spec["shape"] == [c, h, w] and spec["features"] == sc.feature_names
    assert spec["channels"] == sc.observation_channels
    # Huzzah!'s, through the same methods.
    hz = fm.Match("huzzah-encounter", seed=1)
    hspec = hz.observation_spec
    hc, hh, hw = hspec["shape"]
    n = hc * hh * hw + len(hspec["features"])
    hout = np.full(n, -1.0, dtype=np.float32)
    assert hz.observation("b", out=hout) is hout
    planes, feats = hz.observation_bytes("b")
    assert hout.tobytes() == planes + feats == hz.observation("b")
    assert len(planes) == 4 * hc * hh * hw
    assert hout.min() >= 0.0 and hout.max() <= 1.0
    with pytest.raises(ValueError, match="observation_size"):
        hz.observation("a", out=np.empty(n + 1, np.float32))


def test_observations_hide_nothing_they_should_not() -> None:
    # The features of side a are the same whatever b's face-down marker values are,
    # because they come from a's view; the referee's state holds them.
    from conftest import find_face_down

    m = find_face_down("b")
    e = FmEnv(scenario="system-demo")
    e.reset(seed=0)
    e.match = m
    obs = e.observe("a")
    assert isinstance(obs, dict)
    names = e.scenario.feature_names
    f = dict(zip(names, obs["features"]))
    assert f["combat:enemy_revealed_values"] == 0.0
    assert f["combat:enemy_markers"] > 0.0
    # The state is a's then b's observation, each from its own view.
    n = e.scenario.observation_size
    state = e.state()
    assert state.shape == (2 * n,) and e.state_space.contains(state)
    flat_a = np.frombuffer(m.observation("a"), dtype="<f4")
    flat_b = np.frombuffer(m.observation("b"), dtype="<f4")
    np.testing.assert_array_equal(state[:n], flat_a)
    np.testing.assert_array_equal(state[n:], flat_b)
    # b's half of the state holds its face-down values, which a's half does not.
    fb = dict(zip(names, flat_b[n - len(names) :]))
    assert fb["combat:own_marker_values"] > 0.0


def test_state_space_and_state() -> None:
    e = env(scenario="system-demo", illegal_action="penalty")
    e.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo warns about a state that is not an array
        pz_state_space_test(e)
        pz_state_test(e, 200)


@pytest.mark.parametrize("turns", ["cycle", "decision"])
def test_illegal_actions_raise_lose_or_are_penalised(turns: str) -> None:
    e = FmEnv(scenario="system-demo", turns=turns)
    e.reset(seed=1)
    assert e.match is not None
    decider = e.match.to_move
    assert decider == "b"  # system-demo: Red sets up first
    if turns == "cycle":
        assert e.agent_selection == "a"  # every cycle starts with a, who waits
        with pytest.raises(fm.RuleError, match="one legal action is the wait action") as waited:
            e.step(0)
        assert waited.value.rule == "4.1"
        e.step(e.wait_action)
    assert e.agent_selection == "b"
    bad = int(np.flatnonzero(e.action_mask("b") == 0)[0])
    before = e.match.hash
    steps = e.num_steps
    with pytest.raises(fm.RuleError):
        e.step(bad)
    if turns == "cycle":
        with pytest.raises(fm.RuleError, match="only for the side not deciding"):
            e.step(e.wait_action)
    assert e.match.hash == before and e.num_steps == steps
    for out_of_space in (-1, e.action_space("b").n):
        with pytest.raises(ValueError, match="outside"):
            e.step(out_of_space)
    with pytest.raises(TypeError, match="action must be an int"):
        e.step("3")  # type: ignore[arg-type]

    e = FmEnv(scenario="system-demo", illegal_action="lose", turns=turns)
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(0 if turns == "cycle" else bad)  # a acts out of turn / b's illegal command
    if turns == "cycle":
        # Agents leave at the cycle's end: b waits it out, then both terminate.
        assert not any(e.terminations.values()) and e.action_mask("b")[e.wait_action] == 1
        e.step(e.wait_action)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0 and sum(e.rewards.values()) == 0

    e = FmEnv(scenario="system-demo", illegal_action="penalty", illegal_reward=-0.25, turns=turns)
    e.reset(seed=1)
    if turns == "cycle":
        e.step(e.wait_action)
    assert e.match is not None and e.agent_selection == "b"
    before = e.match.hash
    e.step(bad)
    assert e.match.hash == before and e.match.to_move == "b"
    # The decision stays with b: next in the cycle (a waits) or at once.
    assert e.agent_selection == ("a" if turns == "cycle" else "b")
    assert e.rewards["b"] == -0.25 and e.num_steps == (2 if turns == "cycle" else 1)
    assert not any(e.terminations.values())


@pytest.mark.parametrize("turns", ["cycle", "decision"])
def test_max_cycles_truncates_and_max_steps_is_its_deprecated_alias(turns: str) -> None:
    e = FmEnv(scenario="system-demo", max_cycles=5, turns=turns)
    e.reset(seed=1)
    per_cycle = 2 if turns == "cycle" else 1
    for _ in range(5 * per_cycle):
        assert not any(e.truncations.values())
        agent = e.agent_selection
        e.step(int(np.flatnonzero(e.action_mask(agent))[0]))
    assert all(e.truncations.values())
    assert e.num_cycles == 5 and e.num_steps == 5 * per_cycle
    with pytest.warns(DeprecationWarning, match="max_cycles"):
        old = FmEnv(scenario="system-demo", max_steps=5)
    assert old.max_cycles == 5 and old.max_steps == 5
    with pytest.raises(ValueError, match="disagree"), pytest.warns(DeprecationWarning):
        FmEnv(max_cycles=4, max_steps=5)


def test_bad_options_are_clear_errors() -> None:
    for make in (FmEnv, FmParallelEnv, FmGymEnv):
        with pytest.raises(ValueError, match="observation must be one of"):
            make(observation="box")
        with pytest.raises(ValueError, match="illegal_action must be one of"):
            make(illegal_action="ignore")
        with pytest.raises(ValueError, match="render_mode must be one of"):
            make(render_mode="window")
        with pytest.raises(ValueError, match="max_cycles must be at least 1"):
            make(max_cycles=0)
        with pytest.raises(TypeError, match="max_cycles must be an int"):
            make(max_cycles="10")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="render_side must be one of"):
            make(render_side="c")
        with pytest.raises(ValueError, match="actions must be one of"):
            make(actions="multi")
    with pytest.raises(ValueError, match="turns must be one of"):
        FmEnv(turns="round")
        with pytest.raises(ValueError, match="illegal_reward must be finite"):
            make(illegal_reward=float("nan"))
        with pytest.raises(fm.ScenarioError):
            make(scenario="no-such-scenario")
    with pytest.raises(ValueError, match="side must be one of"):
        FmGymEnv(side="Blue")
    with pytest.raises(ValueError, match="opponent must be"):
        FmGymEnv(opponent="alphazero")
    with pytest.raises(RuntimeError, match="reset"):
        FmEnv().observe("a")


def test_reset_options_and_render_modes() -> None:
    e = FmEnv(scenario="system-demo", render_mode="svg")
    e.reset(options={"match_seed": 42})
    assert e.match is not None and e.match.seed == 42
    svg = e.render()
    assert isinstance(svg, str) and svg.startswith("<svg")
    e.close()
    assert e.render() is None

    def is_board(res: Any) -> bool:
        # A picture of the system-demo board: cream hexes and unit colours, not blank.
        return bool(isinstance(res, np.ndarray) and res.shape[0] > 500 and res.std() > 20)

    def is_svg(res: Any) -> bool:
        return isinstance(res, str) and res.startswith("<svg")

    def is_text(res: Any) -> bool:
        return isinstance(res, str) and res.startswith("<fm.Match system-demo")

    render_test(
        lambda render_mode=None: env(scenario="system-demo", render_mode=render_mode),
        custom_tests={"rgb_array": is_board, "svg": is_svg, "ansi": is_text},
    )
    render_test(
        lambda render_mode=None: parallel_to_aec(
            parallel_env(scenario="system-demo", render_mode=render_mode)
        ),
        custom_tests={"rgb_array": is_board, "svg": is_svg, "ansi": is_text},
    )


def test_rgb_array_is_the_svg_drawn_and_ansi_names_the_last_command() -> None:
    e = FmEnv(scenario="system-demo", render_mode="rgb_array", render_side="b")
    e.reset(seed=2)
    rgb = e.render()
    assert isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8 and rgb.flags.writeable
    assert e.match is not None
    h, w, data = fm.svg_to_rgb(e.match.svg("b"))
    assert rgb.shape == (h, w, 3)
    assert rgb.tobytes() == bytes(data)
    t = FmEnv(scenario="system-demo", render_mode="ansi", turns="decision")
    t.reset(seed=2)
    action = int(np.flatnonzero(t.action_mask(t.agent_selection))[0])
    assert t.match is not None
    command = t.match.command_of(action)
    t.step(action)
    text = t.render()
    assert isinstance(text, str)
    assert f"last: b played action {action}: {command!r}" in text


def test_human_mode_prints_and_writes_the_picture(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.png"
    e = FmEnv(scenario="system-demo", render_mode="human", render_path=str(path), turns="decision")
    e.reset(seed=0)
    assert e.render() is None
    first = path.read_bytes()
    assert first.startswith(b"\x89PNG\r\n\x1a\n")
    e.step(int(np.flatnonzero(e.action_mask(e.agent_selection))[0]))
    assert path.read_bytes() != first  # redrawn after the step
    out = capsys.readouterr().out
    assert out.count("<fm.Match system-demo") >= 3  # reset, step, render()


def test_human_mode_in_jupyter_shows_the_board_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in IPython kernel: the board is displayed once, then updated in place.
    shown: list[tuple[str, str]] = []

    class Handle:
        def update(self, obj: Any) -> None:
            shown.append(("update", obj.data))

    class SVG:
        def __init__(self, data: str) -> None:
            self.data = data

    def display(obj: Any, display_id: bool = False) -> Handle:
        assert display_id
        shown.append(("display", obj.data))
        return Handle()

    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    monkeypatch.setitem(sys.modules, "IPython.display", types.SimpleNamespace(display=display, SVG=SVG))
    e = FmGymEnv(scenario="system-demo", render_mode="human", render_side="a")
    e.reset(seed=0)
    e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert [kind for kind, _ in shown] == ["display", "update"]
    assert e.match is not None and shown[-1][1] == e.match.svg("a")


# ----------------------------------------------------------- the parallel environment


def _parallel_penalty(**kwargs: Any) -> FmParallelEnv:
    # PettingZoo's seed and max_cycles tests sample actions without the mask.
    return FmParallelEnv(scenario="system-demo", illegal_action="penalty", **kwargs)


def test_pettingzoo_parallel_api_and_seed_tests() -> None:
    parallel_api_test(parallel_env(scenario="system-demo"), num_cycles=1000)
    parallel_api_test(
        parallel_env(scenario="system-demo", observation="flat", illegal_action="penalty"),
        num_cycles=300,
    )
    parallel_seed_test(_parallel_penalty, num_cycles=100)


def _module(scenario: str, **options: Any) -> Any:
    """The module PettingZoo's max_cycles_test takes: ``env`` and ``parallel_env``."""
    return types.SimpleNamespace(
        env=lambda **kw: env(scenario=scenario, **options, **kw),
        parallel_env=lambda **kw: parallel_env(scenario=scenario, **options, **kw),
    )


def test_pettingzoo_max_cycles_test() -> None:
    # max_cycles_test counts a cycle as a round in which every agent acts once: the
    # AEC environment's default turns="cycle".
    max_cycles_test(_module("system-demo", illegal_action="penalty"))
    max_cycles_test(_module("system-demo", actions="factored"))


def test_aec_cycles_convert_to_a_parallel_environment() -> None:
    # turns="cycle" is what PettingZoo's aec_to_parallel takes (every agent once a
    # cycle); turns="decision" is refused by it.
    from pettingzoo.utils.conversions import aec_to_parallel

    par = aec_to_parallel(env(scenario="system-demo"))
    parallel_api_test(par, num_cycles=300)
    assert FmEnv(turns="cycle").metadata["is_parallelizable"] is True
    assert FmEnv(turns="decision").metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(env(scenario="system-demo", turns="decision"))


def test_parallel_game_is_the_aec_game() -> None:
    # Each parallel step is one decision: the same seed and deciding actions give the
    # same game as the AEC environment.
    p = FmParallelEnv(scenario="system-demo")
    a = FmEnv(scenario="system-demo", turns="decision")
    obs, infos = p.reset(seed=9)
    a.reset(seed=9)
    rng = np.random.default_rng(9)
    wait = p.wait_action
    assert wait == p.scenario.action_space_size
    assert p.action_space("a").n == wait + 1
    steps = 0
    while p.agents:
        decider = infos["a"]["to_move"]
        assert decider == a.agent_selection
        other = "b" if decider == "a" else "a"
        o_d, o_o = obs[decider], obs[other]
        assert isinstance(o_d, dict) and isinstance(o_o, dict)
        assert o_d["action_mask"][wait] == 0
        assert list(np.flatnonzero(o_o["action_mask"])) == [wait]
        a_obs = a.observe(decider)
        assert isinstance(a_obs, dict)
        np.testing.assert_array_equal(o_d["action_mask"][:wait], a_obs["action_mask"])
        act = int(rng.choice(np.flatnonzero(o_d["action_mask"])))
        actions = {decider: act} if steps % 2 else {decider: act, other: wait}
        obs, rewards, terms, truncs, infos = p.step(actions)
        a.step(act)
        steps += 1
        if p.agents:
            assert rewards == {"a": 0.0, "b": 0.0}
    assert p.match is not None and a.match is not None
    assert p.match.hash == a.match.hash and p.match.is_over
    assert all(terms.values()) and not any(truncs.values())
    assert rewards == {k: float(v) for k, v in p.match.returns().items()}
    with pytest.raises(RuntimeError, match="reset"):
        p.step({"a": 0})


@pytest.mark.parametrize("actions", ["flat", "factored"])
def test_aec_cycles_are_the_parallel_environment_through_parallel_to_aec(actions: str) -> None:
    # turns="cycle" and PettingZoo's parallel_to_aec of FmParallelEnv: the same
    # agents, masks, rewards and game from the same seed and actions. (The
    # observations differ in time only: parallel_to_aec keeps those of the cycle's
    # start, FmEnv shows the state as it is when the agent acts.)
    mine = FmEnv(scenario="huzzah-firefight", actions=actions)
    theirs = parallel_to_aec(FmParallelEnv(scenario="huzzah-firefight", actions=actions))
    mine.reset(seed=4)
    theirs.reset(seed=4)
    rng = np.random.default_rng(4)
    n = 0
    for agent, other in zip(mine.agent_iter(), theirs.agent_iter()):
        assert agent == other
        o1, r1, t1, u1, _ = mine.last()
        o2, r2, t2, u2, _ = theirs.last()
        assert (r1, t1, u1) == (r2, t2, u2)
        assert isinstance(o1, dict) and isinstance(o2, dict)
        np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"])
        action = None if t1 or u1 else int(rng.choice(np.flatnonzero(o1["action_mask"])))
        mine.step(action)
        theirs.step(action)
        n += 1
    assert mine.match is not None and mine.match.is_over
    assert mine.match.hash == theirs.unwrapped.match.hash and n > 100


def test_parallel_illegal_actions() -> None:
    p = FmParallelEnv(scenario="system-demo")
    obs, infos = p.reset(seed=1)
    decider = infos["a"]["to_move"]
    other = "b" if decider == "a" else "a"
    o = obs[decider]
    assert isinstance(o, dict)
    legal = int(np.flatnonzero(o["action_mask"])[0])
    assert p.match is not None
    before = p.match.hash
    # The waiting side must wait; the deciding side must decide; nothing changes.
    with pytest.raises(fm.RuleError, match="wait action") as e1:
        p.step({decider: legal, other: legal})
    assert e1.value.rule == "4.1"
    with pytest.raises(fm.RuleError, match="decides now"):
        p.step({decider: p.wait_action, other: p.wait_action})
    with pytest.raises(ValueError, match="no action for it"):
        p.step({other: p.wait_action})
    with pytest.raises(ValueError, match="not in the game"):
        p.step({decider: legal, "c": 0})
    with pytest.raises(ValueError, match="outside"):
        p.step({decider: p.wait_action + 1})
    assert p.match.hash == before and p.num_steps == 0

    lose = FmParallelEnv(scenario="system-demo", illegal_action="lose")
    lose.reset(seed=1)
    _, rewards, terms, _, _ = lose.step({decider: legal, other: legal})
    assert rewards == {other: -1.0, decider: 1.0} and all(terms.values())
    assert lose.agents == []

    pen = FmParallelEnv(scenario="system-demo", illegal_action="penalty")
    pen.reset(seed=1)
    _, rewards, terms, _, _ = pen.step({decider: legal, other: legal})
    assert rewards == {other: -0.1, decider: 0.0} and not any(terms.values())
    assert pen.match is not None and len(pen.match.log) == 1  # the decider's action counted


# --------------------------------------------------------- the Gymnasium environment


def test_gymnasium_env_checker() -> None:
    with warnings.catch_warnings():
        # It cannot check other render modes without a registered spec.
        warnings.filterwarnings("ignore", message=".*environment not having a spec")
        gymnasium_check_env(FmGymEnv(scenario="system-demo"))
        gymnasium_check_env(FmGymEnv(scenario="system-demo", observation="dict", side="b"))


def test_sb3_check_env() -> None:
    env_checker = _need("stable_baselines3.common.env_checker")
    # The defaults: flat Box observations, illegal actions lose (check_env plays random
    # unmasked actions, and its NaN check ten steps through a DummyVecEnv).
    e = gym_env(scenario="system-demo")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns of anything SB3 would mishandle
        env_checker.check_env(e)
    env_checker.check_env(FmGymEnv(scenario="meuse-argonne", illegal_action="penalty"))
    # With "raise" it must raise, as the issue reported: the option is what matters.
    with pytest.raises(fm.RuleError):
        env_checker.check_env(FmGymEnv(scenario="system-demo", illegal_action="raise"))


def test_maskable_ppo_trains_with_action_masks() -> None:
    _need("stable_baselines3")
    contrib = _need("sb3_contrib")
    # illegal_action="raise": a single unmasked illegal action fails the test.
    e = FmGymEnv(scenario="system-demo", illegal_action="raise", max_cycles=40)
    model = contrib.MaskablePPO(
        "MlpPolicy", e, n_steps=64, batch_size=64, n_epochs=1, seed=0,
        policy_kwargs={"net_arch": [32]},
    )
    model.learn(total_timesteps=64)
    obs, _ = e.reset(seed=4)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=e.action_masks(), deterministic=True)
        assert e.action_masks()[int(action)]
        obs, _, terminated, truncated, _ = e.step(int(action))
        if terminated or truncated:
            break


def test_gym_env_plays_against_an_opponent() -> None:
    e = FmGymEnv(scenario="system-demo", side="a")
    obs, info = e.reset(seed=11)
    assert isinstance(obs, np.ndarray) and obs.shape == (e.scenario.observation_size,)
    assert e.match is not None and e.match.to_move == "a"
    assert info["to_move"] == "a" and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    terminated = truncated = False
    while not (terminated or truncated):
        mask = e.action_masks()
        assert mask.dtype == np.bool_
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        assert list(np.flatnonzero(mask)) == e.match.legal_actions()
        obs, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if not terminated:
            assert e.match.to_move == "a"  # the opponent has played its decisions
    assert e.match.is_over and total == e.match.returns()["a"]
    assert not e.action_masks().any()
    assert steps < len(e.match.log)  # the opponent played the rest
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_gym_env_against_the_builtin_ai() -> None:
    def run(seed: int) -> tuple[int, str | None, int]:
        e = FmGymEnv(scenario="system-demo", side="a", opponent="mcts", mcts_iterations=8)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            _, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            done = term or trunc
        assert e.match is not None and e.match.is_over
        return e.match.hash, e.match.winner, len(e.match.log)

    assert run(5) == run(5), "the AI opponent's seeds come from the environment's"
    with pytest.raises(ValueError, match="mcts_iterations"):
        FmGymEnv(opponent="mcts", mcts_iterations=0)
    with pytest.raises(ValueError, match="opponent"):
        FmGymEnv(opponent="alphazero")


def test_gym_env_is_deterministic_from_its_seed() -> None:
    def run(seed: int) -> tuple[list[float], int]:
        e = FmGymEnv(scenario="vimy-ridge", side="b", max_cycles=60)
        obs, _ = e.reset(seed=seed)
        rewards: list[float] = []
        done = False
        while not done:
            action = int(np.flatnonzero(e.action_masks())[0])
            obs, r, term, trunc, _ = e.step(action)
            rewards.append(r)
            done = term or trunc
        assert e.match is not None
        return rewards, e.match.hash

    assert run(3) == run(3)
    assert run(3)[1] != run(4)[1]


def test_callable_opponents() -> None:
    seen: list[fm.Match] = []

    def first_command(m: fm.Match) -> fm.Command:
        seen.append(m)
        return m.legal_commands()[0]

    def last_action(m: fm.Match) -> int:
        return m.legal_actions()[-1]

    for opponent in (first_command, last_action):
        e = FmGymEnv(scenario="system-demo", side="a", opponent=opponent, max_cycles=30)
        e.reset(seed=0)
        done = False
        while not done:
            _, _, term, trunc, _ = e.step(int(np.flatnonzero(e.action_masks())[0]))
            done = term or trunc
        assert e.match is not None and len(e.match.log) > e.num_steps  # b played too
    # The opponent gets a copy: what it does to it changes nothing here.
    assert seen and all(m is not seen[0] for m in seen[1:])

    def vandal(m: fm.Match) -> int:
        action = m.legal_actions()[0]
        m.playout()  # plays its copy to the end
        return action

    e = FmGymEnv(scenario="system-demo", side="a", opponent=vandal)
    e.reset(seed=0)
    assert e.match is not None and not e.match.is_over

    def cheat(m: fm.Match) -> dict[str, Any]:
        return {"type": "place", "unit": "blue-commando-co", "hex": "1105"}

    e = FmGymEnv(scenario="system-demo", side="a", opponent=cheat)
    with pytest.raises(fm.RuleError, match="the opponent's move"):
        e.reset(seed=0)


# ------------------------------------------------------------------ SuperSuit wrappers


def test_supersuit_wrappers_on_the_flat_observations() -> None:
    ss = _need("supersuit")
    n = fm.Scenario("system-demo").observation_size
    # AEC: flatten, dtype and frame stacking keep the API (the dict form breaks them).
    e = ss.frame_stack_v1(
        ss.dtype_v0(ss.flatten_v0(env(scenario="system-demo", observation="flat")), np.float32), 3
    )
    api_test(e, num_cycles=100)
    e.reset(seed=0)
    obs, *_ = e.last()
    assert obs.shape == (3 * n,)
    # Parallel: the vector environment that SB3 and the PettingZoo tutorials use.
    p = ss.frame_stack_v1(parallel_env(scenario="system-demo", observation="flat"), 2)
    vec = ss.pettingzoo_env_to_vec_env_v1(p)
    assert vec.num_envs == 2 and vec.observation_space.shape == (2 * n,)
    obs, infos = vec.reset(seed=0)
    assert obs.shape == (2, 2 * n)
    for _ in range(30):
        masks = [info["action_mask"] for info in infos]
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        assert obs.shape == (2, 2 * n) and obs.dtype == np.float32


def test_sb3_ppo_on_the_supersuit_vector_env() -> None:
    PPO = _need("stable_baselines3").PPO
    ss = _need("supersuit")

    p = parallel_env(scenario="system-demo", observation="flat", illegal_action="penalty",
                     max_cycles=50)
    vec = ss.concat_vec_envs_v1(
        ss.pettingzoo_env_to_vec_env_v1(p), 1, num_cpus=0, base_class="stable_baselines3"
    )
    # No seed: SB3 would seed the vector environment, and SuperSuit's ConcatVecEnv has
    # no seed() method.
    model = PPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1,
                policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64



# ---------------------------------------------------------------------- Huzzah!

HUZZAH = ["huzzah-firefight", "huzzah-encounter"]


@pytest.mark.parametrize("name", HUZZAH)
def test_huzzah_passes_the_pettingzoo_tests_with_default_options(name: str) -> None:
    api_test(env(scenario=name), num_cycles=150)
    api_test(env(scenario=name, observation="flat"), num_cycles=60)
    parallel_api_test(parallel_env(scenario=name), num_cycles=150)
    seed_test(lambda: env(scenario=name), num_cycles=60)
    seed_test(lambda: env(scenario=name, observation="flat"), num_cycles=30)
    parallel_seed_test(lambda: parallel_env(scenario=name), num_cycles=60)
    max_cycles_test(_module(name))


def test_fire_and_movement_passes_them_with_default_options_too() -> None:
    # The same tests on system-demo with default options (the F&M tests above give
    # parallel_seed_test and max_cycles_test illegal_action="penalty"): they pass since
    # the action spaces sample legal actions.
    parallel_seed_test(lambda: parallel_env(scenario="system-demo"), num_cycles=100)
    max_cycles_test(_module("system-demo"))


def test_bare_samples_are_legal_and_masked_samples_are_discretes() -> None:
    p = parallel_env(scenario="huzzah-firefight")
    space = p.action_space("a")
    assert isinstance(space, spaces.Discrete) and space.n == p.wait_action + 1
    space.seed(1)
    assert 0 <= int(space.sample()) < space.n  # before reset: the whole space
    _, infos = p.reset(seed=1)
    decider = infos["a"]["to_move"]
    other = "b" if decider == "a" else "a"
    assert p.match is not None
    legal = set(p.match.legal_actions())
    for _ in range(20):
        assert int(p.action_space(decider).sample()) in legal
        assert int(p.action_space(other).sample()) == p.wait_action
    # With a mask, Discrete's own sampling; copies and pickles are plain Discretes.
    only = np.zeros(space.n, dtype=np.int8)
    only[3] = 1
    assert int(space.sample(only)) == 3
    import copy
    import pickle

    for c in (copy.deepcopy(space), pickle.loads(pickle.dumps(space))):
        assert type(c) is spaces.Discrete and c == space
    a = env(scenario="huzzah-firefight")
    a.reset(seed=2)
    m = a.unwrapped.match
    for agent in ("a", "b"):
        expected = set(m.legal_actions()) if agent == m.to_move else {a.unwrapped.wait_action}
        assert int(a.action_space(agent).sample()) in expected


@pytest.mark.parametrize("name", HUZZAH)
def test_huzzah_observations_are_the_sides_views(name: str) -> None:
    d = FmEnv(scenario=name, turns="decision")
    f = FmEnv(scenario=name, observation="flat", turns="decision")
    assert d.system == "huzzah" and d.scenario == name
    m0 = fm.Match(name)
    spec = m0.observation_spec
    assert d.observation_shape == tuple(spec["shape"])
    assert d.feature_names == spec["features"] and d.observation_channels == spec["channels"]
    assert d.action_space_size == m0.action_space_size
    c, h, w = d.observation_shape
    assert d.observation_size == c * h * w + len(d.feature_names)
    d.reset(seed=4)
    f.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        agent = d.agent_selection
        assert d.match is not None and f.match is not None
        for side in ("a", "b"):
            od, of = d.observe(side), f.observe(side)
            assert isinstance(od, dict) and isinstance(of, np.ndarray)
            assert od["observation"].shape == (c, h, w)
            assert d.observation_space(side).contains(od)
            assert f.observation_space(side).contains(of)
            flat = np.frombuffer(d.match.observation(side), dtype="<f4")
            np.testing.assert_array_equal(of, flat)
            np.testing.assert_array_equal(
                of, np.concatenate([od["observation"].ravel(), od["features"]])
            )
        mine = d.observe(agent)
        assert isinstance(mine, dict)
        features = dict(zip(d.feature_names, mine["features"]))
        assert features["pending_is_own"] == 1.0
        assert features[f"pending:{d.match.pending_kind}"] == 1.0
        info = d.infos[agent]
        assert info["pending"] == d.match.pending_kind and info["to_move"] == agent
        assert info["turn"] == d.match.turn and info["phase"] == d.match.phase
        state = d.state()
        assert state.shape == (2 * d.observation_size,) and d.state_space.contains(state)
        np.testing.assert_array_equal(state[: d.observation_size], f.observe("a"))
        action = int(rng.choice(np.flatnonzero(d.action_mask(agent))))
        d.step(action)
        f.step(action)
        if d.match.is_over:
            break


def test_huzzah_random_agents_play_a_whole_battle() -> None:
    e = FmEnv(scenario="huzzah-firefight", turns="decision")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    final: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        assert isinstance(obs, dict)
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert e.match is not None and e.match.is_over
    assert set(final) == {"a", "b"} and sum(final.values()) == 0
    assert steps == len(e.match.log)


@pytest.mark.parametrize("name", HUZZAH)
def test_huzzah_gymnasium_and_sb3_checkers(name: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*environment not having a spec")
        gymnasium_check_env(FmGymEnv(scenario=name))
        gymnasium_check_env(FmGymEnv(scenario=name, observation="dict", side="b"))
    env_checker = _need("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env_checker.check_env(gym_env(scenario=name))


def test_huzzah_renders_its_table() -> None:
    def is_table(res: Any) -> bool:
        return bool(isinstance(res, np.ndarray) and res.shape[1] > 500 and res.std() > 20)

    def is_svg(res: Any) -> bool:
        return isinstance(res, str) and res.startswith("<svg")

    def is_text(res: Any) -> bool:
        return isinstance(res, str) and res.startswith("<fm.Match huzzah-firefight")

    render_test(
        lambda render_mode=None: env(scenario="huzzah-firefight", render_mode=render_mode),
        custom_tests={"rgb_array": is_table, "svg": is_svg, "ansi": is_text},
    )
    e = FmEnv(scenario="huzzah-firefight", render_mode="rgb_array", render_side="b")
    e.reset(seed=2)
    rgb = e.render()
    assert e.match is not None and isinstance(rgb, np.ndarray)
    h, w, data = fm.svg_to_rgb(e.match.svg("b"))
    assert rgb.shape == (h, w, 3) and rgb.tobytes() == bytes(data)


def test_the_module_docstring_example_runs() -> None:
    import doctest

    import fm.env as module

    assert doctest.testmod(module, raise_on_error=True).attempted >= 4


# ------------------------------------------------------- Gymnasium ids, np_random


def test_every_builtin_scenario_has_a_gymnasium_id() -> None:
    import gymnasium

    from fm import gym_ids

    ids = gym_ids.env_ids()
    assert set(ids) == {
        "fm/SystemDemo-v0",
        "fm/MeuseArgonne-v0",
        "fm/VimyRidge-v0",
        "fm/Suez1916-v0",
        "fm/HuzzahEncounter-v0",
        "fm/HuzzahFirefight-v0",
    }
    for id_, scenario in ids.items():
        e = gymnasium.make(id_)
        assert e.spec is not None and e.spec.id == id_
        inner: Any = e.unwrapped
        sc = inner.scenario  # F&M: an fm.Scenario; Huzzah!: its name
        assert getattr(sc, "id", sc) == scenario
        obs, info = e.reset(seed=1)
        assert e.observation_space.contains(obs)
        assert info["action_mask"].any()
    # Keyword arguments reach the environment.
    e = gymnasium.make("fm/SystemDemo-v0", side="b", observation="dict")
    inner = e.unwrapped
    assert inner.side == "b" and isinstance(e.observation_space, spaces.Dict)
    # Gymnasium's checker, with default options, on every id (with its spec, the
    # checker also checks the render modes); it warns of nothing.
    for id_ in ids:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            gymnasium_check_env(gymnasium.make(id_, disable_env_checker=True).unwrapped)


def test_a_fresh_interpreter_makes_the_ids_without_importing_fm() -> None:
    import subprocess

    # Gymnasium 1.x: the id with its module, "fm:fm/...", imports fm, which registers
    # every id; 0.28-0.29 also find them through the gymnasium.envs entry point.
    code = (
        "import gymnasium, sys\n"
        "assert 'fm' not in sys.modules\n"
        "e = gymnasium.make('fm:fm/HuzzahFirefight-v0')\n"
        "e.reset(seed=0)\n"
        "gymnasium.make('fm/MeuseArgonne-v0').reset(seed=0)\n"
        "print(e.spec.id)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "fm/HuzzahFirefight-v0"


def test_the_gymnasium_entry_point_is_declared() -> None:
    from importlib.metadata import entry_points

    found = [e for e in entry_points(group="gymnasium.envs") if e.value == "fm.gym_ids:register_envs"]
    if not found:
        pytest.skip("fm is not installed from its wheel here (no package metadata)")
    assert found[0].name == "__root__"


def test_the_multi_agent_environments_have_np_random() -> None:
    for make in (lambda: env(scenario="system-demo"), lambda: parallel_env(scenario="system-demo")):
        a, b = make(), make()
        a.reset(seed=7)
        b.reset(seed=7)
        assert isinstance(a.unwrapped.np_random, np.random.Generator)
        assert a.unwrapped.np_random.integers(1 << 30) == b.unwrapped.np_random.integers(1 << 30)
    # SuperSuit's wrappers draw from it (frame_skip_v0 failed without it); repeating an
    # action in a turn-based game makes it illegal, so the penalty option.
    ss = _need("supersuit")
    f = ss.frame_skip_v0(env(scenario="system-demo", illegal_action="penalty"), 2)
    f.reset(seed=1)
    for agent in f.agent_iter(30):
        obs, _, term, trunc, _ = f.last()
        f.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))


# --------------------------------------- PettingZoo's tests, default options, everywhere


_BUILTIN = ["system-demo", "meuse-argonne", "vimy-ridge", "suez-1916", "huzzah-encounter",
            "huzzah-firefight"]


@pytest.mark.parametrize("scenario", _BUILTIN)
def test_pettingzoo_tests_pass_with_default_options_on_every_builtin_scenario(
    scenario: str,
) -> None:
    # Issue 32: each of PettingZoo's tests as it comes (its default cycles), on the
    # environments as they come (default options: illegal actions raise, dict
    # observations, flat actions, turns in cycles).
    with warnings.catch_warnings():
        # PettingZoo's advice, not failures: Box observations rather than dicts, and
        # agents named like "player_0" rather than the sides' "a" and "b".
        warnings.simplefilter("ignore")
        api_test(env(scenario=scenario))
        parallel_api_test(parallel_env(scenario=scenario))
        seed_test(lambda: env(scenario=scenario))
        parallel_seed_test(lambda: parallel_env(scenario=scenario))
        render_test(lambda render_mode=None: env(scenario=scenario, render_mode=render_mode))
        max_cycles_test(_module(scenario))


def _ends_on_a(seed: int) -> bool:
    """Whether masked random play of system-demo (cycles, `seed`) ends on a's step."""
    e = FmEnv(scenario="system-demo", seed=seed)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        agent = e.agent_selection
        mask = e.action_mask(agent)
        e.step(int(rng.choice(np.flatnonzero(mask))))
        if e._game().is_over:
            return agent == "a"


def test_a_game_ending_mid_cycle_ends_with_the_cycle() -> None:
    """PettingZoo's aec_to_parallel needs agents to leave at a cycle's end: a game that
    ends on a's step has b wait out the cycle, and the rewards and terminations come
    with b's step (the flaky failure of parallel_api_test over aec_to_parallel)."""
    from pettingzoo.utils.conversions import aec_to_parallel

    seed = next(s for s in range(200) if _ends_on_a(s))
    e = FmEnv(scenario="system-demo", seed=seed)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not e._game().is_over:
        agent = e.agent_selection
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))
    # a's step ended the game: nobody has left, b may only wait.
    assert e.agent_selection == "b" and e.agents == ["a", "b"]
    assert not any(e.terminations.values()) and set(e.rewards.values()) == {0.0}
    mask = e.action_mask("b")
    assert mask.sum() == 1 and mask[e.wait_action] == 1
    obs = e.observe("b")
    assert isinstance(obs, dict) and obs["action_mask"][e.wait_action] == 1
    e.step(e.wait_action)
    returns = e._game().returns()
    assert all(e.terminations.values())
    assert e.rewards == {a: float(returns[a]) for a in ("a", "b")} and returns["a"] != 0
    for a in ("a", "b"):
        assert e.action_mask(a).sum() == 0
        e.step(None)
    assert e.agents == []
    # The same game through aec_to_parallel: it ends at the cycle's end, no error.
    par = aec_to_parallel(env(scenario="system-demo", seed=seed))
    par.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while par.agents:
        actions = {}
        for a in par.agents:
            mask = par.aec_env.action_mask(a)
            actions[a] = int(rng.choice(np.flatnonzero(mask)))
        _, rewards, terminations, _, _ = par.step(actions)
        steps += 1
    assert all(terminations.values()) and steps > 10
