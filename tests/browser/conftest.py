"""Browser tests: the reference client at /play in headless Chromium (Debian's
`chromium` and `chromium-driver`; `make test-slow` installs them when missing), driven
by selenium against the whole stack as `make run` starts it. One browser per screen
size, a phone's and a desktop's; axe-core (npm, pinned by tests/browser/node's lock
file) is installed into .cache/node-browser for the accessibility check."""

import hashlib
import shutil
import signal
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.e2e.conftest import ROOT, start_stack

SCREENSHOTS = ROOT / ".artifacts" / "screenshots"
NODE_PROJECT = ROOT / "tests" / "browser" / "node"
NODE_CACHE = ROOT / ".cache" / "node-browser"
# The sizes the page must fit: a phone held upright (CSS pixels) and a laptop.
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    client, run = start_stack(tmp_path_factory)
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


@pytest.fixture(scope="session", params=list(SIZES))
def browser(request):
    """A headless Chromium showing pages at one of SIZES; `browser.size` names it."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "install Debian's chromium and chromium-driver (make test-slow)"
    width, height, mobile = SIZES[request.param]
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    # The driver's path is given, so Selenium Manager never looks for one on the network.
    session = webdriver.Chrome(options=options, service=Service(driver))
    session.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    if mobile:
        session.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    session.size = request.param
    yield session
    session.quit()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def axe_source():
    """axe-core's browser script, installed once per lock file with `npm ci`."""
    npm = shutil.which("npm")
    assert npm, "the accessibility check needs node and npm (apt-get install -y nodejs npm)"
    lock = (NODE_PROJECT / "package-lock.json").read_bytes()
    stamp = NODE_CACHE / ".lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        NODE_CACHE.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(NODE_PROJECT / name, NODE_CACHE / name)
        command = [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"]
        subprocess.run(command, cwd=NODE_CACHE, check=True, timeout=300)
        stamp.write_text(digest)
    return (NODE_CACHE / "node_modules" / "axe-core" / "axe.min.js").read_text()
