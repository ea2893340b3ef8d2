"""/play in headless Chromium, at a phone's size and a desktop's: one game of each
against a bot, played to its end as a person plays it (select cards, press the action
that lights up), then stepped through in its replay and forked. Screenshots of the
start, the middle and the end of each game land in .artifacts/screenshots/; axe-core
checks the page at each of them.

The player here never reads the API: it looks at the page (card labels, which buttons
are enabled) and tries selections as a person would, so a button enabled for a move the
rules refuse, or never enabled for one they allow, shows up as an error or a game that
does not end."""

import base64
import json
import time

import pytest
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow

GAME_SECONDS = 300
MIDDLE = 4  # the middle screenshot: after our fourth action
# Short games: Alebrijes one round, Alien a short stacking window. A turn clock on
# every game, so the countdown shows (long enough never to run out here).
OPTIONS = {
    "alebrijes": {"rounds": 1, "turn_seconds": 300},
    "alien": {"stack_seconds": 2, "turn_seconds": 300},
    "alakablast": {"turn_seconds": 300},
    "abluxxen": {"turn_seconds": 300},
}


class Table:
    """The page as a person sees it: the cards one may pick, the actions, the status."""

    def __init__(self, browser):
        self.b = browser
        self.acted = 0
        self.middle = None  # what the page showed at the middle screenshot

    def data(self, name):
        return self.b.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")

    def finished(self):
        return self.data("status") == "finished"

    def keys(self, prefix=""):
        """The keys of the cards one may pick now, in the page's order."""
        return [
            element.get_attribute("data-key")
            for element in self.b.find_elements(
                By.CSS_SELECTOR, starting("#board button.card", "data-key", prefix)
            )
        ]

    def label(self, key):
        return self.b.find_element(By.CSS_SELECTOR, f'#board [data-key="{key}"]').get_attribute(
            "aria-label"
        )

    def pick(self, key):
        self.click(self.b.find_element(By.CSS_SELECTOR, f'#board [data-key="{key}"]'))

    def click(self, element):
        """Click as a person taps: the element scrolled into the middle of the screen
        first, clear of the action bar that stays at the bottom."""
        self.b.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def picked(self):
        return [
            e.get_attribute("data-key")
            for e in self.b.find_elements(By.CSS_SELECTOR, '#board [aria-pressed="true"]')
        ]

    def enabled(self, prefix=""):
        """The ids of the enabled actions (`prefix`: only those whose id starts so)."""
        buttons = self.b.find_elements(
            By.CSS_SELECTOR, starting("#actions button", "data-action", prefix)
        )
        return [b.get_attribute("data-action") for b in buttons if b.is_enabled()]

    def why(self):
        return self.b.find_element(By.ID, "why").text

    def press(self, action):
        """Press an action and wait for the page to show the game after it (or to say
        that the table moved first). A button no longer enabled when the finger lands
        (a bot moved meanwhile) is not pressed: the caller looks again."""
        before = int(self.data("version"))
        refusals = len(self.b.find_elements(By.CSS_SELECTOR, "#log .refused"))
        button = self.b.find_element(By.CSS_SELECTOR, f'#actions button[data-action="{action}"]')
        if not button.is_enabled():
            return
        self.click(button)

        def answered(b):
            if self.data("busy"):
                return False
            moved = int(self.data("version")) > before
            return moved or len(b.find_elements(By.CSS_SELECTOR, "#log .refused")) > refusals

        wait_for(self.b, answered, message=lambda: f"{action} pressed: {self.page()}")
        self.acted += 1

    def page(self):
        """What the page says now, for a failure's message."""
        why = self.why()
        log = self.b.find_element(By.ID, "log").text.splitlines()[:6]
        setup = self.b.find_element(By.ID, "setup-why").text
        state = f"status {self.data('status')} version {self.data('version')}"
        return f"setup: {setup!r}; {state}; why: {why!r}; log: {log}"

    def our_turn(self):
        return bool(self.b.find_elements(By.CSS_SELECTOR, "#status .yours")) or bool(self.enabled())

    def choose(self, name, value):
        Select(
            self.b.find_element(By.CSS_SELECTOR, f'#actions select[name="{name}"]')
        ).select_by_value(value)


