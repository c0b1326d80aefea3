"""Plays on the reference page (examples/web/index.html) in headless Chromium, by mouse.

Three parts, each against its own `serve --listen` process on a free loopback port:

- Fire & Movement (system-demo, seed FM_SEED): side a's page, opened from the first
  line's `links`, plays a whole turn by clicking the map: a placement, a move (the
  `reachable` hexes shaded first), the end of the phase, an attack whose odds are shown
  before it is confirmed, and its support fire decisions and their aftermath answered
  in the page's dialog; side b plays over TCP. Meanwhile the owner's lobby (the first
  line's `page`) makes a spectator link, its seat links open working pages, and the
  spectator's page follows the seats' moves.
- Huzzah! (huzzah-firefight, seed HZ_SEED): side a's page places its officer, clicks a
  unit (its arc drawn, its fire targets' odds listed), fires, has the others hold
  their fire, gives an order from the officer clicked, and advances (a distance picked
  in a labelled list); the owner's referee board then undoes the advance.

Every click is on the map's SVG elements, found by their data attributes (`data-hex`,
`data-unit`, `data-officer`) and clicked at their centre, or on the page's buttons in
words; never on the raw JSON list. Screenshots of each step go to $FM_WEB_SHOTS
(default: a temporary directory); with $FM_WEB_DOC_IMAGES set to a directory (docs/img),
the attack's and the arc's screenshots are copied there as web-fm.png and
web-huzzah.png. $FM_WEB_PAGE serves that HTML file instead of the page built into
serve (`serve --page`). Run by scripts/test_web.sh:

    python tests/web/test_page.py PATH/TO/serve
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 20
FM_SEED = 1
HZ_SEED = 2
SHOTS = os.environ.get("FM_WEB_SHOTS") or tempfile.mkdtemp(prefix="fm-web-shots-")
os.makedirs(SHOTS, exist_ok=True)
PAGE = os.environ.get("FM_WEB_PAGE")  # serve this file instead of the built-in page


class Png:
    """A screenshot's pixels, read with the standard library alone (zlib): Chromium's
    PNGs are 8-bit RGB or RGBA, not interlaced."""

    def __init__(self, path):
        import struct
        import zlib
        data = open(path, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", path
        pos, idat = 8, b""
        while pos < len(data):
            n, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if kind == b"IHDR":
                self.w, self.h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour)
                self.bpp = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + n
        raw, stride, bpp = zlib.decompress(idat), self.w * self.bpp, self.bpp
        rows, prev = [], bytearray(stride)
        for y in range(self.h):
            f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            if f == 1:
                for i in range(bpp, stride):
                    line[i] = (line[i] + line[i - bpp]) & 255
            elif f == 2:
                line = bytearray((a + b) & 255 for a, b in zip(line, prev))
            elif f == 3:
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
            elif f == 4:
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        self.rows = rows

    def at(self, x, y):
        """The (r, g, b) of the pixel at (x, y) in CSS pixels (the screenshots' scale is 1)."""
        i = int(x) * self.bpp
        return tuple(self.rows[int(y)][i:i + 3])


def centre(el):
    r = el.rect
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2


def differ(p, q):
    return sum(abs(a - b) for a, b in zip(p, q))


class Lines:
    """A JSON-lines client on a socket."""

    def __init__(self, addr, token=None):
        host, port = addr.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="\n")
        if token:
            self.ask(cmd="bind", token=token)

    def ask(self, **req):
        self.file.write(json.dumps(req) + "\n")
        self.file.flush()
        reply = json.loads(self.file.readline())
        assert "error" not in reply, (req, reply)
        return reply


