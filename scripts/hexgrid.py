"""Shared pieces of the scenario generators (gen_*.py): the hex geometry of the
"odd-columns-down" offset layout every built-in map uses (hex (c, r) is "ccrr"; odd
columns sit half a hex lower) and the recovered F&M combat results grid
(../shared/rules/README.md, "The combat results grid")."""


def neighbors(c, r):
    """The six neighbours of (c, r), clockwise from north (on or off the map)."""
    down = c % 2 == 1
    up_side, low_side = (r, r + 1) if down else (r - 1, r)
    return [(c, r - 1), (c + 1, up_side), (c + 1, low_side), (c, r + 1), (c - 1, low_side), (c - 1, up_side)]


def hid(c, r):
    return f"{c:02}{r:02}"


def adjacent(a, b):
    return b in neighbors(*a)


def key_of(a, b):
    """The key of the hexside between a and b, whichever way round they are given."""
    return tuple(sorted([a, b]))


def to_cube(c, r):
    q = c
    ar = r - (c - (c & 1)) // 2
    return (q, ar, -q - ar)


def from_cube(q, ar):
    return (q, ar + (q - (q & 1)) // 2)


def distance(a, b):
    (aq, ar, a_s), (bq, br, bs) = to_cube(*a), to_cube(*b)
    return max(abs(aq - bq), abs(ar - br), abs(a_s - bs))


def cube_round(q, r, s):
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (rq, rr)


def line(a, b):
    """The hexes of the straight line from a to b (both included), each adjacent to the
    next. A small nudge keeps ties on one side, so the line is deterministic."""
    n = distance(a, b)
    (aq, ar, a_s), (bq, br, bs) = to_cube(*a), to_cube(*b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = aq + (bq - aq) * t + 1e-6
        r = ar + (br - ar) * t + 2e-6
        s = a_s + (bs - a_s) * t - 3e-6
        out.append(from_cube(*cube_round(q, r, s)))
    for x, y in zip(out, out[1:]):
        assert adjacent(x, y), (x, y)
    return out


# The CRT grid: rows 1-2 and row 3 columns 4-12 printed, the rest the one-column shift
# continued (stand-in), as ../shared/rules/README.md derives.
GRID = [
    ["(A)", "A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
    ["(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
    ["(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2", "D3"],
    ["(A)", "(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2", "D2"],
    ["(A)", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex", "D2"],
    ["(A)", "(A)", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "•", "Ex", "Ex", "Ex"],
]
# The grid's columns as the -5 line labels them. Every terrain line labels the grid from
# the LEFT (a column-shift table, README "How a terrain line reads the grid"): its first
# differential stands over column 1, singles up to +1, then the pairs, then +10.
COLUMNS = [[-5, -5], [-4, -4], [-3, -3], [-2, -2], [-1, -1], [0, 0], [1, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 10]]


def standard_labels(first):
    """The printed labels of a line whose first differential is `first` (<= +1)."""
    return [str(d) if d <= 0 else f"+{d}" for d in range(first, 2)] + ["+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]


def crt_line(line_id, name, first, **extra):
    """A CRT line in scenario JSON: its labels are the standard ones from `first`, read
    from grid column 1 unless `first_column` is given."""
    assert len(standard_labels(first)) + extra.get("first_column", 1) - 1 <= len(GRID[0]), line_id
    out = {"id": line_id, "name": name, "first_differential": first}
    out.update(extra)
    return out
