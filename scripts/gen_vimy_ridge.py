#!/usr/bin/env python3
"""Writes fm-core/scenarios/vimy-ridge.json: Vimy Ridge: Arras Diversion.

Printed (../shared/rules/vimy-ridge.txt 10.0-21.0 and charts): 13 peak hexes (12.1), the two
town hexes of Petit Vimy with the German supply hex 1534 (12.1), the 12 Vimy town hexes
(12.1), 11 turns from 9 April (Morning) (11.1, 20.1) of Morning, Day and Evening turns
(10.3), 13 bombardment markers (11.1), the second Artillery Track entry "8/5" (17.1), the
Integrated CRT lines Peak (-1) and "Trench hexside, Woods" (-2), the Artillery Bombardment
Modifiers and the WWI Bombardment Results Table, the division names (19.1; the Canadian
Corps, 10.1) and that every unit is a leg infantry battalion (10.3).

Stand-in (not in our text, see ../shared/rules/README.md): the map (a schematic: the
Souchez river along the north, the Allied trench line and No Man's Land in the west, three
German trench lines, the ridge north-south through the middle, Petit Vimy, La Folie Woods
and Vimy in the south-east), every counter value, the battalions of each division (the
historical order of battle), the division colours, the Artillery Track except turn 2, the
aircraft count, the support fire track and marker mix, the CRT lines Town, Hill and Clear,
the terrain movement costs. Run from the repo root; the output is deterministic.
"""
import json

from hexgrid import GRID, adjacent, crt_line, distance, hid, key_of, neighbors, standard_labels

COLS, ROWS = 32, 40

# ---------------------------------------------------------------------------------
# Hex geometry (odd columns sit half a hex lower, as in gen_meuse_argonne.py).


def on_map(h):
    return 1 <= h[0] <= COLS and 1 <= h[1] <= ROWS


def map_neighbors(h):
    return [n for n in neighbors(*h) if on_map(n)]