class Server:
    """A `serve --listen` process with a match, its first line, an owner connection."""

    def __init__(self, serve, scenario, seed):
        args = [serve, "--listen", "127.0.0.1:0", "--scenario", scenario, "--seed", str(seed)]
        if PAGE:
            args += ["--page", PAGE]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        self.hello = json.loads(self.proc.stdout.readline())
        self.addr = self.hello["listening"]
        assert self.hello["page"].endswith("/?owner=" + self.hello["owner"]), self.hello
        for side in ("a", "b"):
            assert self.hello["links"][side].endswith("/?seat=" + self.hello["seats"][side])
        self.owner = Lines(self.addr, self.hello["owner"])

    def pending(self):
        return self.owner.ask(cmd="pending")["pending"]

    def seat(self, side):
        """A JSON-lines client bound to the seat of `side` from the first line."""
        return Lines(self.addr, self.hello["seats"][side])

    def stop(self):
        self.owner.file.write(json.dumps({"cmd": "quit"}) + "\n")
        self.owner.file.flush()
        self.owner.file.readline()
        self.proc.wait(timeout=TIMEOUT)
        assert self.proc.returncode == 0


def browser():
    profile = tempfile.mkdtemp(prefix="fm-web-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,800",
                 "--user-data-dir=" + profile):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


class Page:
    """One browser window showing the page, with the helpers the steps use."""

    def __init__(self, driver, name):
        self.d, self.name, self.shot = driver, name, 0
        self.wait = WebDriverWait(driver, TIMEOUT)

    def body(self, attr):
        return self.d.find_element(By.TAG_NAME, "body").get_attribute(attr)

    def rev(self):
        return int(self.body("data-rev") or 0)

    def settled(self, after=None):
        """Waits until the page is idle (and has redrawn since `after`, a rev)."""
        try:
            self.wait.until(lambda d: self.body("data-ready") == "true"
                            and (after is None or self.rev() > after))
        except TimeoutException:
            raise AssertionError("%s: the page did not settle; status %r, error %r" % (
                self.name, self.text("status"), self.text("error")))

    def text(self, id_):
        return self.d.find_element(By.ID, id_).text

    def css(self, sel):
        return self.d.find_elements(By.CSS_SELECTOR, sel)

    def until(self, what, cond):
        try:
            return self.wait.until(lambda d: cond())
        except TimeoutException:
            raise AssertionError("%s: waited for %s; status %r, error %r" % (
                self.name, what, self.text("status"), self.text("error")))

    def click(self, el):
        """A mouse click at the element's centre."""
        ActionChains(self.d).move_to_element(el).click().perform()

    def click_map(self, sel):
        """Clicks the first element on the map matching `sel` at its centre, and waits
        for what the click started (the page's data-ready)."""
        self.settled()
        els = [e for e in self.css("#board " + sel) if e.is_displayed()]
        assert els, "%s: nothing on the map matches %s" % (self.name, sel)
        self.click(els[0])
        self.settled()

    def button(self, sel):
        self.settled()
        els = [e for e in self.css(sel) if e.is_displayed()]
        assert els, "%s: no button %s" % (self.name, sel)
        els[0].click()
        self.settled()

    def save(self, what):
        self.shot += 1
        path = os.path.join(SHOTS, "%s-%02d-%s.png" % (self.name, self.shot, what))
        self.d.save_screenshot(path)
        return path

    def no_errors(self):
        assert self.text("error") == "", "%s: %s" % (self.name, self.text("error"))
        try:
            logs = self.d.get_log("browser")
        except Exception:  # a driver without logs
            logs = []
        bad = [l for l in logs if l.get("level") == "SEVERE"]
        assert not bad, "%s: console errors %s" % (self.name, bad)


def play_b(server, seat, choose=None):
    """Side b's decisions over TCP while it has any: `choose(pending, legal)` or the
    first legal command."""
    n = 0
    while True:
        p = seat.ask(cmd="pending")["pending"]
        if p.get("side") != "b" or p.get("kind") == "game_over":
            return n
        legal = seat.ask(cmd="legal")["legal"]
        command = (choose and choose(p, legal)) or legal[0]
        seat.ask(cmd="apply", command=command)
        n += 1


