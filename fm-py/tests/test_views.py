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
    assert 'data-value="?"' not in m.svg()


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