def starting(selector, attribute, prefix):
    """A CSS selector for `selector` with `attribute` starting with `prefix` (an empty
    prefix matches no element in CSS, so it means any)."""
    return f'{selector}[{attribute}^="{prefix}"]' if prefix else f"{selector}[{attribute}]"


def wait_for(browser, condition, seconds=30, message=None):
    try:
        return WebDriverWait(browser, seconds, poll_frequency=0.05).until(condition)
    except TimeoutException:
        raise AssertionError(message() if message else "timed out") from None


# --- each game as a person plays it


def alebrijes(t, notes):
    if t.enabled("exchange"):
        hand = t.keys()
        if "exchanged" not in notes:  # once, by keyboard alone: lay one card aside
            notes.add("exchanged")
            return by_keyboard(t, "exchange", "Lay aside 1 and draw 1")
        return t.press("exchange")
    hand = t.keys()
    if "why" not in notes and len(hand) >= 3:  # an illegal selection says why
        numbers = {}
        for key in hand:
            numbers.setdefault(t.label(key).split()[1], key)
        if len(numbers) >= 2:
            first, second = list(numbers.values())[:2]
            t.pick(first)
            t.pick(second)
            assert "play" not in t.enabled()
            assert "set is cards of one number" in t.why() or "To beat" in t.why(), t.why()
            t.pick(first)
            t.pick(second)
            notes.add("why")
    for key in t.keys():
        t.pick(key)
        if "play" in t.enabled():
            others_draw = t.b.find_elements(
                By.CSS_SELECTOR, 'input[name="ollin"][value="others_draw"]'
            )
            if others_draw and "ollin" not in notes:  # once: choose an Ollin effect
                notes.add("ollin")
                t.click(others_draw[0])
                assert t.b.find_element(By.CSS_SELECTOR, 'input[value="others_draw"]').is_selected()
            return t.press("play")  # any other Ollin choice stays at "no effect"
        t.pick(key)
    return t.press("pass")


def by_keyboard(t, action, label):
    """Tab to the first card of the hand, select it with Space, Tab on to the action and
    press it with Enter: the table is played without a pointer too."""
    t.b.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    focused = t.b.switch_to.active_element
    for _ in range(60):
        focused.send_keys(Keys.TAB)
        focused = t.b.switch_to.active_element
        if focused.get_attribute("data-key"):
            break
    key = focused.get_attribute("data-key")
    assert key, "Tab never reached a card"
    focused.send_keys(Keys.SPACE)
    assert t.picked() == [key]
    focused = t.b.switch_to.active_element
    assert focused.get_attribute("data-key") == key  # the focus stays on the card
    for _ in range(60):
        focused.send_keys(Keys.TAB)
        focused = t.b.switch_to.active_element
        if focused.get_attribute("data-action") == action:
            break
    assert focused.text == label, focused.text
    before = int(t.data("version"))
    focused.send_keys(Keys.ENTER)
    wait_for(t.b, lambda b: int(t.data("version")) > before, message=t.page)
    t.acted += 1


def alien(t, notes):
    for action in ("stack", "claim"):
        if t.enabled(action):
            return t.press(action)
    if not t.b.find_elements(By.CSS_SELECTOR, "#status .yours"):
        return None
    for key in t.keys():
        t.pick(key)
        for action in ("capture", "play", "hunt-"):
            found = t.enabled(action)
            if found:
                return t.press(found[0])
        if "claim" in t.enabled():
            return t.press("claim")
        if key in t.picked():
            t.pick(key)
    takes = t.enabled("take-")
    return t.press(takes[0] if takes else (t.enabled("end_turn") or t.enabled("pass"))[0])


