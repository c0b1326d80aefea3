#!/usr/bin/env python3
"""Writes fm-core/scenarios/meuse-argonne.json: Meuse Argonne: The Final Offensive.

Printed (../shared/rules/meuse-argonne.txt): the order of battle of 19.2-19.6 with the
German divisions' full-strength values and their "set up depleted" / "arrives depleted"
flags, the reinforcement turns, 24 two-day turns from Sep 26/27 to Nov 11, the first
Artillery Track entry (8/4), the 12 bombardment markers, the Integrated CRT's terrain
lines, the bombardment modifiers and table.

Stand-in (not in our text, see ../shared/rules/README.md): the map (a schematic: Allies
south, Sedan north, the Meuse along the east, the Argonne forest west, three belts of
German works), every Allied value, every German depleted side, the brigade chit count,
the aircraft count, the Artillery Track after turn 1, the support fire track and mix,
the terrain movement costs. Run from the repo root; the output is deterministic.
"""
import datetime
import json

from hexgrid import COLUMNS, GRID, adjacent, crt_line, hid, key_of, line, neighbors

COLS, ROWS = 30, 40

# ---------------------------------------------------------------------------------
# Hex geometry (odd columns sit half a hex lower, as in gen_system_demo.py).


def on_map(h):
    return 1 <= h[0] <= COLS and 1 <= h[1] <= ROWS


def path(waypoints):
    """A chain of adjacent hexes through the waypoints."""
    out = []
    for a, b in zip(waypoints, waypoints[1:]):
        for h in line(a, b):
            if not out or out[-1] != h:
                out.append(h)
    for a, b in zip(out, out[1:]):
        assert adjacent(a, b), (a, b)
    assert all(on_map(h) for h in out), out
    return out


# ---------------------------------------------------------------------------------
# Calendar (11.1, 19.1): 24 two-day turns from Sep 26/27; the last is Nov 11 alone.

TURN_NAMES = [
    "Sep 26/27", "Sep 28/29", "Sep 30/Oct 1", "Oct 2/3", "Oct 4/5", "Oct 6/7",
    "Oct 8/9", "Oct 10/11", "Oct 12/13", "Oct 14/15", "Oct 16/17", "Oct 18/19",
    "Oct 20/21", "Oct 22/23", "Oct 24/25", "Oct 26/27", "Oct 28/29", "Oct 30/31",
    "Nov 1/2", "Nov 3/4", "Nov 5/6", "Nov 7/8", "Nov 9/10", "Nov 11",
]


def _calendar():
    names = []
    day = datetime.date(1918, 9, 26)
    armistice = datetime.date(1918, 11, 11)
    while day <= armistice:
        nxt = day + datetime.timedelta(days=1)
        first = day.strftime("%b ") + str(day.day)
        if nxt > armistice:
            names.append(first)
        elif nxt.month == day.month:
            names.append(f"{first}/{nxt.day}")
        else:
            names.append(f"{first}/{nxt.strftime('%b ')}{nxt.day}")
        day += datetime.timedelta(days=2)
    return names


assert TURN_NAMES == _calendar(), _calendar()
assert len(TURN_NAMES) == 24 and TURN_NAMES[0] == "Sep 26/27" and TURN_NAMES[-1] == "Nov 11"


def turn_of(printed):
    """Turn number of a printed "Oct 2-3" label."""
    return TURN_NAMES.index(printed.replace("-", "/")) + 1


# ---------------------------------------------------------------------------------
# The map (stand-in schematic). North is row 1, south row 40; the Allies attack north.

# The Meuse: hexes in columns above MEUSE_WEST[r] lie east of the river. It runs north
# from the south edge past Verdun, bends north-west past Dun and Stenay, and leaves the
# north edge just east of Sedan.
MEUSE_WEST = {}
for r in range(1, ROWS + 1):
    if r <= 5:
        MEUSE_WEST[r] = 18
    elif r <= 13:
        MEUSE_WEST[r] = {6: 19, 7: 19, 8: 20, 9: 20, 10: 21, 11: 21, 12: 22, 13: 22}[r]
    elif r <= 20:
        MEUSE_WEST[r] = 23
    elif r <= 27:
        MEUSE_WEST[r] = 24
    elif r <= 34:
        MEUSE_WEST[r] = 23
    else:
        MEUSE_WEST[r] = 24


def east_of_meuse(h):
    return h[0] > MEUSE_WEST[h[1]]


# The Aire: it flows north along the east side of the Argonne, then turns west at
# Grandpré. Hexes in the "Argonne side" set lie south-west of it.
def aire_side(h):
    c, r = h
    return r >= 14 and c <= (9 if r <= 24 else 10)