def log_count(server):
    return server.owner.ask(cmd="log")["count"]


def applied(page, server, before, what):
    """Waits until the page has applied a command (the log grew) and redrawn."""
    page.until(what, lambda: log_count(server) > before)
    page.settled()
    assert page.text("error") == "", "%s: %s" % (what, page.text("error"))


def my_turn(page):
    page.until("side a's decision", lambda: page.body("data-ready") == "true"
               and page.body("data-turn") == "mine")


def fire_and_movement(serve, driver):
    server = Server(serve, "system-demo", FM_SEED)
    hello = server.hello
    red = server.seat("b")
    try:
        # The owner's lobby: seat links, a spectator link, the referee's link.
        lobby = Page(driver, "lobby")
        driver.get(hello["page"])
        lobby.until("the lobby's links", lambda: lobby.css("#link-a") and lobby.css("#link-b"))
        lobby.settled()
        lobby.button("#make-spectator")
        lobby.until("a spectator link", lambda: lobby.css("#link-spectator-0"))
        lobby.settled()
        links = {k: lobby.d.find_element(By.ID, "link-" + k).get_attribute("value")
                 for k in ("a", "b", "spectator-0", "referee")}
        # The lobby shows the seats the server made (the first line's links), not new ones.
        for side in ("a", "b"):
            assert links[side] == hello["links"][side], (links[side], hello["links"][side])
        lobby.save("lobby")
        lobby.no_errors()
        # Side b's lobby link opens side b's page (then the window watches as a spectator).
        driver.switch_to.new_window("window")
        driver.set_window_size(1280, 800)
        eye = Page(driver, "spectator")
        eye_window = driver.current_window_handle
        driver.get(links["b"])
        eye.settled()
        assert "side b" in eye.text("title") and "waiting" not in eye.text("status"), eye.text("status")
        driver.get(links["referee"])
        eye.settled()
        assert "referee" in eye.text("status") and eye.css("#undo"), eye.text("status")
        driver.get(links["spectator-0"])
        eye.settled()
        assert eye.body("data-role") == "spectator" and "watching" in eye.text("status")
        seen = driver.find_element(By.ID, "board").get_attribute("innerHTML")
        assert "<svg" in seen
        eye.no_errors()
        # Side a's page, from the lobby's link.
        driver.switch_to.new_window("window")
        driver.set_window_size(1280, 800)
        blue = Page(driver, "fm")
        driver.get(links["a"])
        blue.settled()
        # Set-up: side b places over TCP; side a picks its unit in the list, then a hex.
        play_b(server, red)
        my_turn(blue)
        blue.button('[data-unit-pick="blue-commando-co"]')
        blue.until("the set-up hexes", lambda: blue.css("#board .hl-choice"))
        # A hex outside the set-up zone clicked: why not, in words with its rule (explain).
        blue.click_map('.hex[data-hex="1210"]')
        assert "cannot place there: not allowed by rule 3.0(b)" in blue.text("error"), blue.text("error")
        blue.save("explained")
        n = log_count(server)
        blue.click_map('.hex[data-hex="0207"]')
        applied(blue, server, n, "the placement")
        # Movement: a unit clicked shows where it can go; a shaded hex clicked moves it.
        assert "movement" in blue.text("status"), blue.text("status")
        for unit, hex_ in (("blue-1-inf-div", "0704"), ("blue-1-armor-bde", "0705")):
            plain = Png(blue.save("before-" + unit))
            blue.click_map('.unit[data-unit="%s"]' % unit)
            blue.until("the reachable hexes", lambda: any(
                e.is_displayed() for e in blue.css("#board .hl-move, #board .hl-stop")))
            shaded = {e.get_attribute("data-hl") for e in blue.css("#board .hl-move, #board .hl-stop")}
            assert hex_ in shaded, (hex_, shaded)
            if unit == "blue-1-inf-div":
                # A hex out of reach clicked: said so.
                blue.click_map('.hex[data-hex="1210"]')
                assert "out of" in blue.text("error") and "reach" in blue.text("error"), blue.text("error")
                blue.click_map('.unit[data-unit="%s"]' % unit)
            # Hovering a shaded hex gives its cost.
            hexel = [e for e in blue.css('#board .hex[data-hex="%s"]' % hex_) if e.is_displayed()][0]
            ActionChains(driver).move_to_element(hexel).perform()
            blue.until("the hex's cost", lambda: blue.d.find_element(By.ID, "tip").is_displayed())
            assert "costs" in blue.text("tip") and hex_ in blue.text("tip"), blue.text("tip")
            # The screenshot shows the shading: at the centre of each shaded hex with
            # nothing on it and away from the hover's tip, the picture is bluer (or more
            # orange, where the unit must stop) than before the click; an unshaded hex
            # far off is as it was.
            shot_ = Png(blue.save("reachable-" + unit))
            tip = blue.d.find_element(By.ID, "tip").rect
            occupied = {e.get_attribute("data-hex") for e in blue.css("#board .unit[data-hex]")}
            seen_ = 0
            for e in blue.css("#board .hl-move, #board .hl-stop"):
                h = e.get_attribute("data-hl")
                x, y = centre(e)
                if h in occupied or (tip["x"] - 30 <= x <= tip["x"] + tip["width"] + 30
                                     and tip["y"] - 30 <= y <= tip["y"] + tip["height"] + 30):
                    continue
                before_, after_ = plain.at(x, y), shot_.at(x, y)
                if "hl-move" in e.get_attribute("class"):
                    assert after_[2] - after_[0] > before_[2] - before_[0] + 20, (h, before_, after_)
                else:
                    assert after_[0] - after_[2] > before_[0] - before_[2] + 20, (h, before_, after_)
                seen_ += 1
            assert seen_ >= 5, "%d shaded hexes checked in the screenshot" % seen_
            far = [e for e in blue.css('#board .hex[data-hex="1210"]') if e.is_displayed()][0]
            assert differ(plain.at(*centre(far)), shot_.at(*centre(far))) < 12, "1210 unshaded"
            n = log_count(server)
            blue.click_map('.hex[data-hex="%s"]' % hex_)
            applied(blue, server, n, "the move of " + unit)
        # The phase ends with its button, until side a's combat.
        while "combat" not in (server.pending().get("phase") or ""):
            assert blue.css("#done"), blue.text("status")
            n = log_count(server)
            blue.button("#done")
            applied(blue, server, n, "the end of the phase")
        # Combat: the enemy hex clicked opens the attack with its odds.
        no_dialog = Png(blue.save("before-attack"))
        blue.click_map('.hex[data-hex="0805"]')
        blue.until("the odds", lambda: blue.css('#odds[data-ready="true"]'))
        dialog = blue.text("dialog")
        assert "Attack 0805" in dialog and "odds of each result" in dialog, dialog
        assert "%" in blue.text("odds"), blue.text("odds")
        both = blue.text("odds")
        # One attacker clicked off on the map, and back on: the odds follow.
        blue.click_map('.unit[data-unit="blue-1-armor-bde"]')
        blue.until("the odds of one attacker", lambda: blue.css('#odds[data-ready="true"]')
                   and blue.text("odds") != both)
        blue.click_map('.unit[data-unit="blue-1-armor-bde"]')
        blue.until("the odds of two attackers", lambda: blue.css('#odds[data-ready="true"]')
                   and blue.text("odds") == both)
        shot = blue.save("attack-odds")
        # The screenshot shows the odds: each result's bar is drawn where the page put it.
        odds_shot = Png(shot)
        bars = [e for e in blue.css("#odds .bar-fill") if e.is_displayed() and e.rect["width"] >= 4]
        assert bars, "the odds have bars"
        for bar in bars:
            x, y = centre(bar)
            assert differ(odds_shot.at(x, y), no_dialog.at(x, y)) > 60, (odds_shot.at(x, y), no_dialog.at(x, y))
        n = log_count(server)
        blue.button("#confirm")
        applied(blue, server, n, "the attack")
        # Support fire and what the combat asks: side a answers in the dialog, side b over TCP.
        answered = 0
        while True:
            play_b(server, red, lambda p, legal: next(
                (c for c in legal if c.get("type") == "support_fire" and not c["commit"]), None))
            p = server.pending()
            if p.get("side") != "a" or p["kind"] == "phase":
                break
            my_turn(blue)
            assert blue.d.find_element(By.ID, "dialog").is_displayed(), p
            blue.save("decision-" + p["kind"])
            n = log_count(server)
            if p["kind"] == "support_fire":
                assert "support fire" in blue.text("dialog").lower()
                blue.button("#commit" if answered == 0 else "#pass")
            else:
                blue.button("#dialog button.choice")
            applied(blue, server, n, "the answer to " + p["kind"])
            answered += 1
        assert answered >= 1, "a support fire decision was answered in the dialog"
        # The rest of side a's turn.
        while server.pending().get("side") == "a":
            my_turn(blue)
            n = log_count(server)
            blue.button("#done")
            applied(blue, server, n, "the end of the phase")
        log = blue.text("log")
        assert "0805" in log, log
        blue.save("turn-done")
        blue.no_errors()
        # The spectator followed along.
        driver.switch_to.window(eye_window)
        eye.settled()
        eye.until("the spectator's board", lambda: driver.find_element(By.ID, "board")
                  .get_attribute("innerHTML") != seen)
        assert "0805" in eye.text("log")
        eye.save("spectator")
        eye.no_errors()
        return shot
    finally:
        server.stop()



