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
  unit (its arc drawn, its fire targets' odds listed), fires, and gives an order
  (a distance picked in a labelled list).

Every click is on the map's SVG elements, found by their data attributes (`data-hex`,
`data-unit`, `data-officer`) and clicked at their centre, or on the page's buttons in
words; never on the raw JSON list. Screenshots of each step go to $FM_WEB_SHOTS
(default: a temporary directory). Run by scripts/test_web.sh:

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
HZ_SEED = 0
SHOTS = os.environ.get("FM_WEB_SHOTS") or tempfile.mkdtemp(prefix="fm-web-shots-")
PAGE = os.environ.get("FM_WEB_PAGE")  # serve this file instead of the built-in page


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
        els = [e for e in self.css("#board " + sel) if e.is_displayed()]
        assert els, "%s: nothing on the map matches %s" % (self.name, sel)
        self.click(els[0])

    def button(self, sel):
        els = [e for e in self.css(sel) if e.is_displayed()]
        assert els, "%s: no button %s" % (self.name, sel)
        els[0].click()

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