def alakablast(t, notes):
    if t.enabled("inform-"):
        return t.press(t.enabled("inform-")[0])
    if t.b.find_elements(By.CSS_SELECTOR, '#actions [data-action="choose"]'):
        t.pick(t.keys("0:")[0])
        return t.press("choose")
    if "asked" not in notes:  # once: ask about one of our open cards
        for key in t.keys("0:"):
            t.pick(key)
            if "ask" in t.enabled():
                notes.add("asked")
                guesses = t.b.find_elements(By.CSS_SELECTOR, '#actions select[name="claim"]')
                if guesses:  # say what we think the card is
                    Select(guesses[0]).select_by_index(1)
                    assert "ask" in t.enabled()
                return t.press("ask")
            t.pick(key)
    for key in t.keys("1:"):
        t.pick(key)
        if "duel" in t.enabled():
            return t.press("duel")
        t.pick(key)
    plain = t.enabled("duel-")
    if plain:
        return t.press(plain[0])
    t.pick(t.keys("0:")[0])
    return t.press("ask")


def abluxxen(t, notes):
    for choice in ("give_up", "discard", "keep-true"):
        if t.enabled(choice):
            return t.press(choice)
    attacks = t.enabled("attack-")
    if attacks:
        return t.press(attacks[0])
    if t.enabled("stop"):
        return t.press("stop")
    if t.b.find_elements(By.CSS_SELECTOR, '#actions [data-action="draw"]'):
        for key in [None, *t.keys("d")]:
            if key:
                t.pick(key)
            if "draw" in t.enabled():
                return t.press("draw")
        raise AssertionError(f"no draw lit up: {t.why()}")
    # Play the biggest row: the cards of the number held most often, jokers alone last.
    groups = {}
    for key in t.keys("h"):
        groups.setdefault(t.label(key), []).append(key)
    numbers = [keys for label, keys in groups.items() if label != "joker"] or list(groups.values())
    for key in max(numbers, key=len):
        t.pick(key)
    return t.press("play")


PLAYERS = {"alebrijes": alebrijes, "alien": alien, "alakablast": alakablast, "abluxxen": abluxxen}


# --- what every page must be


def full_screenshot(browser, path):
    """The whole page, not only the viewport: what a person scrolls through."""
    shot = browser.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def check_the_page(browser, axe_source):
    """No horizontal scrolling, touch targets of 44 px (a radio button's or a check
    box's is its label), and no serious or critical accessibility violation found by
    axe-core."""
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    small = browser.execute_script(
        """return [...document.querySelectorAll('button, select, input, a')]
             .filter((e) => e.offsetParent !== null)
             .filter((e) => !e.closest('header'))
             .map((e) => [e.dataset.action || e.dataset.key || e.id || e.textContent.trim(),
                          (['radio', 'checkbox'].includes(e.type) ? e.closest('label') : e)
                            .getBoundingClientRect()])
             .filter(([, r]) => Math.min(r.width, r.height) < 44 && r.width > 0)
             .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert not small, f"touch targets under 44 px: {small}"
    browser.execute_script(axe_source)
    found = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
           axe.run(document, {resultTypes: ['violations']}).then((r) => done(
             r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
               .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(' ')})`)));"""
    )
    assert not found, found


def open_table(browser, stack, game):
    browser.get(f"{stack.base}/play/")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, f'#game option[value="{game}"]'))
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    Select(browser.find_element(By.ID, "bots")).select_by_value("1")
    wait_for(browser, lambda b: body(b, "preset") == game)
    options = browser.find_element(By.ID, "options")
    options.clear()
    options.send_keys(json.dumps(OPTIONS[game]))
    browser.find_element(By.ID, "start").click()
    wait_for(browser, lambda b: body(b, "version"), message=lambda: Table(browser).page())


def body(browser, name):
    return browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def play_to_the_end(browser, game, shoot):
    t = Table(browser)
    player = PLAYERS[game]
    notes = set()
    deadline = time.monotonic() + GAME_SECONDS
    shot_middle = False
    while not t.finished():
        assert time.monotonic() < deadline, f"{game} did not end in {GAME_SECONDS} s"
        try:
            if not t.our_turn():
                time.sleep(0.05)
                continue
            player(t, notes)
        except (StaleElementReferenceException, NoSuchElementException, IndexError):
            continue  # a bot moved while we looked: look again, as a person would
        if t.acted >= MIDDLE and not shot_middle and not t.finished():
            t.middle = what_the_page_shows(browser)
            shoot("middle")
            shot_middle = True
    return t, notes


