#!/usr/bin/env python3
"""Writes fm-core/scenarios/system-demo.json, the built-in demonstration scenario.

Everything in it is invented for testing and teaching: a 12x10 map holding every
terrain line and hexside type of the F&M system CRT, a few leg and mobile units of
1, 2 and 3 steps, a support fire track and a victory-hex condition. The CRT grid is
the system grid as recovered in ../shared/rules/README.md. Run from the repo root.
"""
import json

from hexgrid import GRID, adjacent, crt_line, hid, neighbors

COLS, ROWS = 12, 10


terrain = {}
for c in range(1, COLS + 1):
    for r in range(1, ROWS + 1):
        terrain[(c, r)] = ["clear"]
special = {
    (1, 10): ["sea"], (2, 10): ["sea"],
    (2, 2): ["desert"], (2, 8): ["mixed"],
    (3, 3): ["woods"], (4, 2): ["woods"], (4, 7): ["woods"],
    (4, 3): ["clear", "village"],
    (4, 8): ["marsh"], (5, 9): ["swamp"],
    (8, 3): ["rough"], (9, 2): ["mountain"], (10, 2): ["mountain"],
    (8, 5): ["town"], (9, 6): ["city"], (10, 5): ["clear", "fortification"],
    (10, 8): ["broken"], (11, 7): ["woods"],
}
terrain.update(special)

sides = {}


def add_side(a, b, feat):
    assert adjacent(a, b), (a, b)
    key = tuple(sorted([a, b]))
    sides.setdefault(key, [])
    if feat not in sides[key]:
        sides[key].append(feat)


# River between columns 6 and 7, bridged where the row-5 road crosses.
for r in range(1, ROWS + 1):
    for b in neighbors(6, r):
        if b[0] == 7 and 1 <= b[1] <= ROWS:
            add_side((6, r), b, "bridge" if ((6, r), b) == ((6, 5), (7, 5)) else "river")
# Road along row 5.
for c in range(1, COLS):
    add_side((c, 5), (c + 1, 5), "road")
# Trail down column 3.
for r in range(1, ROWS):
    add_side((3, r), (3, r + 1), "trail")
# Stream between columns 2 and 3, rows 6-9.
for r in range(6, 10):
    for b in neighbors(2, r):
        if b[0] == 3 and 6 <= b[1] <= 9:
            add_side((2, r), b, "stream")
# Ditch on the west face of the fortified hex 1005.
for b in neighbors(10, 5):
    if b[0] == 9:
        add_side((10, 5), b, "ditch")
# Canal between columns 11 and 12, rows 1-4.
for r in range(1, 5):
    for b in neighbors(11, r):
        if b[0] == 12 and 1 <= b[1] <= 4:
            add_side((11, r), b, "canal")
# Minefield south of the town.
add_side((8, 5), (8, 6), "minefield")
# A lake shore no one may cross.
add_side((4, 1), (5, 1), "water")

hexes = []
for c in range(1, COLS + 1):
    for r in range(1, ROWS + 1):
        h = {"id": hid(c, r), "terrain": terrain[(c, r)]}
        names = {(8, 5): "Ostdorf", (9, 6): "Hauptstadt", (10, 5): "Fort Kessel"}
        if (c, r) in names:
            h["name"] = names[(c, r)]
        hexes.append(h)

hexsides = [{"hexes": [hid(*a), hid(*b)], "features": f} for (a, b), f in sorted(sides.items())]

# The Suez copy of the system CRT prints Mountain's 0 under column 1; the Vimy copy says
# "The Mountain row has no printed entry in the first column", which one reading puts
# over column 2. Column 1 is kept; a player with the printed table can set first_column.
MOUNTAIN_EXTRA = {"provenance": (
    "printed: first differential 0 over column 1 (Suez 1916 Part II table). The Vimy copy notes the Mountain row "
    "has no printed entry in the first column; to follow the reading that puts 0 over column 2, set first_column 2.")}

LINES = [
    ("mountain", "Mountain", 0),
    ("city-rough-river", "City, Rough, River", -2),
    ("marsh-town-broken", "Marsh/Swamp, Town, Broken", -3),
    ("woods-bridge-canal-ditch", "Woods, Bridge, Canal, Ditch", -4),
    ("clear-desert-stream", "Mixed, Clear, Desert, Stream", -5),
]


