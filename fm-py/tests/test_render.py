"""Board rendering: well-formed SVG with one counter per unit on the map."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import fm
from conftest import play_random

SVG = "{http://www.w3.org/2000/svg}"


def _on_map(u: dict[str, object]) -> bool:
    loc = u["loc"]
    return isinstance(loc, dict) and "map" in loc


def _units_on_map(m: fm.Match) -> int:
    return sum(1 for u in m.state["units"] if _on_map(u))


def _counters(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"]


def test_every_builtin_opening_renders() -> None:
    for name in fm.scenarios("fm"):
        m = fm.Match(name, seed=1)
        counters = _counters(m.svg())
        assert len(counters) == _units_on_map(m)
        on_map = {u["id"] for u in m.state["units"] if _on_map(u)}
        assert {g.get("data-unit") for g in counters} == on_map
        hexes = [p for p in ET.fromstring(m.svg()).iter(f"{SVG}polygon") if p.get("class") == "hex"]
        assert len(hexes) == len(m.scenario.hexes)
        assert m._repr_svg_() == m.svg()
        for side in ("a", "b"):
            assert len(_counters(m.svg(side))) == _units_on_map(m)
        while m.pending.kind == "setup":
            m.apply(m.legal_commands()[0])
        assert len(_counters(m.svg())) == _units_on_map(m) > 0


def test_boards_during_and_after_a_game() -> None:
    m = fm.Match("system-demo", seed=4)
    rng = random.Random(4)
    for _ in range(12):
        play_random(m, rng, limit=15)
        assert len(_counters(m.svg())) == _units_on_map(m)
    play_random(m, rng)
    assert "Game over" in m.svg()


def test_render_options() -> None:
    m = fm.Match("system-demo", seed=1)
    svg = m.svg(
        hex_size=20,
        hex_ids=False,
        panel=False,
        highlight=["0505"],
        markers=[("0606", "breach", "BR"), ("0707", "aircraft", "AIR")],
        title="A <title>",
    )
    root = ET.fromstring(svg)
    classes = [e.get("class") for e in root.iter()]
    assert "panel" not in classes and classes.count("highlight") == 1
    values = {e.get("data-value") for e in root.iter() if e.get("class") == "marker"}
    assert {"BR", "AIR"} <= values
    assert "A &lt;title&gt;" in svg


def test_render_options_are_checked() -> None:
    import math

    import pytest

    m = fm.Match("system-demo", seed=1)
    for bad in (math.nan, math.inf, -math.inf, -1.0, 0.0, 9.99, 200.5, 1e9):
        with pytest.raises(ValueError, match="hex_size must be a number of pixels from 10"):
            m.svg(hex_size=bad)
    for ok in (10, 10.0, 200, 57.5):
        assert 'width="NaN"' not in m.svg(hex_size=ok)
    with pytest.raises(TypeError, match="highlight must be a list of hex ids"):
        m.svg(highlight="0505")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"highlight\[0\] must be a hex id"):
        m.svg(highlight=[505])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"markers\[0\] must be a \(hex, kind, label\)"):
        m.svg(markers=[("0606", "breach")])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="markers must be a list"):
        m.svg(markers="0606")  # type: ignore[arg-type]
    with pytest.raises(fm.ProtocolError):
        m.svg(highlight=["01-01"])
    assert m.svg(highlight=("0505",), markers=(("0606", "breach", "BR"),)).count('class="highlight"') == 1
