"""Writes the board of a scenario as SVG: the opening, or after N random commands,
optionally as one side sees it.

    python fm-py/examples/render_board.py board.svg [--scenario system-demo]
        [--commands 40] [--side a]
"""

from __future__ import annotations

import argparse
import random

import fm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--scenario", default="system-demo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=0)
    parser.add_argument("--side", choices=["a", "b"])
    args = parser.parse_args()
    m = fm.Match(args.scenario, seed=args.seed)
    rng = random.Random(args.seed)
    for _ in range(args.commands):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_commands()))
    svg = m.svg(args.side)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(svg)
    print(f"{args.out}: {m}")


if __name__ == "__main__":
    main()