# Three belts of German works, south to north, each a continuous chain across the map.
STELLUNG = path([(1, 31), (6, 30), (11, 30), (14, 29), (19, 29), (23, 30), (30, 31)])
SECOND_TIER = path([(c, 13) for c in range(1, 10)] + [(12, 18), (14, 20), (17, 21), (24, 22), (30, 23)])
FORTIFICATION = path([(1, 8), (7, 8), (13, 11), (18, 12), (23, 12), (30, 14)])


def rows_by_column(chain):
    cols = {}
    for c, r in chain:
        cols.setdefault(c, set()).add(r)
    assert sorted(cols) == list(range(1, COLS + 1)), "a belt must cross the whole map"
    for c, rs in cols.items():
        assert sorted(rs) == list(range(min(rs), max(rs) + 1)), (c, rs)
    return {c: (min(rs), max(rs)) for c, rs in cols.items()}


STELLUNG_ROWS = rows_by_column(STELLUNG)
SECOND_ROWS = rows_by_column(SECOND_TIER)
FORT_ROWS = rows_by_column(FORTIFICATION)
for c in range(1, COLS + 1):
    assert FORT_ROWS[c][1] < SECOND_ROWS[c][0] - 1, c
    assert SECOND_ROWS[c][1] < STELLUNG_ROWS[c][0] - 1, c


def south_of_stellung(h):
    return h[1] > STELLUNG_ROWS[h[0]][1]


def north_of_stellung(h):
    return h[1] < STELLUNG_ROWS[h[0]][0]


