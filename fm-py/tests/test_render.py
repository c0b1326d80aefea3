"""Board rendering: well-formed SVG with one counter per unit on the map."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import fm
from conftest import play_random

SVG = "{http://www.w3.org/2000/svg}"


def _on_map(u: dict[str, object]) -> bool:
    loc = u["loc"]
    return isinstance(loc, dict) and "map" in loc


def _units_on_map(m: fm.Match) -> int:
    return sum(1 for u in m.state["units"] if _on_map(u))


def _counters(svg: str) -> list[ET.Element]:
    """The counters on the map (the unit boxes below it draw counters of their own)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    [board] = [g for g in root.iter(f"{SVG}g") if g.get("class") == "map"]
    return [g for g in board.iter(f"{SVG}g") if g.get("class") == "unit"]


def _boxed(svg: str) -> list[ET.Element]:
    """The counters in the reinforcement and eliminated boxes."""
    root = ET.fromstring(svg)
    boxes = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("box ")]
    return [u for b in boxes for u in b.iter(f"{SVG}g") if u.get("class") == "unit"]


def test_every_builtin_opening_renders() -> None:
    for name in fm.scenarios("fm"):
        m = fm.Match(name, seed=1)
        counters = _counters(m.svg())
        assert len(counters) == _units_on_map(m)
        # Every unit not on the map and not waiting to set up is in its side's box.
        boxed = {u["id"] for u in m.state["units"] if u["loc"] in ("scheduled", "arriving", "eliminated")}
        assert {g.get("data-unit") for g in _boxed(m.svg())} == boxed
        on_map = {u["id"] for u in m.state["units"] if _on_map(u)}
        assert {g.get("data-unit") for g in counters} == on_map
        hexes = [p for p in ET.fromstring(m.svg()).iter(f"{SVG}use") if p.get("class") == "hex"]
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


def _classes(svg: str) -> list[str]:
    return [e.get("class") or "" for e in ET.fromstring(svg).iter()]


def test_region_crops_the_map_to_its_rectangle() -> None:
    m = fm.Match("system-demo", seed=1)
    bare = {"panel": False, "crt": False, "terrain_chart": False, "turn_track": False, "boxes": False}
    svg = m.svg(region={"from": "0303", "to": "0606"}, **bare)  # type: ignore[arg-type]
    root = ET.fromstring(svg)
    hexes = {u.get("data-hex") for u in root.iter(f"{SVG}use") if u.get("class") == "hex"}
    assert len(hexes) == 16 and "0303" in hexes and "0606" in hexes and "0707" not in hexes
    assert root.get("viewBox") == "0 0 276 358"
    assert m.svg(region=["0606", "0303"], **bare) == svg  # type: ignore[arg-type]
    assert m.svg(region=("0303", "0606"), **bare) == svg  # type: ignore[arg-type]
    with pytest.raises(fm.RuleError, match="region: 9999 is off the map"):
        m.svg(region={"from": "0101", "to": "9999"})
    with pytest.raises(fm.RuleError, match="unknown field `by`"):
        m.svg(region={"from": "0101", "to": "0202", "by": 2})
    with pytest.raises(TypeError, match="title, region, unit_labels, crt"):
        m.svg(radii=True)


def test_unit_labels_and_charts() -> None:
    m = fm.Match("system-demo", seed=1)
    ids = m.svg(unit_labels="id")
    root = ET.fromstring(ids)
    labels = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"}
    on_map = {u["id"] for u in m.state["units"] if _on_map(u)}
    assert on_map <= labels
    with pytest.raises(ValueError, match='unit_labels must be "name" or "id"'):
        m.svg(unit_labels="both")  # type: ignore[arg-type]
    classes = _classes(m.svg())
    for chart in ("crt", "terrain-chart", "turn-track", "box reinforcements", "box eliminated"):
        assert chart in classes
    none = _classes(m.svg(crt=False, terrain_chart=False, turn_track=False, boxes=False))
    for chart in ("crt", "terrain-chart", "turn-track", "box reinforcements", "box eliminated"):
        assert chart not in none
    # Place names: a halo element under the text, no paint-order.
    svg = m.svg()
    assert "paint-order" not in svg and _classes(svg).count("halo") == 3