def huzzah(serve, driver):
    server = Server(serve, "huzzah-firefight", HZ_SEED)
    hello = server.hello
    red = server.seat("b")
    try:
        page = Page(driver, "huzzah")
        driver.get(hello["links"]["a"])
        page.settled()
        # Side b places its officers over TCP; side a with the buttons in words.
        play_b(server, red)
        first = True
        while server.pending()["kind"] == "place_officer":
            my_turn(page)
            n = log_count(server)
            if not first:
                page.button('#actions button.choice[data-type="place_officer"]')
                applied(page, server, n, "an officer's placement")
                continue
            # The first at a point of the table: the officer picked, then the point
            # clicked (40 px behind fr-2); he is drawn where the mouse was.
            first = False
            page.button("#actions button.officer-place")
            officer = page.css("#actions button.officer-place")[0].get_attribute("data-officer-place")
            board = page.css("#board svg")[0]
            ux, uy = centre([e for e in page.css('#board .unit[data-unit="fr-2"]') if e.is_displayed()][0])
            x, y = ux, uy + 40
            bx, by = centre(board)
            ActionChains(driver).move_to_element_with_offset(board, int(x - bx), int(y - by)).click().perform()
            applied(page, server, n, "an officer placed at a point")
            mark = [e for e in page.css('#board [data-officer="%s"]' % officer) if e.is_displayed()][0]
            mx, my = centre(mark)
            assert abs(mx - int(x)) <= 3 and abs(my - int(y)) <= 3, ((x, y), (mx, my))
        # Firing: a unit clicked lists its targets with the odds, and its arc is drawn.
        assert server.pending()["kind"] == "declare_fire", server.pending()
        my_turn(page)
        no_arc = Png(page.save("before-arc"))
        page.click_map('.unit[data-unit="fr-3"]')
        page.until("the arc and the fire odds", lambda: page.css('#board .arc[data-unit="fr-3"]')
                   and page.css('.fire-choice .odds-box[data-ready="true"]'))
        odds = page.text("dialog")
        assert "fires at" in odds and "Odds of the fire" in odds and "hit" in odds and "%" in odds, odds
        shot = page.save("fire-odds-arc")
        # The screenshot shows the arc: halfway from the unit to the top of its ranges,
        # straight ahead (side a faces up the picture), the table is shaded orange.
        ux, uy = centre([e for e in page.css('#board .unit[data-unit="fr-3"]') if e.is_displayed()][0])
        top = page.d.find_element(By.CSS_SELECTOR, '#board .arc[data-unit="fr-3"]').rect["y"]
        x, y = ux, (uy + top) / 2
        plain, arc = no_arc.at(x, y), Png(shot).at(x, y)
        assert arc[0] - arc[2] > plain[0] - plain[2] + 15, (plain, arc)
        n = log_count(server)
        page.button(".fire-choice button.choice")
        applied(page, server, n, "the fire")
        for unit in server.pending().get("units", []):
            page.click_map('.unit[data-unit="%s"]' % unit)
            page.until("the commands of " + unit, lambda: page.css('#dialog button[data-type="hold_fire"]'))
            n = log_count(server)
            page.button('#dialog button[data-type="hold_fire"]')
            applied(page, server, n, unit + " holding its fire")
        log = page.text("log")
        assert "fr-3" in log or "3rd brigade" in log, log
        # Orders: the officer clicked lists the orders; the order's distance is picked.
        play_b(server, red)
        assert server.pending()["kind"] == "orders", server.pending()
        my_turn(page)
        page.click_map('.officer[data-officer="fr-cinc"]')
        sel = '#dialog button.order[data-order="advance"][data-group=\'{"unit":"fr-1"}\']'
        page.until("the officer's orders", lambda: page.css(sel))
        page.save("orders")
        n = log_count(server)
        page.button(sel)
        applied(page, server, n, "the order")
        assert server.pending()["kind"] == "act", server.pending()
        page.click_map('.unit[data-unit="fr-1"]')
        page.until("the advance's distances", lambda: page.css('#dialog select.lengths[data-type="advance"]'))
        choices = page.d.find_element(By.CSS_SELECTOR, '#dialog select.lengths[data-type="advance"]')
        labels = [o.text for o in choices.find_elements(By.TAG_NAME, "option")]
        assert labels and all("mm" in l for l in labels), labels
        page.save("advance")
        n = log_count(server)
        page.button('#dialog button.go[data-type="advance"]')
        applied(page, server, n, "the advance")
        assert "advance" in page.text("log").lower()
        page.no_errors()
        # The owner's referee board undoes the advance.
        referee = Page(driver, "referee")
        driver.get(hello["page"] + "&play=1")
        referee.settled()
        assert "referee" in referee.text("status"), referee.text("status")
        n = log_count(server)
        referee.button("#undo")
        referee.until("the undo", lambda: log_count(server) == n - 1)
        referee.settled()
        assert server.pending()["kind"] == "act", server.pending()
        referee.save("undone")
        referee.no_errors()
        return shot
    finally:
        server.stop()


def main(serve):
    start = time.monotonic()
    driver = browser()
    passed = []
    try:
        driver.set_window_size(1280, 800)
        fm_shot = fire_and_movement(serve, driver)
        passed.append("fire and movement, lobby, spectator")
        for h in driver.window_handles[1:]:
            driver.switch_to.window(h)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])
        hz_shot = huzzah(serve, driver)
        passed.append("huzzah, referee's undo")
    finally:
        driver.quit()
    print("web: screenshots in %s" % SHOTS)
    if os.environ.get("FM_WEB_DOC_IMAGES"):
        import shutil
        shutil.copy(fm_shot, os.path.join(os.environ["FM_WEB_DOC_IMAGES"], "web-fm.png"))
        if hz_shot:
            shutil.copy(hz_shot, os.path.join(os.environ["FM_WEB_DOC_IMAGES"], "web-huzzah.png"))
    print("web: %d passed (%s), 0 failed, %.1f s" % (len(passed), "; ".join(passed),
                                                     time.monotonic() - start))


if __name__ == "__main__":
    main(sys.argv[1])
