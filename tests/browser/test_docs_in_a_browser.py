"""/docs in headless Chromium, served on a free port (never 8000): Swagger UI's "Try
it out" calls the server that served the page, and answers, because the document's
`servers` is relative."""

from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow


def test_try_it_out_on_docs_calls_the_serving_port(browser, stack, screenshots):
    assert urlsplit(stack.base).port != 8000
    browser.get(f"{stack.base}/docs")
    wait = WebDriverWait(browser, 30, poll_frequency=0.2)
    operation = wait.until(lambda b: b.find_element(By.ID, "operations-games-listGames"))
    operation.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
    wait.until(lambda b: operation.find_element(By.CSS_SELECTOR, ".try-out__btn")).click()
    wait.until(lambda b: operation.find_element(By.CSS_SELECTOR, ".execute")).click()
    status = wait.until(
        lambda b: operation.find_element(
            By.CSS_SELECTOR, ".live-responses-table .response .response-col_status"
        )
    )
    url = operation.find_element(By.CSS_SELECTOR, ".request-url pre").text
    browser.save_screenshot(str(screenshots / "docs-try-it-out.png"))
    assert status.text.strip().startswith("200"), status.text
    assert url.startswith(f"{stack.base}/v1/games"), url
    icon = browser.execute_async_script(
        "const done = arguments[0];"
        "fetch('/favicon.ico').then(r => done(r.status + ' ' + r.headers.get('content-type')))"
    )
    assert icon.startswith("200 image/")
