#!/usr/bin/env python3
"""Print the sine table of fm-core/src/huzzah/geometry/trig.rs (Huzzah! table geometry).

SIN_TABLE[d] = round(sin(d degrees) * 2**20) for d = 0..=90, rounded to nearest.
The values are exact enough: a double carries ~33 fractional bits at this scale, and
no entry other than 0, 30 and 90 degrees is near a tie. The engine never computes
trigonometry at run time; it uses this table as a literal (byte-identical on every
platform). Re-run and paste the output if TRIG_ONE ever changes:

    python3 scripts/gen_trig.py
"""
import math

ONE = 1 << 20


def main() -> None:
    vals = [round(math.sin(math.radians(d)) * ONE) for d in range(91)]
    assert vals[0] == 0 and vals[30] == ONE // 2 and vals[90] == ONE
    print("const SIN_TABLE: [i64; 91] = [")
    for i in range(0, 91, 8):
        row = ", ".join(str(v) for v in vals[i : i + 8])
        print(f"    {row},")
    print("];")


if __name__ == "__main__":
    main()