def what_the_page_shows(browser):
    """The version drawn and every card's label, ours and the others', read at once."""
    return browser.execute_script(
        """const labels = (s) => [...document.querySelectorAll(s)]
             .map((c) => c.getAttribute('aria-label'));
           return {version: Number(document.body.dataset.version),
                   me: labels('#board .me .card'), others: labels('#board .others .card')};"""
    )


SPELLS = {"W": "water", "F": "fire", "P": "plant", "L": "light", "S": "shadow"}


def spell_words(code):
    return SPELLS[code[0]] if code[0] in "LS" else f"{SPELLS[code[0]]} {code[1]}"


def nothing_hidden_was_shown(stack, game, game_id, middle):
    """The page at the middle showed only what our seat could see: checked against every
    seat's view of that version, public now that the game is over."""
    answer = stack.call("GET", f"/v1/games/{game_id}/replay?at={middle['version']}&everyone=true")
    everyone = {view["seat"]: view["state"] for view in answer.json()["everyone"]}
    if game == "alakablast":
        # Our open cards, which Bea sees and we do not, are not named on our side; Bea's
        # hidden cards (which only she sees) are backs, her open ones named.
        ours = everyone[1]["hands"][0]
        bea_sees, we_see = everyone[1]["hands"][1], everyone[0]["hands"][1]
        assert len(middle["me"]) == len(ours)
        for slot, label in zip(ours, middle["me"], strict=True):
            if slot["open"]:
                seen = label.partition("; told")[0]  # what we were told is ours to know
                assert "cannot see it" in seen and spell_words(slot["spell"]) not in seen
        for hidden, shown, label in zip(bea_sees, we_see, middle["others"], strict=True):
            if hidden["open"]:
                assert spell_words(shown["spell"]) in label
            else:
                assert label.endswith("hidden") and spell_words(hidden["spell"]) not in label
    elif game == "alebrijes":  # Bea's hand is counted, never shown
        assert everyone[1]["hand"] and middle["others"] == []
    elif game == "alien":  # of Bea's cards, only her prison (public)
        assert middle["others"] == [f"alien {c[1:]}" for c in everyone[0]["prisons"][1]]
    else:  # of Bea's cards, only her top row (public)
        row = everyone[0]["seats"][1]["top_row"] or []
        assert middle["others"] == ["joker" if c == "X" else c for c in row]


def replay_version(browser):
    return int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-replay-version") or 0)


def step_through_the_replay(browser):
    """First, next, previous, and switching seats: each shows the table at the version
    the controls say, as the chosen seat saw it."""
    wait_for(browser, lambda b: b.find_element(By.ID, "replay").is_displayed())
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
    Select(browser.find_element(By.ID, "replay-seat")).select_by_value("everyone")
    wait_for(browser, lambda b: "Bea holds" in b.find_element(By.ID, "replay-board").text)
    assert replay_version(browser) == second


