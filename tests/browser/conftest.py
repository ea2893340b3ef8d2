"""Browser tests: the reference client at /play in headless Chromium (Debian's
`chromium` and `chromium-driver`; `make test-slow` installs them when missing), driven
by selenium against the whole stack as `make run` starts it."""

import shutil
import signal

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.e2e.conftest import ROOT, start_stack

SCREENSHOTS = ROOT / ".artifacts" / "screenshots"


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    client, run = start_stack(tmp_path_factory)
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


@pytest.fixture(scope="session")
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "install Debian's chromium and chromium-driver (make test-slow)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1200,1600",
        "--disable-gpu",
    ):
        options.add_argument(argument)
    session = webdriver.Chrome(options=options, service=Service(driver))
    yield session
    session.quit()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