STANDIN = "stand-in: invented for the system-demo scenario; no printed counter"


def unit(uid, side, name, formation, size, utype, kind, steps, start, **kw):
    u = {
        "id": uid, "side": side, "name": name, "formation": formation, "size": size,
        "type": utype, "kind": kind,
        "steps": [{"attack": a, "defense": d, "move": m} for a, d, m in steps],
        "start": start, "provenance": STANDIN,
    }
    u.update(kw)
    return u


units = [
    unit("blue-1-inf-div", "a", "1", "1st Corps", "XX", "infantry", "leg", [(6, 6, 4), (4, 4, 4), (2, 2, 4)], {"hex": "0304"}),
    unit("blue-2-inf-bde", "a", "2", "1st Div", "X", "infantry", "leg", [(4, 4, 4), (2, 2, 4)], {"hex": "0305"}),
    unit("blue-3-inf-bde", "a", "3", "1st Div", "X", "infantry", "leg", [(4, 3, 4), (2, 2, 4)], {"hex": "0306"}),
    unit("blue-1-armor-bde", "a", "1 Arm", "1st Corps", "X", "armor", "mobile", [(6, 4, 8), (3, 2, 8)], {"hex": "0205"}),
    unit("blue-recon-bn", "a", "Recon", "1st Corps", "II", "recon", "mobile", [(2, 2, 8)], {"hex": "0204"}),
    unit("blue-commando-co", "a", "Cdo", "1st Corps", "I", "commando", "leg", [(1, 1, 4)], {"zone": "blue-rear"}, tags=["commando"]),
    unit("blue-hq-arty", "a", "HQ", "1st Corps", "III", "artillery", "leg", [(0, 1, 3)], {"hex": "0105"}, zoc=False),
    unit("blue-2-armor-bde", "a", "2 Arm", "1st Corps", "X", "armor", "mobile", [(6, 4, 8), (3, 2, 8)],
         {"reinforcement": {"turn": 3, "entry": ["0104", "0105", "0106"]}}),
    unit("red-10-inf-rgt", "b", "10", "5th Div", "III", "infantry", "leg", [(4, 5, 3), (2, 3, 3)], {"hex": "0805"}),
    unit("red-11-inf-rgt", "b", "11", "5th Div", "III", "infantry", "leg", [(4, 5, 3), (2, 3, 3)], {"hex": "0906"}),
    unit("red-12-gds-rgt", "b", "12 Gds", "5th Div", "III", "infantry", "leg", [(5, 5, 4), (3, 3, 4)], {"hex": "1005"}),
    unit("red-20-tank-rgt", "b", "20", "5th Div", "III", "armor", "mobile", [(5, 3, 7), (2, 2, 7)], {"hex": "0903"}),
    unit("red-militia-bn", "b", "Mil", "5th Div", "II", "militia", "leg", [(1, 2, 3)], {"zone": "red-rear"}),
    unit("red-13-inf-rgt", "b", "13", "5th Div", "III", "infantry", "leg", [(4, 5, 3), (2, 3, 3)],
         {"reinforcement": {"turn": 2, "entry": ["1204", "1205", "1206"]}}, start_depleted=1),
]

