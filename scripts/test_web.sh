#!/usr/bin/env bash
# Tests the reference page of `serve --listen` (examples/web/index.html) in a real
# headless browser: Debian's chromium driven through chromium-driver by Python's
# selenium (tests/web/test_page.py). Installs chromium and chromium-driver with apt-get
# if missing (as root, as CI runs), and selenium into the virtual environment
# ${FM_VENV:-.venv} (created if missing). Never downloads a browser or a driver of its
# own: selenium is given /usr/bin/chromium and /usr/bin/chromedriver.
#
# The test plays by clicking the page's map (tests/web/test_page.py says what): a Fire &
# Movement turn, a Huzzah! fire and order, the owner's lobby and a spectator. Its
# screenshots go to $FM_WEB_SHOTS (default: a temporary directory);
# FM_WEB_DOC_IMAGES=docs/img refreshes the README's two pictures from them.
#
#   ./scripts/test_web.sh        (from anywhere; works from a fresh clone)
#   FM_WEB_WHOLE=1 ./scripts/test_web.sh     (also two whole games played by mouse)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "chromium or chromedriver not found: installing them with apt-get" >&2
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        (apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) >&2 ||
            { echo "test_web.sh: could not install chromium with apt-get" >&2; exit 1; }
    else
        echo "test_web.sh: chromium and chromium-driver are required" >&2
        exit 1
    fi
fi
VENV=${FM_VENV:-.venv}
PYTHON=${PYTHON:-python3}
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "selenium>=4.10,<5"
./scripts/release_build.sh --quiet
# Offline: selenium must not look for drivers or browsers on the network.
SE_OFFLINE=true timeout 240 "$VENV/bin/python" tests/web/test_page.py "${CARGO_TARGET_DIR:-target}/release/serve"
# Whole games by mouse, both sides in their own window (tests/web/whole_game.py): a
# system-demo game and a huzzah-firefight battle, 2 to 4 minutes each, so opt-in.
if [ "${FM_WEB_WHOLE:-0}" = 1 ]; then
    SE_OFFLINE=true timeout 1200 "$VENV/bin/python" tests/web/whole_game.py \
        "${CARGO_TARGET_DIR:-target}/release/serve"
fi