ALL_HEXES = [(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]
terrain = {h: ["clear"] for h in ALL_HEXES}
names = {}

# Woods: the Argonne forest west of the Aire, the Bois de Bourgogne north of Grandpré,
# and the smaller woods of the centre and of the heights east of the Meuse.
WOODS = set()
for c in range(2, 10):
    for r in range(15, 37):
        if aire_side((c, r)):
            WOODS.add((c, r))
WOODS -= {(5, 22), (6, 22), (4, 28), (7, 33), (2, 35)}  # clearings
for c in range(3, 9):
    for r in range(9, 13):
        WOODS.add((c, r))
WOODS |= {
    (15, 28), (16, 27), (16, 28),  # Bois de Montfaucon
    (11, 32), (12, 32),  # Bois de Cheppy
    (15, 23), (16, 22), (16, 23), (18, 23),  # Bois de Cunel, Bois des Ogons, Bois de Forêt
    (13, 16), (14, 16), (13, 17),  # Bois de Bantheville
    (15, 13), (16, 13), (16, 14),  # Bois de Barricourt
    (17, 9), (18, 8), (18, 9), (19, 9),  # Forêt de Dieulet
    (26, 24), (27, 24), (26, 27), (26, 28), (27, 29),  # woods on the Heights of the Meuse
    (28, 14), (29, 14), (28, 15),  # Forêt de Woëvre
    (11, 36), (11, 37),  # Forêt de Hesse
}
RISES = {
    (17, 4),  # Marfée heights south of Sedan
    (14, 12),  # Barricourt heights
    (13, 19), (15, 20),  # Côte de Châtillon, Côte Dame Marie
    (14, 27),  # Montfaucon butte
    (11, 31),  # Butte de Vauquois
    (17, 33), (19, 32),  # Hill 304, Le Mort-Homme
    (26, 16), (25, 15), (27, 19), (26, 20), (27, 31), (26, 33),  # Heights of the Meuse
    (8, 5), (11, 6), (24, 5), (20, 16), (10, 21),
}
for h in WOODS:
    terrain[h] = ["woods"]
for h in RISES:
    terrain[h] = ["rise"] if h not in WOODS else ["woods", "rise"]

TOWNS = {
    # North map edge (German reinforcement entry, 19.6).
    (4, 1): "Poix-Terron", (11, 1): "Flize", (16, 1): "Donchery", (22, 1): "Douzy",
    (27, 1): "Carignan",
    # East map edge (German reinforcement entry, 19.6).
    (30, 6): "Montmédy", (30, 11): "Jametz", (30, 19): "Damvillers",
    # The battlefield.
    (17, 7): "Beaumont", (21, 7): "Mouzon", (6, 7): "Le Chesne", (13, 11): "Buzancy",
    (23, 12): "Stenay", (9, 13): "Grandpré", (12, 17): "Landres-et-St. Georges",
    (14, 20): "Romagne", (17, 21): "Cunel", (24, 18): "Dun-sur-Meuse",
    (24, 22): "Brieulles", (11, 24): "Exermont", (9, 24): "Châtel-Chéhéry",
    (4, 26): "Binarville", (14, 27): "Montfaucon", (11, 30): "Varennes",
    (25, 29): "Consenvoye", (16, 32): "Malancourt", (13, 33): "Avocourt",
    (19, 34): "Esnes", (2, 33): "Vienne-le-Château", (12, 37): "Dombasle",
    (6, 38): "Clermont-en-Argonne",
}
FORTRESSES = {(18, 3): "Sedan", (25, 37): "Verdun"}
SEDAN = (18, 3)
for h, n in TOWNS.items():
    base = [t for t in terrain[h] if t != "clear"]
    terrain[h] = base + ["town"]
    names[h] = n
for h, n in FORTRESSES.items():
    terrain[h] = ["fortress"]
    names[h] = n

# The works go on top of whatever else is in the hex ("Trench-Town", "Trench-Woods").
for chain, tid in ((STELLUNG, "stellung"), (SECOND_TIER, "second-tier"), (FORTIFICATION, "fortification")):
    for h in chain:
        assert h not in FORTRESSES, h
        terrain[h] = terrain[h] + [tid]

# Geography checks.
assert SEDAN[1] <= 4 and north_of_stellung(SEDAN)
assert east_of_meuse((25, 37)) and south_of_stellung((25, 37))
for h in ((14, 27), (14, 20), (9, 13), (13, 11), (23, 12), (24, 18)):
    assert north_of_stellung(h), names[h]
assert "stellung" in terrain[(11, 30)]  # Varennes, a trench-town
assert "second-tier" in terrain[(14, 20)] and "second-tier" in terrain[(9, 13)]

# Hexsides.
sides = {}


def add_side(a, b, feat):
    assert adjacent(a, b) and on_map(a) and on_map(b), (a, b)
    key = tuple(sorted([a, b]))
    fs = sides.setdefault(key, [])
    if feat not in fs:
        fs.append(feat)


MEUSE_SIDES, AIRE_SIDES = set(), set()
for h in ALL_HEXES:
    for n in neighbors(*h):
        if on_map(n) and h < n:
            if east_of_meuse(h) != east_of_meuse(n):
                MEUSE_SIDES.add(key_of(h, n))
            if aire_side(h) != aire_side(n):
                AIRE_SIDES.add(key_of(h, n))
assert not MEUSE_SIDES & AIRE_SIDES

ROADS = [
    # Avocourt - Montfaucon - Romagne - Buzancy - Beaumont - Sedan - Donchery.
    [(14, 40), (13, 33), (14, 27), (14, 20), (13, 11), (17, 7), (18, 3), (16, 1)],
    # The Aire valley: Varennes - Exermont - Grandpré - Le Chesne - Poix-Terron.
    [(11, 40), (11, 30), (11, 24), (10, 20), (10, 14), (9, 13), (6, 7), (4, 1)],
    # Behind the Allied lines: Clermont - Dombasle - Esnes - Verdun.
    [(1, 37), (6, 38), (12, 37), (19, 34), (25, 37), (30, 36)],
    # East of the Meuse: Verdun - Consenvoye - Dun - Stenay - Mouzon - Douzy.
    [(25, 37), (26, 31), (25, 29), (25, 20), (24, 18), (24, 14), (23, 13), (23, 12), (21, 7), (22, 1)],
    # Laterals.
    [(1, 12), (9, 13), (13, 11), (23, 12), (30, 11)],
    [(11, 24), (14, 20), (17, 21), (24, 22), (30, 19)],
    [(11, 30), (14, 27), (19, 27), (25, 29)],
    [(4, 26), (9, 24), (11, 24)],
    [(17, 7), (21, 7)],
    [(6, 7), (11, 1)],
    [(9, 13), (10, 14), (12, 17), (14, 20)],
    [(19, 34), (16, 32), (14, 27)],
    [(2, 33), (11, 30)],
    [(18, 3), (22, 1), (27, 1), (30, 6)],
]
ROAD_HEXES = set()
for wp in ROADS:
    p = path(wp)
    ROAD_HEXES |= set(p)
    crossings = {"meuse": 0, "river": 0}
    for a, b in zip(p, p[1:]):
        k = key_of(a, b)
        if k in MEUSE_SIDES:
            add_side(a, b, "meuse-bridge")
            crossings["meuse"] += 1
        elif k in AIRE_SIDES:
            add_side(a, b, "bridge")
            crossings["river"] += 1
        add_side(a, b, "road")
    assert max(crossings.values()) <= 1, ("a road crosses each river at most once", wp)
for (a, b) in sorted(MEUSE_SIDES):
    if "meuse-bridge" not in sides.get((a, b), []):
        add_side(a, b, "meuse")
for (a, b) in sorted(AIRE_SIDES):
    if "bridge" not in sides.get((a, b), []):
        add_side(a, b, "river")
for h in list(TOWNS) + list(FORTRESSES):
    assert h in ROAD_HEXES, names[h]

# Trench lines drawn on the hexsides facing south (drawing only: 14.2 applies the
# effects per hex, and the hex terrains carry them).
for chain, rows, feat in ((STELLUNG, STELLUNG_ROWS, "stellung-line"),
                          (SECOND_TIER, SECOND_ROWS, "second-tier-line"),
                          (FORTIFICATION, FORT_ROWS, "fortification-line")):
    for h in chain:
        for n in neighbors(*h):
            if on_map(n) and n[1] > rows[n[0]][1]:
                add_side(h, n, feat)

# Features on a hexside in a fixed order.
SIDE_ORDER = ["meuse", "meuse-bridge", "river", "bridge", "road", "stellung-line", "second-tier-line",
              "fortification-line"]
hexsides = [{"hexes": [hid(*a), hid(*b)], "features": sorted(f, key=SIDE_ORDER.index)}
            for (a, b), f in sorted(sides.items())]

hexes = []
for h in ALL_HEXES:
    d = {"id": hid(*h), "terrain": terrain[h]}
    if h in names:
        d["name"] = names[h]
    hexes.append(d)

SOUTH_EDGE = [(c, ROWS) for c in range(1, COLS + 1)]
NORTH_EDGE = [(c, 1) for c in range(1, COLS + 1)]
WEST_EDGE = [(1, r) for r in range(1, ROWS + 1)]
EAST_EDGE = [(COLS, r) for r in range(1, ROWS + 1)]

# 11.3: any map-edge hex south of the southernmost Stellung line (the line crosses the
# whole map, so "west of" it adds no hex): the south edge and the west and east edge
# hexes below the line.
ALLIED_REPLACEMENT = sorted({h for h in SOUTH_EDGE + WEST_EDGE + EAST_EDGE if south_of_stellung(h)})
# 11.6: any northern or eastern map-edge hex.
GERMAN_REPLACEMENT = sorted(set(NORTH_EDGE + EAST_EDGE))
# 19.6: any town along the northern and/or eastern map edge.
GERMAN_ENTRY = sorted(h for h in TOWNS if h[1] == 1 or h[0] == COLS)
assert len(GERMAN_ENTRY) == 8 and all(north_of_stellung(h) for h in GERMAN_ENTRY)

ALLIED_ZONE = [h for h in ALL_HEXES if south_of_stellung(h)]
RESERVE_ZONE = [h for h in ALL_HEXES if north_of_stellung(h)]
assert len(STELLUNG) >= 20

# ---------------------------------------------------------------------------------
# Terrain effects and the Integrated CRT.

LINES = [
    ("fortress", "Fortress (Sedan, Verdun)", -1),
    ("woods-lost-battalion", "Woods (Lost Battalion)", -1),
    ("fortification", "Fortification", -2),
    ("meuse-river", "Meuse River", -2),
    ("stellung", "Stellung", -3),
    ("town", "Town", -3),
    ("trench-town", "Trench-Town", -3),
    ("woods", "Woods", -3),
    ("trench-woods", "Trench-Woods", -3),
    ("second-tier", "2nd Tier Trench", -4),
    ("river", "River", -4),
    ("rise", "Rise", -4),
    ("clear", "Clear", -5),
    ("bridge", "Bridge", -5),
]


# The printed cells of the Integrated CRT, by first differential. The copy lists each
# line's cells right-aligned on the grid; that layout would give every line the same
# result at the same differential (contradicting 8.2.2 and 18.1's Lost Battalion
# penalty), so lines are read from the left (README). The cells still check the grid's
# values: each list is a run of the grid's rows 1-3 ending in its last column.
PRINTED = {
    -1: [["Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
         ["•", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
         ["A2", "•", "Ex", "Ex"]],
    -2: [["•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
         ["A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
         ["A3"]],
    -3: [["A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
         ["A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3"]],
    -4: [["A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
         ["(A)", "A3", "A2", "•", "Ex", "Ex", "Ex"]],
    -5: [["(A)", "A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
         ["(A)", "(A)", "A3", "A2", "•"]],
}
for first, rows in PRINTED.items():
    start = [c[0] for c in COLUMNS].index(first)
    for die, cells in enumerate(rows):
        assert GRID[die][start:start + len(cells)] == cells, (first, die)

HEX_TERRAIN = [
    {"id": "clear", "name": "Clear", "move": "1", "crt_line": "clear"},
    {"id": "woods", "name": "Woods", "move": "2", "crt_line": "woods"},
    {"id": "rise", "name": "Rise", "move": "2", "crt_line": "rise"},
    {"id": "town", "name": "Town", "move": "1", "crt_line": "town"},
    {"id": "fortress", "name": "Fortress (Sedan, Verdun)", "move": "1", "crt_line": "fortress"},
    {"id": "stellung", "name": "Stellung", "move": "+0", "crt_line": "stellung"},
    {"id": "second-tier", "name": "2nd Tier Trench", "move": "+0", "crt_line": "second-tier"},
    # 14.2-14.3 Fortifications: a trench type, not the system's 8.2.3 fortification; the
    # +1 MP applies to Allied units only and is added by the exclusive rules.
    {"id": "fortification", "name": "Fortification", "move": "+0", "crt_line": "fortification",
     "fortification": False},
]
HEXSIDE_TERRAIN = [
    {"id": "meuse", "name": "Meuse River", "move": "+1", "crt_line": "meuse-river", "all_attackers": True},
    {"id": "meuse-bridge", "name": "Bridge (Meuse)", "move": "+0", "crt_line": "bridge", "bridge_over": "meuse"},
    {"id": "river", "name": "River (Aire)", "move": "+1", "crt_line": "river", "all_attackers": True},
    {"id": "bridge", "name": "Bridge", "move": "+0", "crt_line": "bridge", "bridge_over": "river"},
    {"id": "road", "name": "Road", "road": "1/2"},
    {"id": "stellung-line", "name": "Stellung (drawn)", "move": "+0"},
    {"id": "second-tier-line", "name": "2nd Tier Trench (drawn)", "move": "+0"},
    {"id": "fortification-line", "name": "Fortification (drawn)", "move": "+0"},
]

# ---------------------------------------------------------------------------------
# Order of battle.

ALLIED_ZONE_NAME, STELLUNG_ZONE, RESERVE_ZONE_NAME = "allied-setup", "german-stellung", "german-reserve"
SOUTH_ENTRY = [hid(*h) for h in SOUTH_EDGE]
GERMAN_ENTRY_IDS = [hid(*h) for h in GERMAN_ENTRY]

US_VALUES = [(8, 8, 4), (4, 4, 4)]
US_THREE_STEP_VALUES = [(8, 8, 4), (5, 5, 4)]
FRENCH_VALUES = [(5, 6, 4), (2, 3, 4)]
BRIGADE_VALUES = [(3, 3, 4)]
THREE_STEP = {"4th", "32nd", "33rd", "79th"}

US_PROV = ("stand-in: both sides (no Allied counter values in our text); every US division "
           "8-8-4 full, 4-4-4 depleted, a WWI US division being about twice a European one")
US_THREE_PROV = ("stand-in: both sides (no Allied counter values in our text); 8-8-4 full (three "
                 "steps, 13.1), 5-5-4 depleted (two of the three steps); the third step is a "
                 "brigade chit (3-3-4)")
FR_PROV = "stand-in: both sides (no Allied counter values in our text); French division 5-6-4 full, 2-3-4 depleted"
BDE_PROV = "stand-in: one step, 3-3-4 (a third of a three-step US division); no counter values in our text"


def steps_of(vals):
    return [{"attack": a, "defense": d, "move": m} for a, d, m in vals]


def ordinal_id(name):
    return "".join(ch for ch in name if ch.isdigit())


def allied(name, nation, start):
    if nation == "French":
        uid = f"fr-{ordinal_id(name) or name.lower()}-div"
        vals, prov, formation = FRENCH_VALUES, FR_PROV, "French Army"
    else:
        uid = f"us-{ordinal_id(name)}-div"
        three = name in THREE_STEP
        vals = US_THREE_STEP_VALUES if three else US_VALUES
        prov = US_THREE_PROV if three else US_PROV
        formation = "US Army"
    return {
        "id": uid, "side": "a", "name": name, "formation": formation, "size": "XX", "type": "infantry",
        "kind": "leg", "steps": steps_of(vals), "start": start, "provenance": prov,
    }


# 19.2 Allied starting units.
ALLIED_START = [
    ("3rd", "US"), ("4th", "US"), ("5th", "US"), ("28th", "US"), ("32nd", "US"), ("33rd", "US"),
    ("35th", "US"), ("37th", "US"), ("77th", "US"), ("78th", "US"), ("80th", "US"), ("91st", "US"),
    ("92nd", "US"), ("Belrupt", "French"),
]
# 19.3 Allied reinforcements, as printed ("29th Division (French), 33rd Division (French)").
ALLIED_REINF = [
    ("Oct 2-3", [("1st", "US")]),
    ("Oct 4-5", [("42nd", "US")]),
    ("Oct 6-7", [("29th", "French"), ("33rd", "French"), ("82nd", "US")]),
    ("Oct 14-15", [("26th", "US")]),
    ("Oct 18-19", [("89th", "US")]),
    ("Oct 20-21", [("79th", "US"), ("90th", "US")]),
    ("Nov 1-2", [("81st", "US"), ("2nd", "US")]),
]

# 19.4-19.6 German divisions: printed name, printed full-strength values, depleted flag.
GERMAN_STELLUNG = [
    ("1st [A]", "4-5-4", False), ("1st [G]", "8-9-4", False), ("2nd [L]", "4-6-4", False),
    ("3rd [G]", "10-6-4", False), ("5th [BR]", "7-6-4", False), ("5th [G]", "6-8-4", False),
    ("5th [L]", "2-6-4", False), ("7th [R]", "7-5-4", True), ("8th [L]", "4-4-4", False),
    ("9th [L]", "4-5-4", False), ("13th [L]", "2-3-4", False), ("15th", "7-8-4", False),
    ("33rd", "7-9-3", True), ("35th [A]", "4-4-4", False), ("37th", "9-9-5", False),
    ("76th [R]", "6-8-4", False), ("115th", "5-6-4", False), ("123rd", "6-7-4", False),
    ("255th", "6-6-4", False), ("[AR]", "4-4-4", False),
]
GERMAN_RESERVE = [
    ("15th [A]", "4-4-4", False), ("106th [A]", "4-4-4", False), ("108th", "6-5-4", False),
    ("236th", "6-6-4", False),
]
GERMAN_REINF = [
    ("Sep 28-29", [("52nd [R]", "11-11-4", False), ("53rd [R]", "4-5-2", False)]),
    ("Oct 2-3", [("28th [R]", "10-10-5", False), ("37th [A]", "2-3-4", False)]),
    ("Oct 4-5", [("195th", "9-9-4", False), ("38th [A]", "3-4-4", False)]),
    ("Oct 6-7", [("228th", "5-6-4", False), ("41st", "6-8-4", False), ("204th", "3-5-4", False)]),
    ("Oct 8-9", [("45th [R]", "6-5-3", True), ("192nd", "5-5-4", False), ("32nd", "4-5-3", False),
                 ("199th", "8-8-4", False)]),
    ("Oct 12-13", [("107th", "5-5-8", False)]),
    ("Oct 14-15", [("1st [L]", "5-5-4", False)]),
    ("Oct 20-21", [("88th", "6-6-4", False)]),
    ("Oct 30-31", [("31st", "5-6-4", False)]),
    ("Nov 1-2", [("25th", "8-5-3", False), ("117th", "7-6-3", True)]),
    ("Nov 3-4", [("10th", "4-3-3", False)]),
]


def depleted(v):
    return max(1, v // 2)


def german(name, printed, dep, start, rule):
    a, d, m = (int(x) for x in printed.split("-"))
    code = name.split("[")[1].rstrip("]").lower() if "[" in name else ""
    number = ordinal_id(name)
    uid = "ger-" + "-".join(p for p in (number, code) if p) + "-div"
    austro = code == "a"
    dep_vals = (depleted(a), depleted(d), m)
    flag = {"19.6": "arrives depleted", "19.4": "set up depleted"}.get(rule, "")
    prov = (f"printed ({rule}): full-strength side {a}-{d}-{m}"
            + (f", {flag}" if dep else "")
            + f"; stand-in: depleted side {dep_vals[0]}-{dep_vals[1]}-{dep_vals[2]} (not in our text: "
            "half the printed strengths, rounded down, at least 1, same MA)")
    if austro:
        prov += "; [A] read as Austro-Hungarian, the German-allied units of 13.3"
    u = {
        "id": uid, "side": "b", "name": name,
        "formation": "Austro-Hungarian Army" if austro else "German Army",
        "size": "XX", "type": "infantry", "kind": "leg",
        "steps": steps_of([(a, d, m), dep_vals]), "start": start, "provenance": prov,
    }
    if dep:
        u["start_depleted"] = 1
    return u


units = []
for name, nation in ALLIED_START:
    units.append(allied(name, nation, {"zone": ALLIED_ZONE_NAME}))
for label, group in ALLIED_REINF:
    for name, nation in group:
        units.append(allied(name, nation, {"reinforcement": {"turn": turn_of(label), "entry": SOUTH_ENTRY}}))
THREE_STEP_IDS = [u["id"] for u in units if u["side"] == "a" and u["formation"] == "US Army" and u["name"] in THREE_STEP]
assert THREE_STEP_IDS == ["us-4-div", "us-32-div", "us-33-div", "us-79-div"], THREE_STEP_IDS

BRIGADE_COUNT = 8
BRIGADE_IDS = [f"us-bde-{i}" for i in range(1, BRIGADE_COUNT + 1)]
for i, bid in enumerate(BRIGADE_IDS, 1):
    units.append({
        "id": bid, "side": "a", "name": f"Bde {i}", "formation": "US Army", "size": "X", "type": "infantry",
        "kind": "leg", "tags": ["brigade"], "steps": steps_of(BRIGADE_VALUES), "start": "off_map",
        "provenance": BDE_PROV,
    })
for name, printed, dep in GERMAN_STELLUNG:
    units.append(german(name, printed, dep, {"zone": STELLUNG_ZONE}, "19.4"))
for name, printed, dep in GERMAN_RESERVE:
    units.append(german(name, printed, dep, {"zone": RESERVE_ZONE_NAME}, "19.5"))
for label, group in GERMAN_REINF:
    for name, printed, dep in group:
        units.append(german(name, printed, dep,
                            {"reinforcement": {"turn": turn_of(label), "entry": GERMAN_ENTRY_IDS}}, "19.6"))
ids = [u["id"] for u in units]
assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
assert len(GERMAN_STELLUNG) == 20 and len(GERMAN_RESERVE) == 4

# ---------------------------------------------------------------------------------
# Tracks.

# 17.1 Artillery Track: turn 1 "8/4" is printed; the rest is stand-in, tapering as the
# guns moved forward over broken ground and German ammunition ran short. Every entry
# shares out the 12 bombardment markers (11.1).
ARTILLERY = [(8, 4)] + [(6, 3)] * 5 + [(5, 3)] * 6 + [(5, 2)] * 6 + [(4, 2)] * 6
assert len(ARTILLERY) == 24 and all(a + b <= 12 for a, b in ARTILLERY)
AIRCRAFT = 2

meuse_params = {
    "artillery": [{"a": a, "b": b} for a, b in ARTILLERY],
    "artillery_provenance": (
        "printed: turn 1 (Sep 26/27) 8/4 (17.1) and the 12 bombardment markers (11.1); stand-in: turns 2-24, "
        "tapering 6/3 (turns 2-6), 5/3 (7-12), 5/2 (13-18), 4/2 (19-24), never more than the 12 markers; "
        "the number of US aircraft markers (11.1 names them in the plural but not their count): 2"),
    "bombardment_markers": 12,
    "aircraft": AIRCRAFT,
    "three_step_divisions": THREE_STEP_IDS,
    "brigades": BRIGADE_IDS,
    "brigade_provenance": (
        "stand-in: 8 brigade chits. The counter mix is not in our text. Breaking down all four three-step "
        "divisions (4th, 32nd, 33rd, 79th) at full strength would need 12 (13.2), and 13.2 provides for "
        "running short ('if there are not enough brigade units in the counter mix'), so the mix holds fewer; "
        "8 covers the third step of all four divisions (13.1) plus one full and one depleted breakdown."),
    "sedan": hid(*SEDAN),
    "stellung_line": [hid(*h) for h in STELLUNG],
    "allied_replacement_entry": [hid(*h) for h in ALLIED_REPLACEMENT],
    "german_replacement_entry": [hid(*h) for h in GERMAN_REPLACEMENT],
    "bombardment_hit_max": 3,
    "bombardment_modifiers": [
        {"terrain": "clear", "modifier": 0},
        {"terrain": "woods", "modifier": 1},
        {"terrain": "rise", "modifier": 1},
        {"terrain": "second-tier", "modifier": 1},
        {"terrain": "town", "modifier": 2},
        {"terrain": "stellung", "modifier": 2},
        {"terrain": "fortification", "modifier": 3},
        {"terrain": "fortress", "modifier": 3},
    ],
    "trench_terrains": ["stellung", "second-tier", "fortification"],
    "fortification_terrain": "fortification",
    "fortress_terrains": ["fortress"],
    "forest_terrains": ["woods"],
    "woods_terrain": "woods",
    "lost_battalion_line": "woods-lost-battalion",
}

SUPPORT = {"a": 2, "b": 2}

scenario = {
    "id": "meuse-argonne",
    "name": "Meuse Argonne: The Final Offensive",
    "provenance": (
        "Printed (meuse-argonne.txt): the order of battle of 19.2-19.6, the German divisions' full-strength "
        "values and their set-up-depleted and arrives-depleted flags, the reinforcement turns, 24 two-day turns "
        "from Sep 26/27 to Nov 11 (11.1, 19.1), the first Artillery Track entry 8/4 and the 12 bombardment "
        "markers, the Integrated CRT terrain lines, the bombardment modifiers and table. Stand-in: the map "
        "(schematic, see map.provenance), terrain movement costs (clear 1, road 1/2, river +1, woods and rise 2, "
        "town and fortress 1; Stellung, 2nd Tier and Fortification +0 here, the Allied-only +1 of 14.3 being "
        "added by the exclusive rules), every Allied value, every German depleted side, the brigade chit count, "
        "the aircraft count, the Artillery Track after turn 1, and the support fire track and marker mix. "
        "Each unit's provenance says which of its values are printed."),
    "rules": {"meuse-argonne": meuse_params},
    "sides": {"a": {"name": "Allies"}, "b": {"name": "Germans"}},
    "map": {
        "layout": "odd-columns-down",
        "provenance": (
            "stand-in: schematic 30x40 map (no map is printed in our text). North is row 01, the Allies attack "
            "from the south edge; Sedan (fortress, 1803) near the north edge on the west bank of the Meuse, which "
            "runs north past Verdun (fortress, 2537), Dun-sur-Meuse and Stenay near the east side and leaves the "
            "north edge east of Sedan; the Argonne forest in the west between the map edge and the Aire, which "
            "turns west at Grandpré; three belts of German works, each one hex deep across the whole map: the "
            "Stellung line (southernmost, rows 29-31, dividing the set-up areas, 11.2/11.5), the 2nd Tier Trench "
            "(Kriemhilde, through Grandpré and Romagne) and the Fortification belt (Freya, through Buzancy); "
            "bridges wherever a road crosses a river; towns on the north and east edges for German "
            "reinforcements (19.6). The trench hexside markings are drawing aids only; the hex terrains carry "
            "the effects (14.2)."),
        "hexes": hexes,
        "hexsides": hexsides,
        "friendly_edges": {"a": [hid(*h) for h in SOUTH_EDGE], "b": [hid(*h) for h in NORTH_EDGE]},
    },
    "terrain": {"hex": HEX_TERRAIN, "hexside": HEXSIDE_TERRAIN},
    "crt": {
        "provenance": (
            "F&M system CRT grid per ../shared/rules/README.md: rows 1-2 and row 3 columns 4-12 printed, row 3 "
            "columns 2-3 follow the one-column shift; rows 4-6 are stand-in (the shift continued, leftmost cells "
            "(A)). Terrain lines and their first differentials are the printed Meuse Argonne Integrated CRT, one "
            "line per printed terrain name; each line labels the grid from column 1 (README: a column-shift "
            "table). The copy's per-line cell lists right-align every line on the grid; their values agree with "
            "the grid's rows, but that alignment is not followed (it would make every line give the same result "
            "at the same differential, against 8.2.2 and 18.1)."),
        "grid": GRID,
        "lines": [crt_line(i, n, m) for i, n, m in LINES],
    },
    "units": units,
    "setup": {
        "order": ["a", "b"],
        "zones": {
            ALLIED_ZONE_NAME: [hid(*h) for h in ALLIED_ZONE],
            STELLUNG_ZONE: [hid(*h) for h in STELLUNG],
            RESERVE_ZONE_NAME: [hid(*h) for h in RESERVE_ZONE],
        },
    },
    "turns": [{"name": n, "support": dict(SUPPORT)} for n in TURN_NAMES],
    "support_markers": {"a": [1, 2], "b": [1, 2]},
    "support_provenance": (
        "stand-in: the system support fire track and marker mix are not printed for this game (17.4 only says "
        "normal support fire markers exist beside the bombardment markers); 2/2 every turn from a mix of +1 and "
        "+2 per side. Names of the turns are printed (11.1, 19.1)."),
    "first_player": "a",
    # 15.2 H-Hour: the game begins with the Allied combat phase of turn 1. The artillery
    # bombardment that closes the movement phase (17.2) is played first, so the 8
    # markers and the gas of turn 1 (17.7) can be used: see docs/rulings.md.
    "start": {"turn": 1, "phase": "bombardment"},
    "skip_phases": [],
    "victory": {
        "conditions": [{"type": "enter_hex", "side": "a", "hexes": [hid(*SEDAN)]}],
        "otherwise": "b",
    },
}

with open("fm-core/scenarios/meuse-argonne.json", "w") as f:
    json.dump(scenario, f, indent=1, ensure_ascii=False)
    f.write("\n")