scenario = {
    "id": "system-demo",
    "name": "System Demo: Ostdorf Crossing",
    "provenance": "stand-in: an invented scenario for tests, documentation and the quick start. "
                  "Map, counters, turn track and marker mix are all made up; only the CRT grid and "
                  "terrain lines follow the printed system CRT (see crt.provenance).",
    "rules": "system",
    "sides": {"a": {"name": "Blue"}, "b": {"name": "Red"}},
    "map": {
        "layout": "odd-columns-down",
        "provenance": "stand-in: invented 12x10 map carrying every system CRT terrain line and hexside type",
        "hexes": hexes,
        "hexsides": hexsides,
        "friendly_edges": {"a": [hid(1, r) for r in range(1, ROWS + 1)],
                           "b": [hid(COLS, r) for r in range(1, ROWS + 1)]},
    },
    "terrain": {
        "hex": [
            {"id": "clear", "name": "Clear", "move": "1", "crt_line": "clear-desert-stream"},
            {"id": "mixed", "name": "Mixed", "move": "1", "crt_line": "clear-desert-stream"},
            {"id": "desert", "name": "Desert", "move": "1", "crt_line": "clear-desert-stream"},
            {"id": "woods", "name": "Woods", "move": "2", "crt_line": "woods-bridge-canal-ditch"},
            {"id": "marsh", "name": "Marsh", "move": "3", "crt_line": "marsh-town-broken"},
            {"id": "swamp", "name": "Swamp", "move": "3", "crt_line": "marsh-town-broken"},
            {"id": "broken", "name": "Broken", "move": "2", "crt_line": "marsh-town-broken"},
            {"id": "town", "name": "Town", "move": "1", "crt_line": "marsh-town-broken"},
            {"id": "city", "name": "City", "move": "1", "crt_line": "city-rough-river"},
            {"id": "rough", "name": "Rough", "move": "2", "crt_line": "city-rough-river"},
            {"id": "mountain", "name": "Mountain", "move": "3", "crt_line": "mountain"},
            {"id": "village", "name": "Village", "move": "+1"},
            {"id": "fortification", "name": "Fortification", "move": "+1", "fortification": True},
            {"id": "sea", "name": "All-sea", "move": "P", "crt_line": "clear-desert-stream", "blocks_zoc": True},
        ],
        "hexside": [
            {"id": "river", "name": "River", "move": "+1", "crt_line": "city-rough-river", "all_attackers": True},
            {"id": "bridge", "name": "Bridge", "move": "+0", "crt_line": "woods-bridge-canal-ditch", "bridge_over": "river"},
            {"id": "stream", "name": "Stream", "move": "+1", "crt_line": "clear-desert-stream", "all_attackers": True},
            {"id": "ditch", "name": "Ditch", "move": "+1", "crt_line": "woods-bridge-canal-ditch", "all_attackers": True},
            {"id": "canal", "name": "Canal", "move": "+2", "crt_line": "woods-bridge-canal-ditch", "all_attackers": True},
            {"id": "road", "name": "Road", "road": "1/2"},
            {"id": "trail", "name": "Trail", "road": "1"},
            {"id": "minefield", "name": "Minefield", "move": "+1", "minefield": True},
            {"id": "water", "name": "Lake shore", "move": "P", "blocks_zoc": True},
        ],
    },
    "crt": {
        "provenance": "F&M system CRT grid per ../shared/rules/README.md: rows 1-2 and row 3 columns 4-12 "
                      "printed, row 3 columns 2-3 follow the one-column shift; rows 4-6 are stand-in "
                      "(the shift continued, leftmost cells (A)). Line first differentials printed; each "
                      "line labels the grid from column 1 (README: a column-shift table).",
        "grid": GRID,
        "lines": [crt_line(i, n, m, **MOUNTAIN_EXTRA) if i == "mountain" else crt_line(i, n, m) for i, n, m in LINES],
    },
    "units": units,
    "setup": {
        "order": ["b", "a"],
        "zones": {
            "blue-rear": [hid(c, r) for c in (1, 2) for r in range(1, 9)],
            "red-rear": [hid(c, r) for c in (11, 12) for r in range(4, 9)],
        },
    },
    "turns": [
        {"name": "Turn 1", "support": {"a": 3, "b": 2}},
        {"name": "Turn 2", "support": {"a": 3, "b": 2}},
        {"name": "Turn 3", "support": {"a": 4, "b": 3}},
        {"name": "Turn 4 (night)", "support": {"a": 1, "b": 1}, "night": True},
        {"name": "Turn 5", "support": {"a": 4, "b": 3}},
        {"name": "Turn 6", "support": {"a": 2, "b": 3}},
    ],
    "support_markers": {"a": [1, 1, 2, 2, 3, 4], "b": [1, 2, 2, 3]},
    "support_provenance": "stand-in: invented turn track allotments and marker mix",
    "first_player": "a",
    "start": {"turn": 1, "phase": "movement"},
    "skip_phases": [],
    "victory": {
        "conditions": [
            {"type": "annihilation", "side": "a"},
            {"type": "annihilation", "side": "b"},
            {"type": "hold_at_end", "side": "a", "hexes": ["0805", "0906", "1005"], "count": 2},
        ],
        "otherwise": "b",
    },
}

with open("fm-core/scenarios/system-demo.json", "w") as f:
    json.dump(scenario, f, indent=1, ensure_ascii=False)
    f.write("\n")
