"""/play in headless Chromium: one game of each against bots, played to the end with
live updates, then stepped through in its replay. A screenshot of each game is kept
under .artifacts/screenshots/ for a person to look at."""

import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow

# Short settings, so a game ends in a minute or so: Alebrijes one round, Alien a
# short stacking window.
GAMES = {
    "alebrijes": '{"rounds": 1}',
    "alien": '{"stack_seconds": 1}',
    "alakablast": "{}",
    "abluxxen": "{}",
}
HAND_MOVES = 2  # moves made by clicking a button; then the client plays for us
GAME_SECONDS = 240


def body_data(browser, name):
    return browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def wait_for(browser, condition, seconds=30):
    return WebDriverWait(browser, seconds, poll_frequency=0.1).until(condition)


def our_turn(browser):
    return "(your turn)" in browser.find_element(By.ID, "status").text


def open_table(browser, stack, game):
    browser.get(f"{stack.base}/play")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, f"#game option[value={game}]"))
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    options = browser.find_element(By.ID, "options")
    options.clear()
    options.send_keys(GAMES[game])
    browser.find_element(By.ID, "start").click()
    wait_for(browser, lambda b: body_data(b, "status") in ("active", "finished"))


def click_first_legal(browser):
    """Click the first legal move's button; False when there is none, or when the page
    redrew the buttons between finding and clicking (a bot moved meanwhile: the caller
    looks again, as a person would)."""
    buttons = browser.find_elements(By.CSS_SELECTOR, "#legal button")
    if not buttons:
        return False
    try:
        buttons[0].click()
    except StaleElementReferenceException:
        return False
    return True


def play_to_the_end(browser):
    """Click a few moves by hand (the first legal one each time it is our turn), then
    let the client play for us; the bots play server-side."""
    deadline = time.monotonic() + GAME_SECONDS
    clicked = 0
    while clicked < HAND_MOVES and body_data(browser, "status") != "finished":
        assert time.monotonic() < deadline, "the game did not reach our turn"
        before = browser.find_element(By.ID, "status").text
        if our_turn(browser) and click_first_legal(browser):
            wait_for(
                browser, lambda b, before=before: b.find_element(By.ID, "status").text != before
            )
            clicked += 1
        time.sleep(0.1)
    browser.find_element(By.ID, "autoplay").click()
    if our_turn(browser):  # the click on "play for me" alone sends nothing: ask once
        click_first_legal(browser)
    wait_for(browser, lambda b: body_data(b, "status") == "finished", deadline - time.monotonic())
    return browser.find_element(By.ID, "status").text


def replay_version(browser):
    return int(body_data(browser, "replay-version") or 0)


def step_through_the_replay(browser):
    """First, next, next, previous, jump, and switching seats: each shows the table at
    the version the controls say."""
    replay = wait_for(browser, seen.visibility_of_element_located((By.ID, "replay")))
    last = wait_for(browser, lambda b: replay_version(b))
    browser.find_element(By.ID, "replay-first").click()
    wait_for(browser, lambda b: replay_version(b) < last)
    first = replay_version(browser)
    browser.find_element(By.ID, "replay-next").click()
    wait_for(browser, lambda b: replay_version(b) > first)
    second = replay_version(browser)
    browser.find_element(By.ID, "replay-next").click()
    wait_for(browser, lambda b: replay_version(b) > second)
    browser.find_element(By.ID, "replay-prev").click()
    wait_for(browser, lambda b: replay_version(b) == second)
    middle = last // 2
    field = browser.find_element(By.ID, "replay-version")
    field.clear()
    field.send_keys(str(middle))
    browser.find_element(By.ID, "replay-jump").click()
    wait_for(browser, lambda b: replay_version(b) >= middle and replay_version(b) != second)
    shown = replay_version(browser)
    ours = replay.find_element(By.ID, "replay-state").text
    Select(browser.find_element(By.ID, "replay-seat")).select_by_value("everyone")
    wait_for(browser, lambda b: "of seat 1" in b.find_element(By.ID, "replay-state").text)
    assert replay_version(browser) == shown
    Select(browser.find_element(By.ID, "replay-seat")).select_by_value("")
    wait_for(browser, lambda b: b.find_element(By.ID, "replay-state").text not in (ours, ""))
    return replay.find_element(By.ID, "replay-shown").text


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_against_bots_played_to_the_end_and_replayed(browser, stack, screenshots, game):
    open_table(browser, stack, game)
    status = play_to_the_end(browser)
    assert status.startswith("finished:") and "won" in status
    assert browser.save_screenshot(str(screenshots / f"{game}-finished.png"))
    game_id = browser.find_element(By.ID, "game-id").text
    summary = stack.call("GET", f"/v1/games/{game_id}").json()
    assert summary["status"] == "finished" and summary["game"] == game
    shown = step_through_the_replay(browser)
    assert shown.startswith("version ")
    Select(browser.find_element(By.ID, "replay-seat")).select_by_value("0")
    wait_for(browser, lambda b: body_data(b, "replay-seat") == "0")
    browser.execute_script("document.getElementById('replay').scrollIntoView()")
    assert browser.save_screenshot(str(screenshots / f"{game}-replay.png"))
    fork_and_finish(browser, stack, game_id)


def fork_and_finish(browser, stack, original):
    """Fork the game at an earlier step of the replay; the client plays the fork for us
    (still "play for me") to its end and opens its replay."""
    shown = replay_version(browser)
    field = browser.find_element(By.ID, "replay-version")
    field.clear()
    field.send_keys(str(shown // 2))
    browser.find_element(By.ID, "replay-jump").click()
    wait_for(browser, lambda b: replay_version(b) != shown)
    at = replay_version(browser)
    browser.find_element(By.ID, "replay-fork").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "game-id").text != original)
    fork = browser.find_element(By.ID, "game-id").text
    export = (By.ID, "replay-export")
    wait_for(browser, lambda b: b.find_element(*export).get_attribute("href").endswith(
        f"/{fork}/export"), GAME_SECONDS)  # fmt: skip
    assert body_data(browser, "status") == "finished"
    created = stack.call("GET", f"/v1/games/{fork}/events?limit=1").json()["events"][0]
    assert created["forked_from"] == {"game": original, "version": at}