def fork_here(browser, stack, original):
    """Fork the finished game at the replay's step: a new table opens at that position."""
    at = replay_version(browser)
    browser.find_element(By.ID, "replay-fork").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "game-id").text not in ("", original))
    fork = browser.find_element(By.ID, "game-id").text
    created = stack.call("GET", f"/v1/games/{fork}/events?limit=1").json()["events"][0]
    assert created["forked_from"] == {"game": original, "version": at}
    wait_for(
        browser,
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-status") == "active",
    )


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_game_played_by_selecting_cards_to_its_end(browser, stack, screenshots, axe_source, game):
    def shoot(moment):
        full_screenshot(browser, screenshots / f"{game}-{browser.size}-{moment}.png")
        check_the_page(browser, axe_source)

    open_table(browser, stack, game)
    assert browser.find_element(By.ID, "status").text  # whose turn, from the first view
    # The WebSocket where the server has one (a plain GET of it is refused, not unknown),
    # long-poll otherwise.
    served = stack.call("GET", "/v1/ws").status_code != 404
    wait_for(browser, lambda b: body(b, "transport"))
    assert body(browser, "transport") == ("websocket" if served else "long-poll")
    shoot("start")
    t, notes = play_to_the_end(browser, game, shoot)
    assert t.acted >= MIDDLE, f"only {t.acted} actions: the game ended before its middle"
    wait_for(browser, lambda b: b.find_element(By.ID, "result").is_displayed())
    result = browser.find_element(By.ID, "result").text
    assert "won" in result.lower(), result
    game_id = browser.find_element(By.ID, "game-id").text
    summary = stack.call("GET", f"/v1/games/{game_id}").json()
    assert summary["status"] == "finished" and summary["game"] == game
    scores = summary["result"]["scores"]
    assert all(str(score) in result for score in scores), (scores, result)
    # No command the page offered on the view it showed was refused. When the bot moved
    # first (Alien's CAPTURED! race, both duelists choosing at once), the page says so
    # ("the table moved first", `.raced`): a race at a real table too.
    errors = browser.find_elements(By.CSS_SELECTOR, "#log .error, #log .refused")
    assert not errors, browser.find_element(By.ID, "log").text.splitlines()[:40]
    log = browser.find_element(By.ID, "log").text
    assert "Bea" in log and "{" not in log  # the moves in words, not JSON
    nothing_hidden_was_shown(stack, game, game_id, t.middle)
    step_through_the_replay(browser)
    shoot("end")
    fork_here(browser, stack, game_id)


def test_a_guest_finds_its_game_in_my_games_and_plays_on(browser, stack, screenshots, axe_source):
    """Sign in as a guest, open a table, leave it after a move: "my games" lists it with
    our turn first, and opening it from there sits us at it again."""
    browser.get(f"{stack.base}/play/")
    wait_for(browser, lambda b: body(b, "preset"))
    name = browser.find_element(By.ID, "name")
    name.clear()
    name.send_keys("Cora")
    browser.find_element(By.ID, "guest").click()
    wait_for(browser, lambda b: "Signed in as Cora" in b.find_element(By.ID, "signed-in").text)
    wait_for(browser, lambda b: b.find_element(By.ID, "my-games").is_displayed())
    Select(browser.find_element(By.ID, "bots")).select_by_value("1")
    browser.find_element(By.ID, "start").click()
    wait_for(browser, lambda b: body(b, "version"), message=lambda: Table(browser).page())
    game_id = browser.find_element(By.ID, "game-id").text
    t = Table(browser)
    wait_for(browser, lambda b: t.enabled("exchange"), message=t.page)
    t.press("exchange")  # keep our hand; Bea exchanges, then we lead
    assert "Cora" in browser.find_element(By.ID, "board").text
    browser.find_element(By.ID, "again").click()
    mine = f'#my-games-list li.mine button[data-game="{game_id}"]'

    refreshed = [time.monotonic()]

    def listed(b):  # the projector writes my games just after the move: look again
        if b.find_elements(By.CSS_SELECTOR, mine):
            return True
        refresh = b.find_element(By.ID, "my-games-refresh")
        if refresh.is_displayed() and time.monotonic() - refreshed[0] > 1:
            refresh.click()
            refreshed[0] = time.monotonic()
        return False

    wait_for(browser, listed, message=lambda: browser.find_element(By.ID, "my-games").text)
    row = browser.find_element(By.CSS_SELECTOR, "#my-games-list li.mine").text
    assert "alebrijes" in row and "Bea" in row and "your turn" in row, row
    full_screenshot(browser, screenshots / f"guest-{browser.size}-my-games.png")
    check_the_page(browser, axe_source)
    browser.find_element(By.CSS_SELECTOR, mine).click()
    wait_for(browser, lambda b: b.find_element(By.ID, "game-id").text == game_id)
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#status .yours"))
    browser.find_element(By.ID, "again").click()
    browser.find_element(By.ID, "forget").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "guest").is_displayed())