def test_huzzah_region_crops_the_table() -> None:
    m = fm.Match("huzzah-firefight", seed=1)
    whole = ET.fromstring(m.svg())
    part = ET.fromstring(m.svg(region={"from": [0, 0], "to": [60, 40]}))
    assert float(part.get("width", "0")) < float(whole.get("width", "0"))
    with pytest.raises(fm.RuleError, match="off the table"):
        m.svg(region={"from": [0, 0], "to": [6000, 40]})
    with pytest.raises(TypeError, match="unit_labels"):
        m.svg(unit_labels="id")


# Pictures as pixels (fm.svg_to_png, fm.svg_to_rgb: resvg), what fm.env's rgb_array uses.

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TEXT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">'
    '<text x="10" y="35" font-size="30"{family}>{text}</text></svg>'
)


def _dark_pixels(svg: str, scale: float = 1.0) -> int:
    """The pixels of the drawn `svg` darker than mid grey."""
    h, w, data = fm.svg_to_rgb(svg, scale)
    assert len(data) == h * w * 3
    return sum(1 for i in range(0, len(data), 3) if data[i] + data[i + 1] + data[i + 2] < 300)


def test_svg_to_png_and_rgb_draw_the_board() -> None:
    import struct

    m = fm.Match("system-demo", seed=1)
    svg = m.svg()
    png = fm.svg_to_png(svg)
    assert png.startswith(PNG_SIGNATURE) and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    h, w, data = fm.svg_to_rgb(svg)
    root = ET.fromstring(svg)
    assert (w, h) == (width, height) == (int(root.get("width", "")), int(root.get("height", "")))
    assert isinstance(data, bytearray) and len(data) == h * w * 3
    # The board's ground colour (#fbfaf5) in the top left corner, and far from blank.
    assert tuple(data[:3]) == (0xFB, 0xFA, 0xF5)
    assert len(set(data[i : i + 3].hex() for i in range(0, len(data), 3 * 97))) > 20
    h2, w2, _ = fm.svg_to_rgb(svg, scale=0.5)
    assert (h2, w2) == ((h + 1) // 2, (w + 1) // 2)
    # A side's view draws too.
    assert fm.svg_to_png(m.svg("a")).startswith(PNG_SIGNATURE)


def test_text_is_drawn_with_the_system_fonts() -> None:
    import pytest

    fonts = fm.render_fonts()
    if not fonts:
        pytest.skip("this system has no fonts (on Debian: apt-get install fonts-dejavu-core)")
    assert fonts == sorted(set(fonts))
    blank = _dark_pixels(TEXT_SVG.format(family="", text=""))
    assert blank == 0
    for family in ("", ' font-family="sans-serif"', ' font-family="DejaVu Sans, sans-serif"',
                   ' font-family="No Such Font"'):
        assert _dark_pixels(TEXT_SVG.format(family=family, text="0101")) > 200, family
    # The board's hex ids and panel are text: leaving them out changes the picture.
    m = fm.Match("system-demo", seed=1)
    with_text = fm.svg_to_rgb(m.svg())[2]
    without = fm.svg_to_rgb(m.svg(hex_ids=False))[2]
    assert with_text != without


def test_svg_to_png_input_is_checked() -> None:
    import pytest

    empty = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    for bad in ("", "not svg", "<svg", '<svg xmlns="http://www.w3.org/2000/svg" width="0"/>'):
        for draw in (fm.svg_to_png, fm.svg_to_rgb):
            with pytest.raises(fm.ProtocolError, match="svg: not a picture"):
                draw(bad)
    for scale in (0, -1, float("nan"), float("inf"), 16.5):
        with pytest.raises(ValueError, match="scale must be a number above 0"):
            fm.svg_to_png(empty, scale)
    with pytest.raises(TypeError, match="scale must be a number, not bool"):
        fm.svg_to_png(empty, True)
    with pytest.raises(TypeError, match="svg must be a str"):
        fm.svg_to_png(empty.encode())  # type: ignore[arg-type]
    huge = '<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="10"></svg>'
    with pytest.raises(ValueError, match="each side must be 1 to 8192"):
        fm.svg_to_rgb(huge)
    with pytest.raises(ValueError, match="each side must be 1 to 8192"):
        fm.svg_to_rgb(huge.replace("9000", "600"), 16)  # 9600 pixels wide at scale 16
    # Files the SVG names are not read.
    image = empty.replace("></svg>", '><image href="/etc/hostname" width="10" height="10"/></svg>')
    assert _dark_pixels(image) == 0
    assert fm.svg_to_rgb(empty, 1.55)[:2] == (16, 16)
