"""Drives the reference page (examples/web/index.html) in headless Chromium.

Starts `serve --listen` on a free loopback port with a system-demo match, opens the
page bound to side a's seat, and plays ten of side a's commands by clicking them,
while side b is played over a plain TCP connection (JSON lines). After each click the
board (the SVG of side a's view) must change, and the page must follow side b's moves
pushed to it by the server. Run by scripts/test_web.sh:

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
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CLICKS = 10
TIMEOUT = 20


class Lines:
    """A JSON-lines client on a socket."""

    def __init__(self, addr):
        host, port = addr.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="\n")

    def ask(self, **req):
        self.file.write(json.dumps(req) + "\n")
        self.file.flush()
        reply = json.loads(self.file.readline())
        assert "error" not in reply, (req, reply)
        return reply


def main(serve):
    proc = subprocess.Popen(
        [serve, "--listen", "127.0.0.1:0", "--scenario", "system-demo", "--seed", "1"],
        stdout=subprocess.PIPE, text=True)
    hello = json.loads(proc.stdout.readline())
    addr, seats = hello["listening"], hello["seats"]
    blue = Lines(addr)  # side b, the opponent, over TCP
    blue.ask(cmd="bind", token=seats["b"])
    profile = tempfile.mkdtemp(prefix="fm-web-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--user-data-dir=" + profile):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    start = time.monotonic()
    try:
        driver.get(hello["page"] + "?seat=" + seats["a"])
        wait = WebDriverWait(driver, TIMEOUT)
        body = lambda: driver.find_element(By.TAG_NAME, "body")
        board = lambda: driver.find_element(By.ID, "board").get_attribute("innerHTML")

        def settled():
            # The page is idle on side a's decision.
            return (body().get_attribute("data-ready") == "true"
                    and "your decision" in driver.find_element(By.ID, "status").text)

        clicks, opponent = 0, 0
        while clicks < CLICKS:
            # Side b plays its decisions over TCP; the page is told of them.
            while blue.ask(cmd="pending")["pending"].get("side") == "b":
                first = blue.ask(cmd="legal")["legal"][0]
                blue.ask(cmd="apply", command=first)
                opponent += 1
            wait.until(lambda d: settled())
            before, rev = board(), int(body().get_attribute("data-rev"))
            assert "<svg" in before, before[:200]
            count = blue.ask(cmd="log")["count"]
            # Click the first command listed (a move or placement of the first unit
            # that can act, else "done").
            buttons = driver.find_elements(By.CSS_SELECTOR, "button.cmd")
            assert buttons, "side a has commands listed"
            buttons[0].click()
            wait.until(lambda d: body().get_attribute("data-ready") == "true"
                       and int(body().get_attribute("data-rev")) > rev)
            assert driver.find_element(By.ID, "error").text == ""
            assert blue.ask(cmd="log")["count"] == count + 1, "the click was applied"
            after = board()
            assert after != before, "the board changed after click %d" % (clicks + 1)
            clicks += 1
            print("click %d: %d bytes of SVG" % (clicks, len(after)))
        assert opponent > 0, "the page followed side b's moves too"
        print("web: %d clicks, %d opponent commands, %.1f s"
              % (clicks, opponent, time.monotonic() - start))
    finally:
        driver.quit()
        owner = Lines(addr)
        owner.ask(cmd="bind", token=hello["owner"])
        owner.file.write(json.dumps({"cmd": "quit"}) + "\n")
        owner.file.flush()
        owner.file.readline()
        proc.wait(timeout=TIMEOUT)
    assert proc.returncode == 0
    print("web: 1 passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1])
