"""The factored action space (fm_core::factored) from Python: a command chosen in a few
small steps, each with a mask of its fixed size, the flat action indices kept."""

from __future__ import annotations

import random

import pytest

import fm
from conftest import finish_setup


def walk(m: fm.Match, prefix: list[int], reached: list[int]) -> None:
    """Every sequence from `prefix`: each option leads on, each complete one to a
    legal action."""
    sizes = m.factored_sizes
    options = m.factored_options(prefix)
    assert options == sorted(set(options))
    assert all(0 <= v < sizes[len(prefix)] for v in options)
    if prefix:
        assert options, f"{prefix} leads nowhere"
    for v in options:
        seq = prefix + [v]
        if m.factored_complete(seq):
            flat = m.factored_to_action(seq)
            assert m.action_to_factored(flat) == seq
            reached.append(flat)
        else:
            walk(m, seq, reached)


@pytest.mark.parametrize("scenario", ["system-demo", "huzzah-firefight"])
def test_sequences_reach_exactly_the_legal_actions(scenario: str) -> None:
    m = fm.Match(scenario, seed=3)
    sizes = m.factored_sizes
    assert isinstance(sizes, tuple) and all(isinstance(n, int) for n in sizes)
    rng = random.Random(3)
    for _ in range(60):
        if m.is_over:
            break
        reached: list[int] = []
        walk(m, [], reached)
        assert sorted(reached) == m.legal_actions()
        assert len(reached) == len(set(reached))
        assert m.factored_sizes == sizes
        m.apply_action(rng.choice(m.legal_actions()))


def test_fire_and_movement_sizes(match: fm.Match) -> None:
    sc = match.scenario
    u, h = len(sc.unit_ids), len(sc.hexes)
    assert match.factored_sizes == (11 + 8 * u, max(h, u), 64)


def test_a_game_played_by_masks_into_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    m = fm.Match("system-demo", seed=5)
    masks = [np.ones(n, dtype=np.uint8) for n in m.factored_sizes]  # stale ones
    rng = np.random.default_rng(5)
    commands = 0
    while not m.is_over:
        seq: list[int] = []
        while True:
            mask = masks[len(seq)]
            got = m.factored_mask(seq, out=mask)
            assert got is mask
            options = np.flatnonzero(mask).tolist()
            assert options == m.factored_options(seq)
            assert mask.tobytes() == m.factored_mask(seq)
            seq.append(int(rng.choice(options)))
            if m.factored_complete(seq):
                break
        assert m.factored_to_action(seq) in m.legal_actions()
        events = m.apply_factored(np.array(seq))  # any iterable of ints
        assert events and all(isinstance(e, fm.Event) for e in events)
        commands += 1
    assert commands > 10
    assert m.factored_options() == []
    assert m.factored_mask() == bytes(m.factored_sizes[0])


def test_apply_factored_equals_apply_action(moving: fm.Match) -> None:
    twin = moving.clone()
    action = moving.legal_actions()[-1]
    seq = moving.action_to_factored(action)
    assert len(seq) == 2  # a move: its unit's head, then its hex
    assert moving.apply_factored(seq) == twin.apply_action(action)
    assert moving.hash == twin.hash


def test_bad_sequences_raise_rule_errors(match: fm.Match) -> None:
    sizes = match.factored_sizes
    before = match.hash
    with pytest.raises(fm.RuleError, match="step 0") as e:
        match.factored_options([sizes[0]])
    assert e.value.rule == "input"
    with pytest.raises(fm.RuleError, match="incomplete"):
        match.factored_to_action([11])
    with pytest.raises(fm.RuleError, match="complete"):
        match.factored_options([0])  # done has no further step
    with pytest.raises(fm.RuleError, match="no legal command"):
        match.factored_options([6])  # no attack at set-up
    with pytest.raises(fm.RuleError, match="step 1"):
        match.factored_options([11, -1])
    with pytest.raises(fm.RuleError, match="at most 3"):
        match.factored_complete([0, 0, 0, 0])
    with pytest.raises(fm.RuleError, match="at most 3"):
        match.factored_complete(iter(range(10**9)))  # read no further than needed
    with pytest.raises(fm.RuleError, match="action index"):
        match.action_to_factored(match.action_space_size)
    with pytest.raises(fm.RuleError, match="action index"):
        match.action_to_factored(-1)
    with pytest.raises(fm.RuleError) as e:
        match.apply_factored([11])
    assert e.value.rule == "input"
    with pytest.raises(fm.RuleError):
        match.apply_factored([0])  # well formed: refused by the rules at set-up
    assert match.hash == before
    with pytest.raises(TypeError, match="list of ints"):
        match.factored_options("11")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int"):
        match.factored_options([True])
    with pytest.raises(TypeError, match="int"):
        match.factored_options([1.5])  # type: ignore[list-item]


def test_factored_mask_refuses_a_wrong_buffer(match: fm.Match) -> None:
    np = pytest.importorskip("numpy")
    n = match.factored_sizes[0]
    with pytest.raises(ValueError, match=r"factored_sizes\[0\]"):
        match.factored_mask(out=np.zeros(n - 1, dtype=np.uint8))
    with pytest.raises(ValueError, match="writable"):
        match.factored_mask(out=bytes(n))
    with pytest.raises(TypeError, match="writable buffer"):
        match.factored_mask(out=np.zeros(n, dtype=np.float32))
    head = match.factored_options()[0]
    out = np.zeros(match.factored_sizes[1], dtype=np.int8)
    match.factored_mask([head], out)
    assert np.flatnonzero(out).tolist() == match.factored_options([head])


def test_set_up_masks_are_small() -> None:
    m = fm.Match("vimy-ridge", seed=1)
    assert m.pending.kind == "setup"
    heads = m.factored_options()
    assert 0 < len(heads) < m.factored_sizes[0]
    hexes = m.factored_options([heads[0]])
    flat = [m.factored_to_action([heads[0], h]) for h in hexes]
    legal = set(m.legal_actions())
    assert all(i in legal for i in flat)
    finish_setup(m)
    assert m.pending.kind != "setup"
