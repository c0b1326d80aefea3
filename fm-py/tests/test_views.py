"""Views hide the other side's face-down support fire markers (rule 7.2)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import fm
from conftest import find_face_down

SVG = "{http://www.w3.org/2000/svg}"


def test_views_hide_face_down_markers() -> None:
    m = find_face_down("b")
    full = m.state["combat"]["markers"]
    hidden = [mk for mk in full if mk["side"] == "b" and not mk["revealed"]]
    assert hidden and all(mk["value"] is not None for mk in full)
    as_a = m.view("a")["combat"]["markers"]
    as_b = m.view("b")["combat"]["markers"]
    for mine, theirs, orig in zip(as_b, as_a, full):
        if orig["side"] == "b" and not orig["revealed"]:
            assert theirs["value"] is None, "a cannot see b's face-down marker"
            assert mine["value"] == orig["value"], "b sees its own marker"
    # b's unused allotment: a sees a count, not the values.
    sup = m.view("a")["support"]["b"]
    assert sup["available"] is None
    assert sup["available_count"] == len(m.state["support"]["b"]["available"])
    # The board picture of a's view shows "?" for each hidden marker.
    svg = m.svg("a")
    root = ET.fromstring(svg)
    q = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker" and g.get("data-value") == "?"]
    assert len(q) == len(hidden)
    # The referee's picture shows every value (only the legend's sample chip is "?").
    full_root = ET.fromstring(m.svg())
    assert not [g for g in full_root.iter(f"{SVG}g") if g.get("class") == "marker" and g.get("data-value") == "?"]


def test_spectators_see_neither_sides_secrets() -> None:
    """A spectator's view, hash, picture, log and words (what serve gives its
    spectators): every face-down marker and unused allotment of either side hidden."""
    m = find_face_down("b")
    full = m.state["combat"]["markers"]
    spec = m.view("spectator")
    assert spec["side"] == "spectator" and m.view("Spectator") == spec
    assert any(not mk["revealed"] for mk in full)
    for seen, orig in zip(spec["combat"]["markers"], full, strict=True):
        assert seen["value"] == (orig["value"] if orig["revealed"] else None)
    for side in ("a", "b"):
        assert spec["support"][side]["available"] is None
        assert m.view(side)["support"][side]["available"] is not None
    h = m.view_hash("spectator")
    assert h not in (m.hash, m.view_hash("a"), m.view_hash("b"))
    # The picture shows "?" for every face-down marker, either side's.
    root = ET.fromstring(m.svg("spectator"))
    q = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker" and g.get("data-value") == "?"]
    assert len(q) == len([mk for mk in full if not mk["revealed"]]) > 0
    # The log: both sides' secrets redacted, the spectator's hash after each command.
    log = m.spectator_log()
    assert len(log) == len(m.log) and log[-1]["view_hash"] == f"{h:016x}"
    assert m.spectator_log(since=len(m.log) - 1) == log[-1:]
    assert m.spectator_log(since=len(m.log)) == []
    allotted = [e for entry in log for e in entry["events"] if e["type"] == "support_allotted"]
    assert all(e.get("values") is None for e in allotted)
    # Words: one list per command, no more than either side may know.
    opening, words = m.log_words("spectator")
    assert opening and len(words) == len(m.log)
    assert m.log_words("spectator", since=3)[1] == words[3:]


def test_event_streams_are_redacted_per_side() -> None:
    m = fm.Match("system-demo", seed=1)
    while m.pending.kind == "setup":
        m.apply(m.legal_commands()[0])
    allot = [e for e in m.events() if isinstance(e, fm.events.SupportAllotted)]
    assert allot
    for e in allot:
        assert e.values is not None
        other = "a" if e.side == "b" else "b"
        r = e.redacted_for(other)
        assert isinstance(r, fm.events.SupportAllotted)
        assert r.values is None and r.count == e.count
        assert e.redacted_for(e.side) == e


def _suez_fire_support(seeds: int = 30) -> fm.Match:
    """A suez-1916 match waiting in a fire support step with a marker placed."""
    import random

    for seed in range(seeds):
        m = fm.Match("suez-1916", seed=seed)
        rng = random.Random(seed)
        while not m.is_over and len(m.log) < 3000:
            if m.pending.kind == "fire_support" and m.state.get("ex", {}).get("fire_plan"):
                return m
            cmds = m.legal_commands()
            if not cmds:
                break
            m.apply(rng.choice(cmds))
    raise AssertionError("no suez-1916 fire support step found")


def test_suez_fire_support_is_hidden_from_both_sides() -> None:
    import struct

    m = _suez_fire_support()
    p = m.pending
    assert p.kind == "fire_support" and p.side in ("a", "b")
    placed = [e for e in m.events() if isinstance(e, fm.events.FireSupportPlaced)]
    added = [e for e in m.events() if isinstance(e, fm.events.FireSupportAdded)]
    assert placed
    for e in placed:
        assert e.value is not None
        for side in ("a", "b"):
            r = e.redacted_for(side)
            assert isinstance(r, fm.events.FireSupportPlaced)
            assert r.value is None and r.hex == e.hex and r.side == e.side
    for a in added:
        assert a.values is not None
        assert all(a.redacted_for(side).values is None for side in ("a", "b"))
    state_ex = m.state["ex"]
    for side in ("a", "b"):
        v = m.view(side)
        assert "pool" not in v["ex"] and "reserve" not in v["ex"]
        for mk in v["ex"]["fire_plan"]:
            assert mk.get("air", False) or mk["value"] is None
        for who in ("a", "b"):
            pool = state_ex.get("pool", {}).get(who, [])
            assert v["pools"][who]["pool"] == len(pool)
            assert set(pool) <= set(v["pools"][who]["unrevealed"])
        _, feats = m.observation_bytes(side)
        f = dict(zip(fm.FEATURE_NAMES, struct.unpack(f"<{len(fm.FEATURE_NAMES)}f", feats)))
        assert f["pending:fire_support"] == 1.0 and f["pending:other"] == 0.0
    # Once both sides are done the markers are revealed to everyone.
    while m.pending.kind == "fire_support":
        m.apply(fm.Done())
    revealed = [e for e in m.events() if isinstance(e, fm.events.FireSupportRevealed)]
    assert revealed and all(mk["value"] is not None for mk in revealed[-1].markers)
    assert all(e.redacted_for("a") == e for e in revealed)


def test_view_hash_and_export_are_a_sides_own() -> None:
    """Vimy Ridge 16.0: the opponent's secret allotment reaches no per-side query;
    `hash` is the referee's, `view_hash` and `export` a player's."""
    m = fm.Match("vimy-ridge", seed=5)
    for side in ("a", "b"):
        other = "b" if side == "a" else "a"
        assert m.view_hash(side) != m.hash
        rec = m.export(side)
        assert "seed" not in rec and rec["side"] == side
        assert rec["view"] == m.view(side) and rec["view_hash"] == f"{m.view_hash(side):016x}"
        for e in rec["opening"]:
            if e["type"] == "support_allotted" and e["side"] == other:
                assert e.get("values") is None
        v = m.view(side)["support"][other]
        assert v["available"] is None
        assert v["unrevealed_count"] <= len(v["unrevealed"])


def test_side_arguments_refuse_bools_and_other_types() -> None:
    import numpy as np
    import pytest

    m = fm.Match("system-demo", seed=1)
    assert m.view("b") == m.view(1) == m.view("Red") == m.view("B") == m.view(np.int64(1))
    assert m.view("a") == m.view(0) == m.view("blue")
    for bad in (True, False):
        for f in (m.view, m.observation_bytes, m.svg, lambda s: m.odds("0805", side=s)):
            with pytest.raises(TypeError, match=r'a side is "a" or "b".*not a bool'):
                f(bad)
        with pytest.raises(TypeError, match="not a bool"):
            m.opening_events[0].redacted_for(bad)
    for other in (1.0, None, b"a", ["a"]):
        with pytest.raises(TypeError, match='a side is "a" or "b"'):
            m.view(other)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="side index 2"):
        m.view(2)
    with pytest.raises(ValueError, match='unknown side "c"'):
        m.view("c")
    e = m.opening_events[0]
    assert e.redacted_for(0) == e.redacted_for("a")
