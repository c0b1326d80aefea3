"""fm.openspiel: the registered OpenSpiel game (skipped without open_spiel)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fm
import fm.openspiel as fos

pyspiel: Any = pytest.importorskip("pyspiel")
mcts: Any = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts: Any = pytest.importorskip("open_spiel.python.algorithms.ismcts")

# Every built-in scenario of every system but the toy one of the Rust tests (Huzzah!'s
# two among them: random_sim_test with serialization and its observation tensors).
SCENARIOS = [s for s in fm.scenarios() if s != "race-to-10"]


def test_registered_with_its_game_type() -> None:
    game = pyspiel.load_game("python_fm")
    t = game.get_type()
    assert t.short_name == "python_fm"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.provides_information_state_string
    assert game.num_players() == 2
    assert game.num_distinct_actions() == fm.Match("system-demo").action_space_size
    bound = fm.max_game_length("system-demo")
    assert bound is not None
    assert game.max_game_length() == bound.total
    assert game.get_parameters()["scenario"] == "system-demo"
    huzzah = fos.load_game("huzzah-encounter")
    assert huzzah.get_type().provides_observation_tensor
    assert game.get_type().provides_observation_tensor


def test_random_sim_test_on_system_demo() -> None:
    game = fos.load_game("system-demo", seed=3)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# The long Fire & Movement battles (hundreds to thousands of moves at some 30 ms a move
# under random_sim_test's checks) are cut short at 250 moves, a draw, to keep the suite
# within a minute; the others play to the end.
CUT_SHORT = {"meuse-argonne": 250, "vimy-ridge": 250, "suez-1916": 250}


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s != "system-demo"])
def test_random_sim_test_on_every_scenario(scenario: str) -> None:
    game = fos.load_game(scenario, seed=1, max_game_length=CUT_SHORT.get(scenario, 0))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_builtin_scenario_defaults_to_its_rules_bound() -> None:
    for s in SCENARIOS:
        bound = fm.max_game_length(s)
        assert bound is not None, s
        assert fos.default_max_game_length(s) == bound.total == fos.load_game(s).max_game_length()
    # A system without a bound (the toy of the Rust tests, when built in) is cut short.
    if "race-to-10" in fm.scenarios():
        assert fm.max_game_length("race-to-10") is None
        assert fos.default_max_game_length("race-to-10") == fos.UNBOUNDED_MAX_GAME_LENGTH


def test_a_game_reaching_its_length_is_a_draw() -> None:
    game = fos.load_game("system-demo", max_game_length=25)
    assert game.max_game_length() == 25
    state = game.new_initial_state()
    rng = __import__("random").Random(1)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    assert n == 25
    assert not state.match.is_over
    assert state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def _to_chance_node(seed: int = 2) -> Any:
    game = fos.load_game("system-demo")
    state = game.new_initial_state()
    rng = __import__("random").Random(seed)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_chance_outcomes_sum_to_one_and_are_the_engines() -> None:
    _, state = _to_chance_node()
    seen = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes == state.match.chance_outcomes()
        assert len(outcomes) > 1
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert [k for k, _ in outcomes] == state.legal_actions()
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        state.apply_action(outcomes[-1][0])
        seen += 1
    assert seen >= 1
    assert state.match.log[-1] is not None


def test_chance_outcomes_are_named_in_words() -> None:
    _, state = _to_chance_node()
    seen = set()
    while state.is_chance_node():
        node = state.match.chance_node()
        assert node is not None
        roll = node["roll"]
        texts = [state.action_to_string(pyspiel.PlayerId.CHANCE, k) for k, _ in state.chance_outcomes()]
        assert len(set(texts)) == len(texts), texts
        if roll["dice"] == "draw":
            assert texts[0].startswith(f"{roll['roll']} draw {roll['die']}"), texts
            assert texts[1].endswith(f": #1 ({roll['from'][1]})"), texts
        else:
            assert texts[0].startswith(f"{roll['roll']} die {roll['die']} of {roll['dice']}"), texts
            assert texts[0].endswith(": 1") and texts[-1].endswith(f": {len(texts)}"), texts
        seen.add(roll["dice"])
        state.apply_action(state.chance_outcomes()[-1][0])
    assert seen


def test_serialization_round_trips_a_pending_draw() -> None:
    game, state = _to_chance_node()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert state2.is_chance_node()
    assert state2.chance_outcomes() == state.chance_outcomes()
    assert state2.match.save() == state.match.save()
    assert state2.history() == state.history()
    # Both go on identically.
    for s in (state, state2):
        while s.is_chance_node():
            s.apply_action(0)
    assert state2.match.hash == state.match.hash


def test_information_state_and_observation_strings() -> None:
    _, state = _to_chance_node()
    while state.is_chance_node():
        state.apply_action(0)
    for p, side in ((0, "a"), (1, "b")):
        assert state.information_state_string(p) == state.match.information_state_string(side)
        assert state.observation_string(p)
    assert state.information_state_string(0) != state.information_state_string(1)
    t = state.observation_tensor(0)
    sc = state.match.scenario
    c, h, w = sc.observation_shape
    assert len(t) == c * h * w + len(sc.feature_names)


def test_information_state_tensor_is_the_observation_then_the_record() -> None:
    game, state = _to_chance_node()
    assert game.get_type().provides_information_state_tensor
    sc = state.match.scenario
    n_obs = sc.observation_size
    n = n_obs + fm.information_state_tensor_size(game.max_game_length())
    assert game.information_state_tensor_shape() == [n]
    while state.is_chance_node():
        state.apply_action(0)
    for p, side in ((0, "a"), (1, "b")):
        t = np.asarray(state.information_state_tensor(p), dtype=np.float32)
        assert t.shape == (n,)
        obs = np.frombuffer(state.match.observation(side), dtype="<f4")
        assert np.array_equal(t[:n_obs], obs)
        record = np.frombuffer(
            state.match.information_state_tensor(side, game.max_game_length()), dtype="<f4"
        )
        assert np.array_equal(t[n_obs:], record)
        # One slot a command, for the side the tensor is for.
        assert int(record[9::4].sum()) == len(state.match.log)
        assert record[0] == (1.0 if side == "a" else 0.0)
    a, b = state.information_state_tensor(0), state.information_state_tensor(1)
    assert a != b
    # A state the player cannot tell apart gives the same tensor.
    player = state.current_player()
    r = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_tensor(player) == state.information_state_tensor(player)


HUZZAH = ["huzzah-firefight", "huzzah-encounter"]


@pytest.mark.parametrize("scenario", HUZZAH)
def test_huzzah_tensors_are_its_observation_then_the_record(scenario: str) -> None:
    game = fos.load_game(scenario, seed=2)
    spec = fm.Match(scenario).observation_spec
    c, h, w = spec["shape"]
    n_obs = c * h * w + len(spec["features"])
    n = n_obs + fm.information_state_tensor_size(game.max_game_length())
    assert game.observation_tensor_shape() == [n_obs]
    assert game.information_state_tensor_shape() == [n]
    state = game.new_initial_state()
    rng = __import__("random").Random(2)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_chance_node() or state.is_terminal():
            continue
        for p, side in ((0, "a"), (1, "b")):
            obs = np.frombuffer(state.match.observation(side), dtype="<f4")
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), obs)
            t = np.asarray(state.information_state_tensor(p), dtype=np.float32)
            assert t.shape == (n,) and np.array_equal(t[:n_obs], obs)
            record = np.frombuffer(
                state.match.information_state_tensor(side, game.max_game_length()), dtype="<f4"
            )
            assert np.array_equal(t[n_obs:], record)
    # The observer's views: the table raster and the features.
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert observer.dict["board"].shape == (c, h, w)
    assert observer.dict["features"].shape == (len(spec["features"]),)
    assert observer.tensor.min() >= 0.0 and observer.tensor.max() <= 1.0


def test_resample_keeps_the_players_information_state() -> None:
    _, state = _to_chance_node()
    while state.is_chance_node():
        state.apply_action(0)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        r = state.resample_from_infostate(player, sampler)
        assert r.information_state_string(player) == state.information_state_string(player)
        assert r.legal_actions() == state.legal_actions()
        assert r.current_player() == player
        # Its save verifies on load (the determinized form).
        back = fm.Match.load(r.match.save())
        assert back.hash == r.match.hash
        text = pyspiel.serialize_game_and_state(r.get_game(), r)
        _, r2 = pyspiel.deserialize_game_and_state(text)
        assert r2.information_state_string(player) == r.information_state_string(player)


def _play_bot(bot: Any, state: Any, decisions: int) -> int:
    """Lets `bot` choose `decisions` player moves (chance by the first outcome)."""
    chosen = 0
    while not state.is_terminal() and chosen < decisions:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        state.apply_action(action)
        chosen += 1
    return chosen


def test_mcts_bot_plays_legal_actions() -> None:
    game = fos.load_game("system-demo", max_game_length=200)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=__import__("numpy").random.RandomState(1))
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=8,
        evaluator=evaluator,
        random_state=__import__("numpy").random.RandomState(2),
        solve=False,
    )
    assert _play_bot(bot, game.new_initial_state(), 6) == 6


def test_ismcts_bot_plays_legal_actions() -> None:
    game = fos.load_game("system-demo", max_game_length=200)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=__import__("numpy").random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=8,
        random_state=__import__("numpy").random.RandomState(3),
    )
    assert _play_bot(bot, game.new_initial_state(), 6) == 6


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(fm.ScenarioError):
        fos.load_game("no-such-scenario")
    with pytest.raises(ValueError):
        fos.load_game("system-demo", max_game_length=-1)


def test_without_open_spiel_a_clear_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fos, "_HAVE_PYSPIEL", False)
    with pytest.raises(ImportError, match=r"fm-py\[openspiel\]"):
        fos.load_game()
    with pytest.raises(ImportError, match="open_spiel"):
        fos.FmGame()


def test_resample_at_a_chance_node_waits_at_the_same_draw() -> None:
    # Issue 32: resample_from_infostate at a chance node raised ("a chance outcome is
    # pending"); the drawn state now waits for the same draw, with the same record.
    _, state = _to_chance_node()
    assert state.is_chance_node()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in (0, 1):
        r = state.resample_from_infostate(player, sampler)
        assert r.is_chance_node()
        assert r.chance_outcomes() == state.chance_outcomes()
        assert r.information_state_string(player) == state.information_state_string(player)
        assert r.information_state_tensor(player) == state.information_state_tensor(player)
        back = fm.Match.load(r.match.save())
        assert back.save() == r.match.save()


def _huzzah_two_dice() -> Any:
    """A huzzah-encounter state waiting for the first die of a 2d6 roll."""
    game = fos.load_game("huzzah-encounter")
    state = game.new_initial_state()
    rng = __import__("random").Random(5)
    while True:
        node = state.match.chance_node()
        if node is not None and node["roll"]["dice"] == "2d6" and node["roll"]["die"] == 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))


def test_distinct_pending_draws_give_distinct_strings() -> None:
    # Issue 32: while a command waited on several draws, different outcomes gave the
    # same str(state) and information state strings (the state is the one before the
    # command until its last draw).
    state = _huzzah_two_dice()
    low, high = state.clone(), state.clone()
    low.apply_action(0)
    high.apply_action(5)
    assert low.is_chance_node() and high.is_chance_node()
    assert low.match.hash == high.match.hash  # the referee's state waits unchanged
    assert low.match.chance_drawn == [0] and high.match.chance_drawn == [5]
    assert str(low) != str(high)
    for player in (0, 1):
        # Dice are thrown on the table: both sides see them.
        assert low.information_state_string(player) != high.information_state_string(player)
        assert low.information_state_tensor(player) != high.information_state_tensor(player)
    # The same outcome: the same strings.
    again = state.clone()
    again.apply_action(0)
    assert str(again) == str(low)
