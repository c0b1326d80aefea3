#!/usr/bin/env python3
"""Writes fm-core/scenarios/suez-1916.json: Suez 1916: The Ottomans Strike.

Printed (../shared/rules/suez-1916.txt Part I, 10.0-21.0, Terrain Effects Chart, Suez CRT):
the hex numbers of 11.2 and 12.4 (El Kab 0234, Kantara 0239, Ballybunion 0644, Gilban
Station 0936, Pelusium Station 1532, Romani 2031, Katia 2633, To Bir el Abd 3331, Hill 40
0637, Hill 70 0937, Dueidar 1336), the canal crossing 0139-0239 (14.1), the Terrain Effects
Chart costs, the Suez CRT lines Town/Trench (-3) and Hill/Village/Oasis (-4), the
deployment lines and counter counts of 11.2 and 11.4, the formations of 20.0, the fire
support markers with printed values, the VP table and result levels (12.3, 12.4), and every
number in 11.3, 11.5, 13.1, 15.1, 16.0, 17.1, 18.1-18.3 and 19.0.

Stand-in (see ../shared/rules/README.md): the map (a schematic built around the printed
hexes, described in map.provenance), which VP hexes are towns and which villages, every
counter value, the breakdown of the printed counter counts into counters (half-brigade
brigade groups and one combined machinegun counter per division, see the units'
provenance), which units are mobile, the values of the Ottoman and Austro-Hungarian
markers, of the six set-aside British markers and of the air unit, the CRT grid below the
printed rows and the Open/Sand/Marsh line. Run from the repo root; the output is
deterministic. `--show` prints an ASCII sketch of the map instead.
"""
import json
import sys

from hexgrid import GRID, adjacent, crt_line, distance, hid, key_of, line, neighbors, standard_labels

COLS, ROWS = 36, 46

# ---------------------------------------------------------------------------------
# Hex geometry: odd columns sit half a hex lower ("odd-columns-down", as in the other
# generators). Hex (c, r) is "ccrr". Any offset layout puts 0139 and 0239 side by side
# (same row, neighbouring columns); in this one 0139 touches 0239 and 0240.


def on_map(h):
    return 1 <= h[0] <= COLS and 1 <= h[1] <= ROWS


def map_neighbors(h):
    return [n for n in neighbors(*h) if on_map(n)]


def path(*waypoints):
    out = [waypoints[0]]
    for a, b in zip(waypoints, waypoints[1:]):
        out += line(a, b)[1:]
    assert len(set(out)) == len(out), out
    return out