ALL_HEXES = [(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]


def by_rows(spec):
    """{(first_row, last_row): value} -> value for every row 1..ROWS."""
    out = {}
    for (lo, hi), v in spec.items():
        for r in range(lo, hi + 1):
            assert r not in out, r
            out[r] = v
    assert sorted(out) == list(range(1, ROWS + 1)), sorted(out)
    return out


# ---------------------------------------------------------------------------------
# The map (stand-in schematic). North is row 01, east is column 32; the Canadians attack
# east from the west edge.

# The Souchez river: in column c the hexes of rows 1..RIVER_NORTH[c] lie north of it. Its
# hexsides run west to east across the whole map, wandering between rows 4 and 6.
RIVER_NORTH = {}
for c in range(1, COLS + 1):
    RIVER_NORTH[c] = 4 if c <= 7 else 5 if c <= 18 else 6 if c <= 26 else 5


def south_of_river(h):
    return h[1] > RIVER_NORTH[h[0]]


# Trench lines, each the west/east boundary "column <= W[row]" drawn as trench hexsides
# between two hexes south of the river, so each runs from the river to the south edge.
ALLIED_LINE = by_rows({(1, 13): 6, (14, 19): 7, (20, 27): 6, (28, 31): 5, (32, 40): 6})
GERMAN_FRONT = by_rows({(1, 13): 8, (14, 19): 9, (20, 27): 8, (28, 31): 7, (32, 36): 8, (37, 40): 7})
GERMAN_SECOND = by_rows({(1, 13): 11, (14, 27): 12, (28, 31): 11, (32, 40): 11})
GERMAN_THIRD = by_rows({(1, 12): 17, (13, 24): 16, (25, 31): 17, (32, 40): 18})
LINES = [ALLIED_LINE, GERMAN_FRONT, GERMAN_SECOND, GERMAN_THIRD]


def west_of(line, h):
    return h[0] <= line[h[1]]


# Each line stays clear of the next: no hex west of one line touches a hex east of the
# next, so No Man's Land is at least one hex wide and the German lines never merge.
for west_line, east_line in zip(LINES, LINES[1:]):
    for h in ALL_HEXES:
        if not west_of(west_line, h):
            continue
        for n in map_neighbors(h):
            assert west_of(east_line, n), (h, n)
for r in range(1, ROWS + 1):
    assert 1 <= GERMAN_FRONT[r] - ALLIED_LINE[r] <= 3, r  # No Man's Land 1-3 hexes wide
    assert 3 <= GERMAN_SECOND[r] - GERMAN_FRONT[r] <= 4, r
    assert 16 <= GERMAN_THIRD[r] <= 18, r
    assert ALLIED_LINE[r] in (5, 6, 7), r

ALLIED_ZONE = [h for h in ALL_HEXES if south_of_river(h) and west_of(ALLIED_LINE, h)]
GERMAN_ZONE = [h for h in ALL_HEXES if south_of_river(h) and not west_of(ALLIED_LINE, h)]
NO_MANS_LAND = {h for h in GERMAN_ZONE if west_of(GERMAN_FRONT, h)}

terrain = {h: "clear" for h in ALL_HEXES}
names = {}

# The ridge: a band of hills along a crest that runs north-south through columns 12-13,
# with the 13 peaks along the crest (12.1).
CREST = by_rows({(1, 14): 12, (15, 40): 13})
HILLS = {h for h in ALL_HEXES if south_of_river(h) and CREST[h[1]] - 2 <= h[0] <= CREST[h[1]] + 3}
PEAKS = [(12, 7), (12, 10), (12, 13), (13, 16), (13, 19), (13, 22), (13, 24), (13, 26), (13, 28), (13, 30),
         (13, 32), (13, 35), (13, 37)]
PEAK_NAMES = {(12, 7): "The Pimple", (13, 22): "Hill 145", (13, 35): "Hill 135"}
assert len(PEAKS) == 13 and len(set(PEAKS)) == 13
assert all(p[0] == CREST[p[1]] for p in PEAKS)

# Petit Vimy: two town hexes at the east foot of the ridge; 1534 is the German supply hex.
SUPPLY = (15, 34)
PETIT_VIMY = [SUPPLY, (16, 34)]
assert adjacent(*PETIT_VIMY)

# Vimy: 12 town hexes in the plain east of Petit Vimy, beyond the ridge.
VIMY = [(c, r) for c in (19, 20, 21) for r in (34, 35, 36, 37)]
assert len(VIMY) == 12

# Woods. La Folie Woods lie on the east slope of the ridge, north and north-west of Petit
# Vimy (18.2: the woods within seven hexes of it); the other woods are farther away.
LA_FOLIE = [(14, 29), (15, 29), (14, 30), (15, 30), (16, 30), (15, 31), (16, 31)]
OTHER_WOODS = {
    "Bois en Hache": [(11, 2), (12, 2), (12, 3)],  # north of the Souchez
    "Bois de Givenchy": [(14, 8), (14, 9), (15, 9)],
    "Bois de Bonval": [(22, 27), (23, 27), (22, 28)],
    "Farbus Wood": [(25, 38), (26, 38), (25, 39), (26, 39)],
}
LA_FOLIE_RANGE = 7
for h in LA_FOLIE:
    assert min(distance(h, p) for p in PETIT_VIMY) <= LA_FOLIE_RANGE, h
    assert h[1] < SUPPLY[1] and h[0] <= 16, h
for group in OTHER_WOODS.values():
    for h in group:
        assert min(distance(h, p) for p in PETIT_VIMY) > LA_FOLIE_RANGE, h

OTHER_TOWNS = {
    (4, 6): "Souchez",
    (3, 30): "Neuville-St-Vaast",
    (18, 9): "Givenchy-en-Gohelle",
    (13, 39): "Thélus",
    (21, 40): "Farbus",
}

for h in HILLS:
    terrain[h] = "hill"
for h in NO_MANS_LAND:
    terrain[h] = "no-mans-land"
for h in PEAKS:
    assert h in HILLS and h not in NO_MANS_LAND, h
    terrain[h] = "peak"
for h in LA_FOLIE:
    terrain[h] = "woods"
names[(15, 30)] = "La Folie Wood"
for n, group in OTHER_WOODS.items():
    for h in group:
        assert terrain[h] in ("clear", "hill"), (n, h)
        terrain[h] = "woods"
    names[group[0]] = n
for h in PETIT_VIMY + VIMY:
    assert terrain[h] in ("clear", "hill"), h
    terrain[h] = "town"
names[SUPPLY] = "Petit Vimy (German supply hex)"
names[PETIT_VIMY[1]] = "Petit Vimy"
names[VIMY[5]] = "Vimy"
for h, n in OTHER_TOWNS.items():
    assert terrain[h] in ("clear", "hill"), (n, h)
    terrain[h] = "town"
    names[h] = n
for h, n in PEAK_NAMES.items():
    names[h] = n

# Geography checks.
assert all(terrain[h] == "peak" for h in PEAKS)
assert sorted(h for h in ALL_HEXES if terrain[h] == "peak") == sorted(PEAKS)
assert all(h[0] > max(p[0] for p in PEAKS) for h in VIMY)
assert all(not west_of(GERMAN_THIRD, h) for h in VIMY)
for h in OTHER_TOWNS:
    assert all(n not in VIMY and n not in PETIT_VIMY for n in map_neighbors(h)), OTHER_TOWNS[h]
assert all(south_of_river(h) for h in list(OTHER_TOWNS) + PETIT_VIMY + VIMY + PEAKS + LA_FOLIE)
assert (4, 6) in ALLIED_ZONE and (3, 30) in ALLIED_ZONE  # Souchez, Neuville-St-Vaast
assert not any(south_of_river(h) for h in OTHER_WOODS["Bois en Hache"])

# Hexsides: the river between the hexes north and south of it; trench lines between two
# hexes south of it.
sides = {}


for h in ALL_HEXES:
    for n in map_neighbors(h):
        if h >= n:
            continue
        if south_of_river(h) != south_of_river(n):
            sides[key_of(h, n)] = ["river"]
        elif south_of_river(h):
            if any(west_of(line, h) != west_of(line, n) for line in LINES):
                sides[key_of(h, n)] = ["trench"]
ALLIED_TRENCH_SIDES = {k for k, f in sides.items()
                       if f == ["trench"] and west_of(ALLIED_LINE, k[0]) != west_of(ALLIED_LINE, k[1])}
RIVER_COLS = {h[0] for k, f in sides.items() if f == ["river"] for h in k}
assert RIVER_COLS == set(range(1, COLS + 1))
assert {h[1] for k in ALLIED_TRENCH_SIDES for h in k} >= set(range(6, ROWS + 1))

# 11.3: the Allied trench hexes, on the Allied side of the Allied trench line.
ALLIED_TRENCH_HEXES = sorted({h for k in ALLIED_TRENCH_SIDES for h in k if west_of(ALLIED_LINE, h)})
assert all(h in ALLIED_ZONE for h in ALLIED_TRENCH_HEXES)

hexsides = [{"hexes": [hid(*a), hid(*b)], "features": f} for (a, b), f in sorted(sides.items())]
hexes = []
for h in ALL_HEXES:
    d = {"id": hid(*h), "terrain": [terrain[h]]}
    if h in names:
        d["name"] = names[h]
    hexes.append(d)

WEST_EDGE = [(1, r) for r in range(1, ROWS + 1)]
EAST_EDGE = [(COLS, r) for r in range(1, ROWS + 1)]

# ---------------------------------------------------------------------------------
# Terrain effects and the Integrated CRT.

HEX_TERRAIN = [
    {"id": "clear", "name": "Clear", "move": "1", "crt_line": "clear"},
    {"id": "no-mans-land", "name": "No Man's Land", "move": "2", "crt_line": "clear"},
    {"id": "hill", "name": "Hill", "move": "2", "crt_line": "hill"},
    {"id": "peak", "name": "Peak", "move": "2", "crt_line": "peak"},
    {"id": "woods", "name": "Woods", "move": "2", "crt_line": "trench-woods"},
    {"id": "town", "name": "Town", "move": "1", "crt_line": "town"},
]
HEXSIDE_TERRAIN = [
    # 14.2-14.3: the trench line's CRT line; no movement effect.
    {"id": "trench", "name": "Trench line", "move": "+0", "crt_line": "trench-woods", "all_attackers": True},
    {"id": "river", "name": "River (Souchez)", "move": "+1"},
]

CRT_LINES = [
    ("peak", "Peak", -1),
    ("trench-woods", "Trench hexside, Woods", -2),
    ("town", "Town", -3),
    ("hill", "Hill", -4),
    ("clear", "Clear, No Man's Land", -5),
]

# The printed cells of the Vimy Integrated CRT (rows 1 and 2, first columns).
PRINTED = [["(A)", "A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
           ["(A)", "(A)", "A3", "A2", "•"]]
for die, cells in enumerate(PRINTED):
    assert GRID[die][:len(cells)] == cells, die
# The printed Peak line reads -1, 0, +1, +2,+3, +4,+5, +6,+7, +8,+9, +10 "left to right
# as printed": over grid columns 1-8 (README: a column-shift table).
assert standard_labels(-1) == ["-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]
assert standard_labels(-2)[:4] == ["-2", "-1", "0", "+1"]

# ---------------------------------------------------------------------------------
# Order of battle (stand-in values; 10.3: all leg infantry battalions).

ALLIED_ZONE_NAME, GERMAN_ZONE_NAME = "allied", "german"
CDN_FULL, CDN_DEPLETED = (3, 2, 4), (2, 1, 4)
GER_FULL, GER_DEPLETED = (2, 3, 4), (1, 2, 4)


def steps_of(vals):
    return [{"attack": a, "defense": d, "move": m} for a, d, m in vals]


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# The Canadian Corps at Vimy: four divisions of three brigades of four battalions.
CANADIANS = [
    ("1st Canadian Division", 1, [(1, [1, 2, 3, 4]), (2, [5, 7, 8, 10]), (3, [13, 14, 15, 16])]),
    ("2nd Canadian Division", 2, [(4, [18, 19, 20, 21]), (5, [22, 24, 25, 26]), (6, [27, 28, 29, 31])]),
    ("3rd Canadian Division", 3, [(7, ["RCR", "PPCLI", 42, 49]), (8, ["1 CMR", "2 CMR", "4 CMR", "5 CMR"]),
                                  (9, [43, 52, 58, 116])]),
    ("4th Canadian Division", 4, [(10, [44, 46, 47, 50]), (11, [54, 75, 87, 102]), (12, [38, 72, 73, 78])]),
]
GERMANS = [
    ("16th Bavarian Division", "16b", "BIR", "Bavarian Infantry Regiment", [11, 14, 21]),
    ("79th Reserve Division", "79r", "RIR", "Reserve Infantry Regiment", [261, 262, 263]),
    ("1st Bavarian Reserve Division", "1br", "BRIR", "Bavarian Reserve Infantry Regiment", [1, 2, 3]),
]

units = []
for formation, div, brigades in CANADIANS:
    for bde, bns in brigades:
        for bn in bns:
            if isinstance(bn, int):
                uid, name = f"cdn-{div}d-{bn}bn", f"{ordinal(bn)} Bn"
            elif bn.endswith("CMR"):
                n = int(bn.split()[0])
                uid, name = f"cdn-{div}d-{n}cmr", f"{ordinal(n)} CMR"
            else:
                uid, name = f"cdn-{div}d-{bn.lower()}", bn
            units.append({
                "id": uid, "side": "a", "name": name, "formation": formation, "size": "II", "type": "infantry",
                "kind": "leg", "steps": steps_of([CDN_FULL, CDN_DEPLETED]), "start": {"zone": ALLIED_ZONE_NAME},
                "provenance": (
                    f"stand-in: values {'-'.join(map(str, CDN_FULL))} full, {'-'.join(map(str, CDN_DEPLETED))} "
                    f"depleted (no counter values in our text); the battalion and its place in the "
                    f"{ordinal(bde)} Canadian Brigade are the historical order of battle, not printed (10.3 prints "
                    "only that every unit is a leg infantry battalion)"),
            })
for formation, code, abbr, long_name, regiments in GERMANS:
    for reg in regiments:
        for roman in ("I", "II", "III"):
            units.append({
                "id": f"ger-{code}-{reg}-{roman.lower()}", "side": "b", "name": f"{roman}/{reg} {abbr}",
                "formation": formation, "size": "II", "type": "infantry", "kind": "leg",
                "steps": steps_of([GER_FULL, GER_DEPLETED]), "start": {"zone": GERMAN_ZONE_NAME},
                "provenance": (
                    f"printed: the division (19.1); stand-in: values {'-'.join(map(str, GER_FULL))} full, "
                    f"{'-'.join(map(str, GER_DEPLETED))} depleted (no counter values in our text), and the "
                    f"battalion of {long_name} {reg} (the historical order of battle, not printed)"),
            })
ids = [u["id"] for u in units]
assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
assert sum(u["side"] == "a" for u in units) == 48 and sum(u["side"] == "b" for u in units) == 27
assert len(ALLIED_ZONE) >= 48 and len(GERMAN_ZONE) >= 27

DIVISIONS = [
    ("1st Canadian Division", "a", "red"),
    ("2nd Canadian Division", "a", "blue"),
    ("3rd Canadian Division", "a", "grey"),
    ("4th Canadian Division", "a", "green"),
    ("16th Bavarian Division", "b", "light blue"),
    ("79th Reserve Division", "b", "field grey"),
    ("1st Bavarian Reserve Division", "b", "white"),
]
assert {d[0] for d in DIVISIONS} == {u["formation"] for u in units}

# ---------------------------------------------------------------------------------
# Tracks.

TURN_NAMES = []
for day in (9, 10, 11, 12):
    for part in ("Morning", "Day", "Evening"):
        TURN_NAMES.append(f"{day} April ({part})")
TURN_NAMES = TURN_NAMES[:11]
assert TURN_NAMES[0] == "9 April (Morning)" and TURN_NAMES[-1] == "12 April (Day)"
NIGHTS = {i + 1 for i, n in enumerate(TURN_NAMES) if n.endswith("(Evening)")}
assert NIGHTS == {3, 6, 9}

# 17.1 Artillery Track: turn 2 "8/5" is printed; the rest is stand-in.
ARTILLERY = [(10, 3), (8, 5), (4, 3), (7, 5), (7, 5), (3, 3), (6, 5), (6, 5), (3, 3), (5, 5), (5, 5)]
BOMBARDMENT_MARKERS = 13
assert len(ARTILLERY) == 11 and ARTILLERY[1] == (8, 5)
assert all(a + b <= BOMBARDMENT_MARKERS for a, b in ARTILLERY)
assert all(ARTILLERY[t - 1][0] < min(ARTILLERY[t - 2][0], ARTILLERY[t][0]) for t in NIGHTS)
AIRCRAFT = 4

DAY_SUPPORT, NIGHT_SUPPORT = {"a": 3, "b": 2}, {"a": 1, "b": 1}

vimy_params = {
    "artillery": [{"a": a, "b": b} for a, b in ARTILLERY],
    "artillery_provenance": (
        "printed: turn 2 (9 April (Day)) 8/5 (17.1) and the 13 bombardment markers (11.1); stand-in: every "
        "other entry (turn 1 10/3, the opening barrage; night turns 3, 6 and 9 at 4/3, 3/3 and 3/3, 13.1 "
        "'reduced allotments'; the Allied day allotment tapering, turns 4-5 7/5, 7-8 6/5, 10-11 5/5), never "
        "more than the 13 markers"),
    "bombardment_markers": BOMBARDMENT_MARKERS,
    "aircraft": AIRCRAFT,
    "aircraft_provenance": (
        "stand-in: 4 Allied aircraft markers. 11.1 names them in the plural without a count; 18.1 removes one "
        "on each of the three night turns, so 4 leaves one for the last day turns."),
    "divisions": [{"formation": f, "side": s, "colour": c} for f, s, c in DIVISIONS],
    "german_setup_order": [g[0] for g in GERMANS],
    "peaks": [hid(*h) for h in PEAKS],
    "petit_vimy": [hid(*h) for h in PETIT_VIMY],
    "supply_hex": hid(*SUPPLY),
    "vimy": [hid(*h) for h in VIMY],
    "allied_trench_hexes": [hid(*h) for h in ALLIED_TRENCH_HEXES],
    "no_mans_land_terrain": "no-mans-land",
    "woods_terrain": "woods",
    "peak_terrain": "peak",
    "trench_hexside": "trench",
    "los_blocking_terrains": ["no-mans-land", "hill", "peak", "woods", "town"],
    "observation_range": 10,
    "la_folie_range": LA_FOLIE_RANGE,
    "bombardment_hit_max": 2,
    "bombardment_modifiers": [
        {"terrain": "clear", "modifier": 0},
        {"terrain": "no-mans-land", "modifier": 1},
        {"terrain": "town", "modifier": 2},
        {"terrain": "woods", "modifier": 2},
    ],
    "trench_modifier": 3,
    "replacements_per_night": 2,
    "victory_points_to_win": 2,
    "easternmost_units": 3,
}

scenario = {
    "id": "vimy-ridge",
    "name": "Vimy Ridge: Arras Diversion",
    "provenance": (
        "Printed (vimy-ridge.txt): 13 peak hexes, Petit Vimy's two town hexes with the German supply hex 1534 "
        "and the 12 Vimy town hexes (12.1), 11 turns from 9 April (Morning) (11.1, 20.1) of Morning, Day and "
        "Evening turns (10.3), the 13 bombardment markers (11.1), the turn-2 Artillery Track entry 8/5 (17.1), "
        "the Integrated CRT lines Peak (-1) and Trench hexside, Woods (-2), the Artillery Bombardment Modifiers "
        "and Bombardment Results Table, the division names (19.1; the Canadian Corps, 10.1), leg infantry "
        "battalions only (10.3), no reinforcements (19.2, 20.3). Stand-in: the map (schematic, see "
        "map.provenance; the hex numbers of the peaks, Petit Vimy's second hex and Vimy are placed on it), "
        "terrain movement costs (clear and town 1, No Man's Land, hill, peak and woods 2, river +1, trench "
        "+0 per 14.3), the CRT lines Town, Hill and Clear/No Man's Land, every counter value (Canadian 3-2-4 / "
        "2-1-4, German 2-3-4 / 1-2-4), the battalions of each division (the historical order of battle), the "
        "division colours of 18.3 (1st Canadian red, 2nd blue, 3rd French grey, 4th green; 16th Bavarian light "
        "blue, 79th Reserve field grey, 1st Bavarian Reserve white), the Artillery Track except turn 2, the "
        "aircraft count, and the support fire track and marker mix. Ruling: the Evening turns (3, 6, 9) are the "
        "moon (night) turns, 10.3 making Evening the six-to-12-hour turn that covers the night. Each unit's "
        "provenance says which of its values are printed."),
    "rules": {"vimy-ridge": vimy_params},
    "sides": {"a": {"name": "Allies (Canadian Corps)"}, "b": {"name": "Germans"}},
    "map": {
        "layout": "odd-columns-down",
        "provenance": (
            "stand-in: schematic 32x40 map (no map is printed in our text). North is row 01, east is column 32 "
            "(the easternmost map edge of 11.6 and 12.1). The Souchez river runs west to east across the whole "
            "map as river hexsides between rows 04 and 07, bounding the set-up areas on the north (11.2, 11.5); "
            "the Allied trench line runs from the river to the south edge around the column 06/07 boundary "
            "(wending between 05/06 and 07/08), then "
            "No Man's Land (1-3 hexes wide, 14.1), the German front trench line, a second German line three or "
            "four columns further east and a third line along columns 16-18, all as trench hexsides from the "
            "river to the south edge (14.2). The ridge is a band of hills along a crest in columns 12-13 with the "
            "13 peaks on it (The Pimple 1207 in the north, Hill 145 1322 in the middle, Hill 135 1335 in the "
            "south); Petit Vimy (1534, the printed German supply hex, and 1634) at the ridge's east foot; La "
            "Folie Woods on the east slope north-west of it, within seven hexes (18.2); Vimy (12 town hexes, "
            "columns 19-21, rows 34-37) in the plain beyond; Bois en Hache, Bois de Givenchy, Bois de Bonval and "
            "Farbus Wood farther off; Souchez, Neuville-St-Vaast, Givenchy-en-Gohelle, Thélus and Farbus."),
        "hexes": hexes,
        "hexsides": hexsides,
        "friendly_edges": {"a": [hid(*h) for h in WEST_EDGE], "b": [hid(*h) for h in EAST_EDGE]},
    },
    "terrain": {"hex": HEX_TERRAIN, "hexside": HEXSIDE_TERRAIN},
    "crt": {
        "provenance": (
            "F&M system CRT grid per ../shared/rules/README.md: rows 1-2 and row 3 columns 4-12 printed, row 3 "
            "columns 2-3 follow the one-column shift; rows 4-6 are stand-in (the shift continued, leftmost cells "
            "(A)). The Vimy Integrated CRT prints rows 1-2 the same. Terrain lines: Peak (first differential -1) "
            "and Trench hexside, Woods (-2) are printed; the rest of the printed column is lost, so Town (-3), "
            "Hill (-4) and Clear, No Man's Land (-5) are stand-in per the README. Each line labels the grid from "
            "column 1, read left to right as printed (README: a column-shift table)."),
        "grid": GRID,
        "lines": [crt_line(i, n, m) if i in ("peak", "trench-woods") else
                  crt_line(i, n, m, provenance="stand-in: first differential per ../shared/rules/README.md (lost in the copy)")
                  for i, n, m in CRT_LINES],
    },
    "units": units,
    "setup": {
        "order": ["b", "a"],
        "zones": {
            ALLIED_ZONE_NAME: [hid(*h) for h in ALLIED_ZONE],
            GERMAN_ZONE_NAME: [hid(*h) for h in GERMAN_ZONE],
        },
    },
    "turns": [
        {"name": n, "support": dict(NIGHT_SUPPORT if i + 1 in NIGHTS else DAY_SUPPORT), "night": i + 1 in NIGHTS}
        for i, n in enumerate(TURN_NAMES)
    ],
    "support_markers": {"a": [1, 1, 2, 2, 3, 3], "b": [1, 1, 2, 2, 3]},
    "support_provenance": (
        "stand-in: the system support fire track and marker mix are not printed for this game (17.4 only says "
        "normal support fire markers with printed strengths exist beside the bombardment markers); 3 Allied / 2 "
        "German markers on day turns, 1 / 1 on the night turns (13.1 'reduced allotments'), drawn from a mix of "
        "+1, +1, +2, +2, +3, +3 (Allies) and +1, +1, +2, +2, +3 (Germans). The turn names are printed (11.1, "
        "15.2, 10.3); the night flags on the Evening turns are a ruling."),
    "first_player": "a",
    # 15.2 Zero Hour: the game begins with the Allied combat phase of turn 1; the turn-1
    # bombardment that closes the movement phase (17.2) is played first, as in Meuse
    # Argonne's R-MA-15.2.
    "start": {"turn": 1, "phase": "bombardment"},
    "skip_phases": [],
    "victory": {
        "conditions": [{"type": "annihilation", "side": "a"}],
        "otherwise": "b",
    },
}

with open("fm-core/scenarios/vimy-ridge.json", "w") as f:
    json.dump(scenario, f, indent=1, ensure_ascii=False)
    f.write("\n")
