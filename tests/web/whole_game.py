"""Plays whole games on the reference page with the mouse alone, both sides in their own
browser window (issue 34: "a person who has never seen the protocol can play a whole
system-demo game and a huzzah-firefight battle against a second browser").

Each side's window is opened from the lobby's link. At each of its decisions the side
clicks, at random, one of the things a person could click: a choice in the dialog or the
panel (never the debug panel's JSON), a highlighted hex, a unit or officer on the map.
A click that leads nowhere is fine (a person may cancel); what must never happen is a
decision from which no sequence of clicks makes progress: after `STUCK` clicks without a
command applied the test fails, naming the decision and saving a screenshot. The game
must end (`game_over`) within `MAX_COMMANDS`. Run by scripts/test_web.sh:

    python tests/web/whole_game.py PATH/TO/serve [scenario seed] ...
"""

import os
import random
import sys
import time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_page import SHOTS, Page, Server, browser  # noqa: E402

STUCK = 60
MAX_COMMANDS = 2500
# Weights: what a player tends to do. Ending a phase stays possible but rarer, so that
# units move and fight.
WEIGHTS = {"done": 1, "dialog": 6, "map": 4, "unit": 3, "panel": 3}


def candidates(page):
    """What a person could click now, by kind."""
    found = {k: [] for k in WEIGHTS}
    shown = lambda sel: [e for e in page.css(sel) if e.is_displayed()]
    found["done"] = shown("#done")
    found["dialog"] = shown("#dialog button.choice, #dialog #confirm, #dialog button.order, "
                            "#dialog button.length-go")
    found["map"] = [e for e in shown("#board [data-hl]")
                    if "hl-sel" not in (e.get_attribute("class") or "")]
    found["unit"] = shown("#board .unit[data-unit], #board [data-officer]")
    found["panel"] = shown("#actions button:not(#done)")
    return {k: v for k, v in found.items() if v}


def decide(page, rng):
    kinds = candidates(page)
    if not kinds:
        return False
    names = sorted(kinds)
    kind = rng.choices(names, weights=[WEIGHTS[k] for k in names])[0]
    el = rng.choice(kinds[kind])
    try:
        page.click(el)
    except Exception:  # the element went away under the mouse (a redraw): try again
        return True
    page.settled()
    return True


def whole_game(serve, driver, scenario, seed, rng):
    server = Server(serve, scenario, seed)
    try:
        pages = {}
        for side in ("a", "b"):
            if side == "b":
                driver.switch_to.new_window("window")
                driver.set_window_size(1280, 800)
            pages[side] = (Page(driver, "%s-%s" % (scenario, side)), driver.current_window_handle)
            driver.get(server.hello["links"][side])
            pages[side][0].settled()
        commands, clicks, idle, start = 0, 0, 0, time.monotonic()
        while True:
            p = server.pending()
            if p.get("kind") == "game_over":
                break
            page, handle = pages[p["side"]]
            driver.switch_to.window(handle)
            page.until("the decision on the page", lambda: page.body("data-ready") == "true"
                       and page.body("data-turn") == "mine")
            before = server.owner.ask(cmd="log")["count"]
            if not decide(page, rng):
                idle = STUCK
            clicks += 1
            after = server.owner.ask(cmd="log")["count"]
            if after > before:
                commands, idle = commands + (after - before), 0
            else:
                idle += 1
            if idle >= STUCK:
                shot = page.save("stuck")
                legal = server.owner.ask(cmd="legal")["legal"]
                raise AssertionError("%s: no progress in %d clicks at %s (%s); legal %s"
                                     % (scenario, STUCK, p, shot, legal[:10]))
            assert page.text("error") == "" or "rule" in page.text("error") or \
                "cannot" in page.text("error") or "out of" in page.text("error"), page.text("error")
            assert commands <= MAX_COMMANDS, "%s: %d commands and no end" % (scenario, commands)
        for page, handle in pages.values():
            driver.switch_to.window(handle)
            page.settled()
            assert "game over" in page.text("status").lower(), page.text("status")
            page.no_errors()
        print("whole game: %s seed %d, %d commands in %d clicks, %s, %.0f s"
              % (scenario, seed, commands, clicks, p.get("winner", p), time.monotonic() - start))
    finally:
        for _, handle in list(pages.values())[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(pages["a"][1])
        server.stop()


def main(serve, games):
    driver = browser()
    try:
        for scenario, seed in games:
            whole_game(serve, driver, scenario, seed, random.Random(seed))
    finally:
        driver.quit()
    print("whole games: %d passed, 0 failed (screenshots in %s)" % (len(games), SHOTS))


if __name__ == "__main__":
    args = sys.argv[2:] or ["system-demo", "1", "huzzah-firefight", "2"]
    main(sys.argv[1], [(args[i], int(args[i + 1])) for i in range(0, len(args), 1 * 2)])