ALL_HEXES = [(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]

# ---------------------------------------------------------------------------------
# The printed hexes (11.2, 12.4, 14.1).

EL_KAB, KANTARA, BALLYBUNION = (2, 34), (2, 39), (6, 44)
GILBAN, PELUSIUM, ROMANI = (9, 36), (15, 32), (20, 31)
KATIA, BIR_EL_ABD = (26, 33), (33, 31)
HILL_40, HILL_70, DUEIDAR = (6, 37), (9, 37), (13, 36)
KANTARA_WEST = (1, 39)  # 14.1: the other end of the only canal crossing
assert adjacent(KANTARA_WEST, KANTARA)

# ---------------------------------------------------------------------------------
# Water. North is row 01, east is column 36. Column 01 is the west bank of the Suez
# Canal, which runs as a hexside line between columns 01 and 02 down the whole map; the
# west bank is Lake Manzala north of row 30 and Lake Ballah south of row 41. The
# Mediterranean fills the north, its coast running south-east from the north edge at
# column 04 to row 25 by Romani; Lake Bardawil continues the water east of column 20,
# its south shore drifting north to row 22 at the east edge.


def water_rows(c):
    """Rows 1..water_rows(c) of column c (c >= 2) are sea or lake."""
    if c <= 3:
        return 0
    if c <= 20:
        return round(1.45 * (c - 3))
    return 25 - (c - 21) // 5


MANZALA_ROWS, BALLAH_ROWS = range(1, 30), range(42, ROWS + 1)
WATER = set()
for c, r in ALL_HEXES:
    if c == 1:
        if r in MANZALA_ROWS or r in BALLAH_ROWS:
            WATER.add((c, r))
    elif r <= water_rows(c):
        WATER.add((c, r))
LAND = [h for h in ALL_HEXES if h not in WATER]
WATER_NAMES = {(1, 15): "Lake Manzala", (1, 44): "Lake Ballah", (9, 3): "Mediterranean Sea", (29, 15): "Lake Bardawil"}
assert all(h in WATER for h in WATER_NAMES)

# ---------------------------------------------------------------------------------
# The railroad (13.3, 16.0): from Kantara north-east through Gilban Station and Pelusium
# Station to its 1916 railhead at Romani.

RAIL = path(KANTARA, GILBAN, PELUSIUM, ROMANI)
assert all(h not in WATER for h in RAIL)
assert RAIL[0] == KANTARA and RAIL[-1] == ROMANI and GILBAN in RAIL and PELUSIUM in RAIL
RAIL_TOP = {}  # the northernmost railroad row in each column
for c, r in RAIL:
    RAIL_TOP[c] = min(r, RAIL_TOP.get(c, ROWS))
assert sorted(RAIL_TOP) == list(range(2, 21))

# ---------------------------------------------------------------------------------
# In-hex terrain. Sand (the dunes of the Sinai) everywhere else.

terrain = {h: "sand" for h in LAND}
for h in WATER:
    terrain[h] = "all-sea-lake"
names = dict(WATER_NAMES)

# The plain of Tina: salt marsh between the coast and the railroad from the canal to
# Pelusium (cols 02-17), ending five rows north of the line; a strip of salt flats along
# the south shore of Lake Bardawil east of Katia.
MARSH = set()
for c in range(2, 18):
    south = RAIL_TOP[c] - 5
    for r in range(water_rows(c) + 1, south + 1):
        MARSH.add((c, r))
for c in range(27, COLS + 1):
    MARSH.add((c, water_rows(c) + 1))
names[(4, 20)] = "Tina Marsh"
names[(14, 24)] = "Pelusium Marsh"
assert (4, 20) in MARSH and (14, 24) in MARSH

# Open ground: the west bank, the hard flats between the marsh and the railroad, and the
# canal's east bank south of Kantara.
OPEN = {h for h in LAND if h[0] == 1}
for c in range(2, 16):
    for r in range(RAIL_TOP[c] - 4, RAIL_TOP[c] + 2):
        OPEN.add((c, r))
for c in range(2, 5):
    for r in range(40, ROWS + 1):
        OPEN.add((c, r))
for h in OPEN:
    assert h in LAND and h not in MARSH, h
    terrain[h] = "open"
for h in MARSH:
    assert h in LAND, h
    terrain[h] = "marsh"

# Hills and ridges: Hill 40 and Hill 70 (11.2); Katib Gannit at the south end of the
# Romani line, Wellington Ridge south of Romani, Mount Royston south-west of it (the
# battle's named heights); a few unnamed sand hills.
HILLS = {HILL_40: "Hill 40", HILL_70: "Hill 70", (22, 34): "Katib Gannit", (17, 34): "Mount Royston",
         (17, 35): None, (11, 40): None, (14, 42): None, (24, 39): None, (31, 34): None, (34, 41): None}
RIDGES = {(19, 33): None, (20, 33): "Wellington Ridge", (21, 33): None, (27, 37): None, (28, 37): None,
          (28, 38): None}
# Oases (wells): Dueidar (11.2) and the oases of the battle.
OASES = {DUEIDAR: "Dueidar", (21, 31): "Bir Etmaler", (17, 37): "Bir el Nuss", (23, 35): "Hod el Enna",
         (25, 37): "Hod um Ugba", (28, 31): "Er Rabah", (30, 30): "Oghratina", (29, 40): "Hamisah",
         (32, 36): "Mageibra"}
# Towns and villages: exactly the victory hexes of 12.4 (which are towns and which villages
# is not printed: the two bases, Kantara and the railhead at Romani, are towns).
TOWNS = {KANTARA: "Kantara", ROMANI: "Romani"}
VILLAGES = {EL_KAB: "El Kab", BALLYBUNION: "Ballybunion", GILBAN: "Gilban Station", PELUSIUM: "Pelusium Station",
            KATIA: "Katia", BIR_EL_ABD: "To Bir el Abd"}
for kind, group in (("hill", HILLS), ("ridge", RIDGES), ("oasis", OASES), ("town", TOWNS), ("village", VILLAGES)):
    for h, n in group.items():
        assert h in LAND and terrain[h] in ("sand", "open", "marsh"), (kind, h, terrain[h])
        terrain[h] = kind
        if n:
            names[h] = n
names[KANTARA_WEST] = "Kantara West"
names[(22, 26)] = "Mahemdia"
for h in RIDGES:
    assert any(n in RIDGES or n in HILLS for n in map_neighbors(h)), h
for h in list(HILLS) + list(RIDGES) + list(OASES):
    assert h not in RAIL, h

# ---------------------------------------------------------------------------------
# Tracks (hexside lines between the hexes they join).

TRACKS = {
    # The old caravan road: Kantara, Hill 70, Dueidar, Bir el Nuss, Hod el Enna, Katia,
    # Oghratina, on to Bir el Abd and the east edge.
    "caravan": path(KANTARA, (3, 40), HILL_70, DUEIDAR, (17, 37), (23, 35), KATIA, (30, 30), BIR_EL_ABD,
                    (36, 31)),
    # Romani to Katia by Bir Etmaler.
    "romani-katia": path(ROMANI, (21, 31), KATIA),
    # Along the canal bank north to El Kab, and south-east to Ballybunion.
    "el-kab": path(KANTARA, EL_KAB),
    "ballybunion": path(KANTARA, (3, 41), BALLYBUNION),
    # Hill 40 to Gilban Station.
    "hill-40": path(HILL_40, (7, 36), (8, 36), GILBAN),
    # Katia south-east by Hamisah to the east edge.
    "hamisah": path(KATIA, (29, 40), (36, 41)),
}
for n, p in TRACKS.items():
    for h in p:
        assert h in LAND and terrain[h] != "marsh", (n, h)


TRACK_SIDES = {key_of(a, b) for p in TRACKS.values() for a, b in zip(p, p[1:])}
RAIL_SIDES = {key_of(a, b) for a, b in zip(RAIL, RAIL[1:])}
assert not TRACK_SIDES & RAIL_SIDES, sorted(TRACK_SIDES & RAIL_SIDES)

# ---------------------------------------------------------------------------------
# British trenches (14.2), as hexside lines:
# - the Romani line held by the 52nd Division, from the sea at Mahemdia south to Katib
#   Gannit between columns 22 and 23 (rows 26-34), closed on Katib Gannit's south side;
# - rings round the posts at Hill 40, Hill 70 and Dueidar;
# - the Kantara bridgehead: an arc three hexes out from Kantara, canal bank to canal bank.

ROMANI_LINE_COL, ROMANI_LINE_ROWS = 22, range(26, 35)
KATIB_GANNIT = (22, 34)
TRENCH_SIDES = set()
for h in LAND:
    for n in map_neighbors(h):
        if n in WATER or h >= n:
            continue
        if (h[0] <= ROMANI_LINE_COL) != (n[0] <= ROMANI_LINE_COL) and h[1] in ROMANI_LINE_ROWS \
                and n[1] in ROMANI_LINE_ROWS:
            TRENCH_SIDES.add(key_of(h, n))
TRENCH_SIDES.add(key_of(KATIB_GANNIT, (22, 35)))
for post in (HILL_40, HILL_70, DUEIDAR):
    for n in map_neighbors(post):
        TRENCH_SIDES.add(key_of(post, n))
BRIDGEHEAD_RADIUS = 3
for h in LAND:
    for n in map_neighbors(h):
        if n in WATER or h[0] < 2 or n[0] < 2:
            continue
        if distance(h, KANTARA) == BRIDGEHEAD_RADIUS - 1 and distance(n, KANTARA) == BRIDGEHEAD_RADIUS:
            TRENCH_SIDES.add(key_of(h, n))
for a, b in TRENCH_SIDES:
    assert a in LAND and b in LAND and a[0] >= 2 and b[0] >= 2, (a, b)

# Canal (14.1) and water (TEC) hexsides.
CANAL_SIDES = {key_of(h, n) for h in ALL_HEXES if h[0] == 1 for n in map_neighbors(h) if n[0] == 2}
assert key_of(KANTARA_WEST, KANTARA) in CANAL_SIDES
WATER_SIDES = set()
for h in LAND:
    for n in map_neighbors(h):
        k = key_of(h, n)
        if n in WATER and k not in CANAL_SIDES:
            WATER_SIDES.add(k)

sides = {}
for k in sorted(CANAL_SIDES):
    sides[k] = ["canal"]
for k in sorted(WATER_SIDES):
    sides[k] = ["water"]
for group, feature in ((TRENCH_SIDES, "trench"), (RAIL_SIDES, "railroad"), (TRACK_SIDES, "track")):
    for k in sorted(group):
        assert "canal" not in sides.get(k, []) and "water" not in sides.get(k, []), (feature, k)
        sides.setdefault(k, []).append(feature)

# Every land hex east of the canal is reachable from Kantara by land.
EAST_LAND = {h for h in LAND if h[0] >= 2}
seen, todo = {KANTARA}, [KANTARA]
while todo:
    h = todo.pop()
    for n in map_neighbors(h):
        if n in EAST_LAND and n not in seen:
            seen.add(n)
            todo.append(n)
assert seen == EAST_LAND

# ---------------------------------------------------------------------------------
# Set-up zones (11.2, 11.4), computed from the map.

TRENCH_ADJACENT = sorted({h for k in TRENCH_SIDES for h in k})


def on_or_adjacent(h):
    return sorted([h] + [n for n in map_neighbors(h) if n in LAND])


CP_SETUP_COLUMN = 26
ZONES = {
    "british-trench": TRENCH_ADJACENT,
    "kantara": on_or_adjacent(KANTARA),
    "hill-40": [HILL_40],
    "pelusium-station": [PELUSIUM],
    "ballybunion": [BALLYBUNION],
    "hill-70": [HILL_70],
    "dueidar": [DUEIDAR],
    "romani": on_or_adjacent(ROMANI),
    "central-powers": sorted(h for h in LAND if h[0] >= CP_SETUP_COLUMN),
}
assert all(h[0] < CP_SETUP_COLUMN for z, hs in ZONES.items() if z != "central-powers" for h in hs)

if "--show" in sys.argv:
    glyph = {"sand": ".", "open": "_", "marsh": "~", "all-sea-lake": " ", "hill": "H", "ridge": "R", "oasis": "o",
             "town": "T", "village": "V"}
    rail = set(RAIL)
    track = {h for p in TRACKS.values() for h in p}
    trench = {h for k in TRENCH_SIDES for h in k}
    print("    " + "".join(f"{c:<2}" for c in range(1, COLS + 1)))
    for r in range(1, ROWS + 1):
        row = []
        for c in range(1, COLS + 1):
            h = (c, r)
            g = glyph[terrain[h]]
            if h in rail and g in "._~":
                g = "#"
            elif h in track and g in "._~":
                g = "+"
            row.append(g + ("|" if h in trench else " "))
        print(f"{r:>3} " + "".join(row))
    sys.exit(0)

hexsides = [{"hexes": [hid(*a), hid(*b)], "features": f} for (a, b), f in sorted(sides.items())]
hexes = []
for h in ALL_HEXES:
    d = {"id": hid(*h), "terrain": [terrain[h]]}
    if h in names:
        d["name"] = names[h]
    hexes.append(d)

# The British fall back on the canal (the east bank, column 02); the Central Powers on the
# east edge (column 36).
BRITISH_EDGE = [(2, r) for r in range(1, ROWS + 1) if (2, r) in LAND]
EAST_EDGE = [(COLS, r) for r in range(1, ROWS + 1) if (COLS, r) in LAND]

# ---------------------------------------------------------------------------------
# Terrain Effects Chart (printed) and the Suez CRT lines (README).

HEX_TERRAIN = [
    {"id": "open", "name": "Open", "move": "1", "crt_line": "open-sand-marsh"},
    {"id": "sand", "name": "Sand", "move": "2", "crt_line": "open-sand-marsh"},
    {"id": "hill", "name": "Hill", "move": "2", "crt_line": "hill-village-oasis"},
    {"id": "ridge", "name": "Ridge", "move": "2", "crt_line": "hill-village-oasis"},
    {"id": "oasis", "name": "Oasis", "move": "1", "crt_line": "hill-village-oasis"},
    {"id": "marsh", "name": "Marsh", "move": "3", "crt_line": "open-sand-marsh"},
    {"id": "village", "name": "Village", "move": "1", "crt_line": "hill-village-oasis"},
    {"id": "town", "name": "Town", "move": "1", "crt_line": "town-trench"},
    # No unit can be in an all-sea/-lake hex; the schema needs a line for every hex, so it
    # carries the Open line, which is never read.
    {"id": "all-sea-lake", "name": "All-Sea/-Lake", "move": "P", "crt_line": "open-sand-marsh", "blocks_zoc": True},
]
BRITISH_FOOT = "british-foot"
HEXSIDE_TERRAIN = [
    {"id": "canal", "name": "Water (Suez Canal)", "move": "P", "blocks_zoc": True},
    {"id": "water", "name": "Water (All-Sea, All-Lake)", "move": "P", "blocks_zoc": True},
    {"id": "trench", "name": "Trench (British)", "move": "+1", "crt_line": "town-trench", "all_attackers": True},
    {"id": "railroad", "name": "Railroad", "road": "1/2"},
    {"id": "track", "name": "Track", "road": "1/2", "road_for_tags": {BRITISH_FOOT: "1/3"}},
]

CRT_LINES = [
    ("town-trench", "Town, Trench", -3),
    ("hill-village-oasis", "Hill, Ridge, Village, Oasis", -4),
    ("open-sand-marsh", "Open, Sand, Marsh", -5),
]
# The printed Town, Trench line reads -3, -2, -1, 0, +1, +2,+3, +4,+5, +6,+7, +8,+9, +10
# under Col 1 to Col 10 ("Each terrain row below lists its differential columns from the
# left"); Hill, Village, Oasis starts -4, -3, -2, -1 under Col 1 to Col 4.
assert standard_labels(-3) == ["-3", "-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]
assert standard_labels(-4)[:4] == ["-4", "-3", "-2", "-1"]

# ---------------------------------------------------------------------------------
# Orders of battle (11.2, 11.4, 20.0). Side a: Central Powers (the first player, 10.2);
# side b: British.

CP, BR = "a", "b"
ENGINEER, ARMORED_TRAIN, BRIGADE_GROUP = "engineer", "armored-train", "brigade-group"


def steps_of(*vals):
    return [{"attack": a, "defense": d, "move": m} for a, d, m in vals]


def vals(*vs):
    return ", ".join("-".join(map(str, v)) for v in vs)


units = []


def unit(uid, side, name, formation, size, utype, kind, steps, start, provenance, tags=()):
    units.append({
        "id": uid, "side": side, "name": name, "formation": formation, "size": size, "type": utype, "kind": kind,
        "tags": list(tags), "steps": steps_of(*steps), "start": start, "provenance": provenance,
    })


MOBILE_NOTE = ("mobile: 10.3 names mobile units as those with circled movement factors; the counters are not in our "
               "text, so every mounted unit (horse or camel) is taken as mobile, every other unit as leg")

# British brigade groups (13.2): each brigade of 20.2 is two half-brigade counters (10.4
# "British half-brigades represent two battalions"), each a three-step unit whose third
# step is its reduction counter: 42nd 6, 52nd 6, 53rd (158th Brigade only) 2 = 14
# counters, matching the 14 reduction counters of 11.2.
BG_STEPS = [(6, 6, 5), (4, 4, 5), (2, 2, 5)]
MG_STEPS = [(3, 4, 5), (1, 2, 5)]
DIVISIONS = [("42nd Division", 42, [125, 126, 127], "kantara"),
             ("52nd Division", 52, [155, 156, 157], "british-trench"),
             ("53rd Division", 53, [158], "romani")]
for formation, div, brigades, zone in DIVISIONS:
    for bde in brigades:
        for half in ("a", "b"):
            unit(f"br-{div}-{bde}{half}", BR, f"{bde}{half}/{div}", formation, "X", "infantry", "leg", BG_STEPS,
                 {"zone": zone},
                 f"printed: the {bde}th Brigade of the {formation} (20.2), a three-step brigade group (13.2); "
                 f"stand-in: values {vals(*BG_STEPS)} (the third step is its reduction counter) and the split of "
                 f"the brigade into two half-brigade counters '{bde}a' and '{bde}b' (10.4 half-brigades; 14 such "
                 "counters match the 14 reduction counters of 11.2)",
                 tags=(BRITISH_FOOT, BRIGADE_GROUP))
    if div in (42, 52):
        first, last = brigades[0], brigades[-1]
        unit(f"br-{div}-mg", BR, f"{first}-{last} MG/{div}", formation, "I", "machinegun", "leg", MG_STEPS,
             {"zone": zone},
             f"stand-in: values {vals(*MG_STEPS)}, and the counter itself: 11.2 prints 8 counters for its line, "
             f"one more than the {formation}'s six half-brigades and the other unit named there; 20.2 names no "
             f"eighth unit, so this counter stands for the division's brigade machinegun companies "
             f"({first}th-{last}th), combined like 160+161/R",
             tags=(BRITISH_FOOT,))
unit("br-r-160-161-mg", BR, "160+161/R", "Reserve", "I", "machinegun", "leg", MG_STEPS, {"zone": "british-trench"},
     f"printed: the 160th & 161st Machinegun companies, combined, of the Reserve (20.2, 11.2); stand-in: values "
     f"{vals(*MG_STEPS)}", tags=(BRITISH_FOOT,))
unit("br-armored-train", BR, "Armored Train", "Armored Train", "", "armored train", "leg", [(2, 3, 12)],
     {"zone": "kantara"},
     "printed: the Armored Train (11.2, 13.3: railroad hexes only, enters and exits EZOC freely); stand-in: values "
     "2-3-12, one step; 20.2 puts it in no formation, so it has its own; leg (its movement factor is not a circled "
     "one)", tags=(ARMORED_TRAIN,))
LH_STEPS = [(4, 3, 10), (2, 2, 10)]
ANZ = "Australia & New Zealand Mounted Division"
for uid, name, zone in (("br-anz-1lh", "1 LH/ANZ", "romani"), ("br-anz-2lh", "2 LH/ANZ", "romani"),
                        ("br-anz-3lh", "3 LH/ANZ", "ballybunion"), ("br-anz-5lh", "5 LH/ANZ", "dueidar"),
                        ("br-anz-nzmr", "NZMR/ANZ", "hill-70")):
    unit(uid, BR, name, ANZ, "X", "light horse" if "LH" in name else "mounted rifles", "mobile", LH_STEPS,
         {"zone": zone},
         f"printed: the brigade and its set-up (11.2, 20.2); stand-in: values {vals(*LH_STEPS)}; {MOBILE_NOTE}")
unit("br-r-yeo", BR, "Yeo/R", "Reserve", "X", "dismounted cavalry", "leg", [(4, 4, 5), (2, 2, 5)], {"zone": "hill-40"},
     "printed: the Yeomanry Cavalry Brigade, Dismounted, of the Reserve (20.2) at Hill 40 (11.2); stand-in: values "
     "4-4-5, 2-2-5; leg and moving as infantry on tracks (tag british-foot) because it is dismounted: a choice, "
     "the counter is not in our text", tags=(BRITISH_FOOT,))
unit("br-r-icc", BR, "ICC/R", "Reserve", "X", "camel corps", "mobile", [(3, 2, 10), (1, 1, 10)],
     {"zone": "pelusium-station"},
     f"printed: the Imperial Camel Corps of the Reserve (20.2) at Pelusium Station (11.2); stand-in: values "
     f"3-2-10, 1-1-10; {MOBILE_NOTE}")
unit("br-r-mobc", BR, "MobC/R", "Reserve", "X", "mobile column", "mobile", [(2, 2, 10), (1, 1, 10)],
     {"zone": "pelusium-station"},
     f"printed: the Mobile Column of the Reserve (20.2) at Pelusium Station (11.2); stand-in: values 2-2-10, "
     f"1-1-10; {MOBILE_NOTE}")

# Central Powers (11.4, 20.1): battalions of 500-1000 men (10.4).
BN_STEPS = [(3, 3, 6), (1, 2, 6)]
ROMAN = ("I", "II", "III")
for reg, rid in (("31st", "31"), ("32nd", "32"), ("39th", "39"), ("Comp", "comp")):
    for bn in ROMAN:
        unit(f"cp-3-{rid}-{bn.lower()}", CP, f"{bn}/{reg if reg == 'Comp' else rid}", "3rd Division", "II",
             "infantry", "leg", BN_STEPS, {"zone": "central-powers"},
             f"printed: the {reg} Regiment of the Ottoman 3rd Division (20.1), set up on or east of the 26xx "
             f"column (11.4); stand-in: values {vals(*BN_STEPS)}, and three battalions a regiment (not printed "
             f"for the 3rd Division; with the five 1 Ex troops and the two AK groups it makes the 19 counters of "
             f"11.4, and 11.5 gives the 27th Division's regiments three battalions)")
EX = "1st Expeditionary Corps"
for uid, name, utype, kind, steps, tags in (
        ("cp-1ex-pioneers", "Pioneers/1 Ex", "pioneer", "leg", [(2, 2, 6), (1, 1, 6)], (ENGINEER,)),
        ("cp-1ex-comp-eng", "Comp Eng/1 Ex", "engineer", "leg", [(2, 2, 6), (1, 1, 6)], (ENGINEER,)),
        ("cp-1ex-comp-cav", "Comp Cav/1 Ex", "cavalry", "mobile", [(2, 2, 10), (1, 1, 10)], ()),
        ("cp-1ex-arab-cav", "Arab Cav/1 Ex", "cavalry", "mobile", [(2, 1, 10), (1, 1, 10)], ()),
        ("cp-1ex-scc", "SCC/1 Ex", "camel corps", "mobile", [(2, 2, 10), (1, 1, 10)], ())):
    extra = " (an engineer unit of 12.1)" if tags else f"; {MOBILE_NOTE}"
    unit(uid, CP, name, EX, "II", utype, kind, steps, {"zone": "central-powers"},
         f"printed: Ottoman 1st Expeditionary Corps troops (20.1), set up on or east of the 26xx column (11.4)"
         f"{extra}; stand-in: values {vals(*steps)}", tags=tags)
for n in (1, 2):
    unit(f"cp-ak-{n}", CP, f"AK-{n}", "German Asia Corps", "II", "machinegun", "leg", [(4, 4, 6), (2, 2, 6)],
         {"zone": "central-powers"},
         f"printed: German Asia Corps machinegun group {n} (20.1, 11.4); stand-in: values 4-4-6, 2-2-6")
REGIMENTS_27 = []
for reg, ordinal in ((79, "79th"), (80, "80th"), (81, "81st")):
    ids = []
    for bn in ROMAN:
        uid = f"cp-27-{reg}-{bn.lower()}"
        ids.append(uid)
        unit(uid, CP, f"{bn}/{reg}", "27th Division", "II", "infantry", "leg", BN_STEPS, "off_map",
             f"printed: the {ordinal} Regiment of the Ottoman 27th Division (20.1), three battalions in the Central "
             f"Powers Reinforcements box (11.4, 11.5: 'the three battalions of one regiment'); stand-in: values "
             f"{vals(*BN_STEPS)}")
    REGIMENTS_27.append({"name": f"{ordinal} Regiment", "units": ids})

uids = [u["id"] for u in units]
assert len(uids) == len(set(uids))


def count(**kw):
    return sum(all(u.get(k) == v for k, v in kw.items()) for u in units)


# 11.2 and 11.4, line by line.
zone_counts = {}
for u in units:
    key = u["start"]["zone"] if isinstance(u["start"], dict) else u["start"]
    zone_counts[key] = zone_counts.get(key, 0) + 1
assert zone_counts == {"british-trench": 8, "kantara": 8, "hill-40": 1, "pelusium-station": 2, "ballybunion": 1,
                       "hill-70": 1, "dueidar": 1, "romani": 4, "central-powers": 19, "off_map": 9}, zone_counts
assert sum(BRIGADE_GROUP in u["tags"] for u in units) == 14
assert all(len(u["steps"]) == 3 for u in units if BRIGADE_GROUP in u["tags"])
assert all(len(u["steps"]) < 3 for u in units if BRIGADE_GROUP not in u["tags"])

# ---------------------------------------------------------------------------------
# Fire support (11.2, 11.4, 18.3, 18.5).


def markers(name, strengths, provenance):
    return [{"name": name, "strength": s, "provenance": provenance} for s in strengths]


BRITISH_POOL = markers("British", [4, 4, 3, 3, 2], "printed")
BRITISH_SET_ASIDE = markers(
    "British", [3, 3, 3, 2, 2, 2],
    "stand-in: 11.2 sets six markers aside without their values; three +3 and three +2, no stronger than the pool")
CP_POOL = (markers("Ottoman", [3, 3, 3], "stand-in: 11.4 prints three Ottoman markers without a value; +3, below "
                   "the German +4")
           + markers("Austro-Hungarian", [5, 5], "stand-in: 11.4 prints two Austro-Hungarian markers without a "
                     "value; +5, the heavy howitzers between the German +4 and +6")
           + markers("German", [6, 6, 4, 4, 4, 4], "printed"))
CP_REINFORCEMENT_MARKERS = markers("German", [5, 5, 4], "printed")
AIR_UNIT = {"name": "German air unit", "strength": 2,
            "provenance": "stand-in: 18.5 says its strength is known to both players but our text does not give "
                          "it; +2"}
assert len(BRITISH_POOL) == 5 and len(BRITISH_SET_ASIDE) == 6
assert len(CP_POOL) == 11 and len(CP_REINFORCEMENT_MARKERS) == 3

# ---------------------------------------------------------------------------------
# Turn track: one third of a day a turn (10.4). 10.2: the game begins with the Central
# Powers movement phase of the Zero Hour turn; 11.3: British activation rolls start "with
# 4 August Morning", so the Zero Hour turn comes before it; 12.3: the game ends "at the end
# of the Afternoon 6 August turn"; 18.3: a "three-turn day" whose markers come back "the
# morning turn of the following day", so a day runs Morning, Afternoon, Night; 19.0: "the
# three night turns". Zero Hour, 4 August Night and 5 August Night are the three nights
# (the Ottoman attack went in during the night of 3/4 August), nine turns in all.

TURN_NAMES = ["Zero Hour (night of 3/4 August)"]
for day in (4, 5, 6):
    for part in ("Morning", "Afternoon", "Night"):
        TURN_NAMES.append(f"{day} August {part}")
TURN_NAMES = TURN_NAMES[:-1]
assert TURN_NAMES[-1] == "6 August Afternoon" and len(TURN_NAMES) == 9
NIGHTS = {1} | {i + 1 for i, n in enumerate(TURN_NAMES) if n.endswith("Night")}
assert NIGHTS == {1, 4, 7}
MORNINGS = [i + 1 for i, n in enumerate(TURN_NAMES) if n.endswith("Morning")]
assert MORNINGS == [2, 5, 8]

# ---------------------------------------------------------------------------------
# The rule parameters.

VP = [(EL_KAB, 2), (KANTARA, 4), (BALLYBUNION, 2), (GILBAN, 1), (PELUSIUM, 2), (ROMANI, 6), (KATIA, 2),
      (BIR_EL_ABD, 1)]
assert sum(v for _, v in VP) == 20
assert sorted(h for h, _ in VP) == sorted(list(TOWNS) + list(VILLAGES))
RAIL_TOWNS = [h for h in RAIL if terrain[h] in ("town", "village") and h[0] <= 20]
assert RAIL_TOWNS == [KANTARA, GILBAN, PELUSIUM, ROMANI]

suez_params = {
    "victory_hexes": [
        {"hex": hid(*h), "name": names[h], "vp": v, "start_control": BR if h[0] < KATIA[0] else CP} for h, v in VP
    ],
    "result_levels": [
        {"min_vp": 16, "max_vp": None, "result": "Central Powers decisive victory", "winner": CP},
        {"min_vp": 13, "max_vp": 15, "result": "Central Powers operational victory", "winner": CP},
        {"min_vp": 10, "max_vp": 12, "result": "Central Powers tactical victory", "winner": CP},
        {"min_vp": 7, "max_vp": 9, "result": "Draw", "winner": None},
        {"min_vp": 4, "max_vp": 6, "result": "British tactical victory", "winner": BR},
        {"min_vp": 1, "max_vp": 3, "result": "British operational victory", "winner": BR},
        {"min_vp": 0, "max_vp": 0, "result": "British decisive victory", "winner": BR},
    ],
    "engineer_tag": ENGINEER,
    "pelusium_station": hid(*PELUSIUM),
    "activation_first_turn": MORNINGS[0],
    "activation_roll_max": 2,
    "automatic_activation_range": 4,
    "activation_support_formation": "42nd Division",
    "reinforcement_column": 20,
    "reinforcement_roll_max": 3,
    "reinforcement_regiments": REGIMENTS_27,
    "reinforcement_entry": [hid(*h) for h in EAST_EDGE],
    "reinforcement_markers_per_regiment": 2,
    "central_powers_setup_column": CP_SETUP_COLUMN,
    "kress": "Kress von Kressenstein",
    "kress_shift": 1,
    "brigade_group_tag": BRIGADE_GROUP,
    "reduction_counters": 14,
    "armored_train_tag": ARMORED_TRAIN,
    "rail_hexes": [hid(*h) for h in RAIL],
    "railroad_hexside": "railroad",
    "track_hexside": "track",
    "british_foot_tag": BRITISH_FOOT,
    "canal_hexside": "canal",
    "canal_crossing": [hid(*KANTARA_WEST), hid(*KANTARA)],
    "water_hexside": "water",
    "trench_hexside": "trench",
    "trench_owner": BR,
    "zero_hour_turn": 1,
    "surprise_movement_factor": 2,
    "surprise_shift": 1,
    "rail_moves_per_phase": 1,
    "stacking_limit": {CP: 3, BR: 2},
    "reserve_formation": "Reserve",
    "marsh_terrain": "marsh",
    "town_village_terrains": ["town", "village"],
    "markers_per_hex": {CP: 2, BR: 1},
    "observation_range": {CP: 4, BR: 5},
    "hill_observation_range": {CP: 6, BR: 7},
    "hill_terrains": ["hill", "ridge"],
    "british_pool": BRITISH_POOL,
    "british_set_aside": BRITISH_SET_ASIDE,
    "central_powers_pool": CP_POOL,
    "central_powers_reinforcement_markers": CP_REINFORCEMENT_MARKERS,
    "air_unit": AIR_UNIT,
    "marker_return_turns": MORNINGS,
    "night_shift": 1,
    "leg_advance_limit": 1,
}

MAP_PROVENANCE = (
    "stand-in: schematic 36x46 map of ~1 km hexes (10.4; no map is printed in our text), built around the printed "
    "hex numbers. Layout odd-columns-down (odd columns sit half a hex lower); 0139 and 0239 are side by side in any "
    "column-offset layout, here 0139 touches 0239 and 0240. North is row 01, east is column 36; hex columns are "
    "numbered west to east, so '26xx' (11.4) and '20xx' (11.5) are columns 26 and 20. Printed hexes: El Kab 0234, "
    "Kantara 0239, Ballybunion 0644, Gilban Station 0936, Pelusium Station 1532, Romani 2031, Katia 2633, To Bir el "
    "Abd 3331 (the towns and villages of 12.4: Kantara and Romani towns, the rest villages, a choice), Hill 40 0637 "
    "and Hill 70 0937 (hills), Dueidar 1336 (oasis), the canal crossing 0139 (Kantara West) - 0239. Placed: the Suez "
    "Canal as a hexside line between columns 01 and 02 the whole height of the map (only 0139-0239 may be crossed, "
    "14.1); column 01 is the west bank, open ground at rows 30-41 with Lake Manzala north and Lake Ballah south of "
    "it; the Mediterranean in the north, its coast running south-east from column 04 on the north edge to row 25 "
    "by Romani, and Lake Bardawil east of column 20 (south shore rows 22-25); water hexsides wherever land meets "
    "sea or lake; the railroad from Kantara north-east through Gilban Station and Pelusium Station to its 1916 "
    "railhead at Romani; the plain of Tina (Tina Marsh, Pelusium Marsh) between the coast and the railroad from the "
    "canal to column 17, a strip of salt marsh along Lake Bardawil east of column 26, open flats between the marsh "
    "and the railroad and along the canal's east bank south of Kantara, sand dunes everywhere else; tracks: the "
    "caravan road Kantara - Hill 70 - Dueidar - Bir el Nuss - Hod el Enna - Katia - Oghratina - To Bir el Abd - "
    "east edge, Romani - Bir Etmaler - Katia, Kantara - El Kab along the canal, Kantara - Ballybunion, Hill 40 - "
    "Gilban Station, Katia - Hamisah - east edge; British trench hexsides: the Romani line from the sea at "
    "Mahemdia (2226) south to Katib Gannit (2234) between columns 22 and 23, closed on Katib Gannit's south side, "
    "rings round Hill 40, Hill 70 and Dueidar, and the Kantara bridgehead, an arc three hexes out from Kantara from "
    "canal bank to canal bank; hills Katib Gannit 2234 and Mount Royston 1734 (with 1735), Wellington Ridge "
    "1933-2133 south of Romani, and a few unnamed sand hills and a ridge south-east of Katia; oases Bir Etmaler "
    "2131, Bir el Nuss 1737, Hod el Enna 2335, Hod um Ugba 2537, Er Rabah 2831, Oghratina 3030, Hamisah 2940, "
    "Mageibra 3236. Where a track or the railroad crosses a trench line the hexside carries both. Set-up zones "
    "are computed from the map: 'adjacent to any British trench' is every hex bordered by a trench hexside (either "
    "side of it); 'on or adjacent to' Kantara and Romani is the hex and its land neighbours, for Kantara including "
    "0138 and 0139 (Kantara West) across the canal; 'on or east of the 26xx column' is every land hex of columns "
    "26-36.")

scenario = {
    "id": "suez-1916",
    "name": "Suez 1916: The Ottomans Strike",
    "provenance": (
        "Printed (suez-1916.txt Part I): the hex numbers of 11.2 and 12.4 and the canal crossing 0139-0239 (14.1); "
        "the Terrain Effects Chart costs (Open 1, Sand 2, Hill or Ridge 2, Oasis 1, Marsh 3 and no stacking, Village "
        "1, Town 1, Track 1/2 and 1/3 for British infantry and machinegun, Railroad 1/2, All-Sea/-Lake P, Trench "
        "hexside +1, Water hexside P with ZOC blocked and no combat); the CRT lines Town, Trench (-3) and Hill, "
        "Village, Oasis (-4); the deployment lines and counter counts of 11.2 and 11.4 and the formations of 20.0; "
        "the fire support markers whose values are given (British +4, +4, +3, +3, +2; German +6, +6, +4 x4 and "
        "+5, +5, +4 in the Reinforcements box); the VP table and levels (12.3, 12.4) and every number of 11.3, "
        "11.5, 13.1, 15.1, 16.0, 17.1, 18.1, 18.2 and 19.0 (in the suez-1916 rule parameters). Turn track derived "
        "from the text: one third of a day a turn (10.4); the game begins with the Central Powers movement phase "
        "of the Zero Hour turn (10.2); activation rolls start 'with 4 August Morning' (11.3), so Zero Hour comes "
        "before it; the game ends 'at the end of the Afternoon 6 August turn' (12.3); a fire support day is three "
        "turns and markers return 'the morning turn of the following day' (18.3), so a day runs Morning, "
        "Afternoon, Night; 'the three night turns' (19.0) are therefore Zero Hour (the night of 3/4 August, when "
        "the Ottoman attack went in), 4 August Night and 5 August Night: nine turns, Zero Hour, 4 August Morning, "
        "Afternoon, Night, 5 August Morning, Afternoon, Night, 6 August Morning, Afternoon. Stand-in: the map "
        "(schematic, see map.provenance), which VP hexes are towns and which villages, every counter value, the "
        "split of the printed counter counts into counters (the 14 brigade groups as half-brigades; the eighth "
        "counter of the 42nd and of the 52nd Division lines as a combined brigade machinegun counter), which units "
        "are mobile (the mounted ones), the values of the Ottoman, Austro-Hungarian, British set-aside markers and "
        "the air unit, the CRT Open, Sand, Marsh line (-5) and the grid below its printed rows. The exclusive "
        "rules are not implemented yet: the victory conditions of 12.1-12.4 are in the rule parameters and the "
        "system victory conditions are left empty; this scenario is not built in. Each unit's provenance says "
        "which of its values are printed."),
    "rules": {"suez-1916": suez_params},
    "sides": {CP: {"name": "Central Powers"}, BR: {"name": "British"}},
    "map": {
        "layout": "odd-columns-down",
        "provenance": MAP_PROVENANCE,
        "hexes": hexes,
        "hexsides": hexsides,
        "friendly_edges": {CP: [hid(*h) for h in EAST_EDGE], BR: [hid(*h) for h in BRITISH_EDGE]},
    },
    "terrain": {"hex": HEX_TERRAIN, "hexside": HEXSIDE_TERRAIN},
    "crt": {
        "provenance": (
            "F&M system CRT grid per ../shared/rules/README.md: rows 1-2 and row 3 columns 4-12 printed, row 3 "
            "columns 2-3 follow the one-column shift; rows 4-6 are stand-in (the shift continued, leftmost cells "
            "(A)). Terrain lines: Town, Trench (first differential -3) and Hill, Village, Oasis (-4) are printed "
            "on the Suez CRT, Ridge goes with Hill (the Terrain Effects Chart pairs them); Open, Sand, Marsh (-5) is "
            "stand-in. Each line labels the grid from column 1 (the Suez CRT: \"each terrain row below lists its "
            "differential columns from the left\"). Results are read with the Suez key (10.3): D3 and A3 retreat three hexes and then lose one "
            "step (one step in all, whatever the number of units); D2, A1 and A2 retreat two, one and two hexes or "
            "lose one step instead (7.8); (A) one attacking step; Ex one step each side; De and Ae all eliminated. "
            "No combat across a canal or water hexside (14.1, Terrain Effects Chart)."),
        "grid": GRID,
        "lines": [crt_line(i, n, m) if i != "open-sand-marsh" else
                  crt_line(i, n, m, provenance="stand-in: first differential per ../shared/rules/README.md (not printed)")
                  for i, n, m in CRT_LINES],
    },
    "units": units,
    "setup": {
        "order": [BR, CP],
        "zones": {name: [hid(*h) for h in hs] for name, hs in ZONES.items()},
    },
    "turns": [{"name": n, "support": {CP: 0, BR: 0}, "night": i + 1 in NIGHTS} for i, n in enumerate(TURN_NAMES)],
    "support_markers": {CP: [], BR: []},
    "support_provenance": (
        "printed: no system support fire allotment: 18.0 replaces it with each side's fire support pool of 11.2 "
        "and 11.4, each marker drawn once per three-turn day (18.3), and bombardment is the only form of fire "
        "support (18.1); the pools, set-aside markers, Reinforcements box markers and air unit are in the rule "
        "parameters (some values stand-in, each marked), so every turn allots 0 system markers and the system "
        "marker mix is empty."),
    "first_player": CP,
    "start": {"turn": 1, "phase": "movement"},
    # 10.3: no mobile phases; 18.1: bombardment is made at the start of the combat
    # phase, so the system Bombardment Phase is empty.
    "skip_phases": ["bombardment", "mobile_movement", "mobile_combat"],
    "victory": {"conditions": [], "otherwise": None},
}

with open("fm-core/scenarios/suez-1916.json", "w") as f:
    json.dump(scenario, f, indent=1, ensure_ascii=False)
    f.write("\n")
