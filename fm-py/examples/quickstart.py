"""A short tour of the fm module: play a few commands, handle errors, save, render.

    python fm-py/examples/quickstart.py [--svg board.svg]
"""

from __future__ import annotations

import argparse
import random

import fm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--svg", help="write the board after set-up to this file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    m = fm.Match("system-demo", seed=args.seed)
    print(m)
    print("waiting for:", m.pending)

    # Set-up: each side places its units (here: the first legal placement).
    while m.pending.kind == "setup":
        cmd = m.legal_commands()[0]
        for event in m.apply(cmd):
            print("  ", event)

    # Commands are typed objects or plain dicts in the documented JSON form.
    moves = [c for c in m.legal_commands() if isinstance(c, fm.Move)]
    print(f"{len(moves)} legal moves; the first: {moves[0]}")
    events = m.apply(moves[0].to_dict())
    moved = events[0]
    if isinstance(moved, fm.events.UnitMoved):
        print(f"{moved.unit} moved {moved.from_} -> {moved.path[-1]} for {moved.mp} MP")

    # A refused command names the rule it breaks and changes nothing.
    try:
        m.apply(fm.Move("red-10-inf-rgt", ["0804"]))
    except fm.RuleError as e:
        print(f"refused by rule {e.rule}: {e.message}")

    # Odds of an attack, as the side to move knows them.
    odds = m.odds("0805", ["blue-2-inf-bde"])
    print("odds:", [(r["result"], round(r["probability"], 3)) for r in odds["results"]])

    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(m.svg())
        print("board written to", args.svg)

    # Save, load (replaying and verifying every command), undo.
    saved = m.save()
    again = fm.Match.load(saved)
    assert again.hash == m.hash
    again.undo()
    print("after undo:", again)

    # Play to the end with random commands.
    rng = random.Random(args.seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_commands()))
    print("result:", m.result)

    # Many games in Rust, the GIL released.
    summary = fm.play_random("system-demo", games=100, seed=1)
    print(f"100 random games: {summary['wins']} in {summary['seconds']:.2f} s")


if __name__ == "__main__":
    main()
