"""/play's player layer in headless Chromium, at a phone's size and a desktop's:
invitations (sent when opening a table, answered from "My games"), the rematch (asked
at a finished table, and offered by another player), and ratings (my ratings, the
leaderboard around me, provisional marks). The person in the browser is Cora, a guest;
the other player, Dan, is played through the API, as another person's app would be.
Screenshots land in .artifacts/screenshots/ and axe-core checks the page at each."""

import json
import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from tests.browser.test_play_in_a_browser import (
    Table,
    body,
    check_the_page,
    full_screenshot,
    wait_for,
)

pytestmark = pytest.mark.slow

SHORT = {"rounds": 1}  # Alebrijes, one round: a game of seconds when bots play it


@pytest.fixture(autouse=True)
def forgotten(browser, stack):
    """Each test leaves the browser as it found it: no guest kept in its storage (the
    browser is shared by every test of its size)."""
    yield
    browser.get(f"{stack.base}/play/")
    browser.execute_script("localStorage.clear()")
    browser.get("about:blank")


def guest(stack, name):
    made = stack.call("POST", "/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()


def signed_in(browser, stack, name):
    """Cora signs in as a guest in the page; answers the player the page keeps."""
    browser.get(f"{stack.base}/play/")
    browser.execute_script("localStorage.clear()")
    browser.get(f"{stack.base}/play/")
    wait_for(browser, lambda b: body(b, "preset"))
    field = browser.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    browser.find_element(By.ID, "guest").click()
    wait_for(browser, lambda b: f"Signed in as {name}" in text(b, "signed-in"))
    player = json.loads(browser.execute_script("return localStorage['tablestream.player']"))
    assert player["id"] in text(browser, "signed-in")  # the id to give to be invited
    return player


def text(browser, element_id):
    """An element's text; looked up again when the page redrew it as it was read."""
    for _ in range(20):
        try:
            return browser.find_element(By.ID, element_id).text
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"#{element_id} kept being redrawn")


def click(browser, selector):
    """Click the element `selector` finds; found again when the page redrew it between
    the finding and the click ("My games" is redrawn as the inbox's items arrive)."""
    for _ in range(20):
        try:
            return browser.find_element(By.CSS_SELECTOR, selector).click()
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{selector} kept being redrawn")


def open_table(browser, invite=(), bots="0", rated=False):
    """Open an Alebrijes table of one round from the set-up form."""
    Select(browser.find_element(By.ID, "game")).select_by_value("alebrijes")
    wait_for(browser, lambda b: body(b, "preset") == "alebrijes")
    Select(browser.find_element(By.ID, "bots")).select_by_value(bots)
    field = browser.find_element(By.ID, "invite")
    field.clear()
    field.send_keys(", ".join(invite))
    checkbox = browser.find_element(By.ID, "rated")
    if checkbox.is_selected() != rated:
        checkbox.click()
    options = browser.find_element(By.ID, "options")
    options.clear()
    options.send_keys(json.dumps(SHORT))
    before = text(browser, "game-id")  # the table left before, if any
    browser.find_element(By.ID, "start").click()
    wait_for(
        browser,
        lambda b: text(b, "game-id") not in ("", before) and body(b, "version"),
        message=lambda: Table(browser).page(),
    )
    return text(browser, "game-id")


def shoot(browser, screenshots, axe_source, name):
    full_screenshot(browser, screenshots / f"{name}-{browser.size}.png")
    check_the_page(browser, axe_source)


def texts(browser, selector):
    """The text of every element `selector` matches, read at once (the page redraws
    lists when the inbox says something happened)."""
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)", selector
    )


def eventually(read, done, seconds=20.0):
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            assert done(value), value
            return value
        time.sleep(0.1)


def my_games(stack, player):
    return stack.call("GET", "/v1/players/me/games", player["token"]).json()["games"]


def finish_by_resigning(stack, game_id, *players):
    """Every human resigns: the takeover bots play the game to its end in seconds."""
    for seat, player in enumerate(players):
        answer = stack.call("POST", f"/v1/games/{game_id}/seats/{seat}/resign", player["token"])
        assert answer.status_code == 200, answer.text


def test_an_invitation_is_sent_then_answered_from_my_games(browser, stack, screenshots, axe_source):
    cora = signed_in(browser, stack, "Cora")
    dan = guest(stack, "Dan")
    # Cora invites Dan (by his id) and a bot: the table waits for Dan.
    game_id = open_table(browser, invite=[dan["id"]], bots="1")
    wait_for(browser, lambda b: body(b, "status") == "waiting")
    assert "Waiting for Dan" in text(browser, "status")
    assert "invited, not yet accepted" in text(browser, "board")
    shoot(browser, screenshots, axe_source, "invite-waiting")
    invitation = eventually(
        lambda: [g for g in my_games(stack, dan) if g["id"] == game_id], lambda found: found
    )[0]
    assert invitation["invited"] and invitation["seat"] == 1
    # Dan declines: the seat opens and the table waits for anyone; Cora calls it off.
    declined = stack.call("POST", f"/v1/games/{game_id}/seats/1/decline", dan["token"])
    assert declined.status_code == 200, declined.text
    wait_for(browser, lambda b: "Waiting for someone to sit down" in text(b, "status"))
    assert "an open seat" in text(browser, "board")
    browser.find_element(By.ID, "call-off").click()
    wait_for(browser, lambda b: body(b, "status") == "cancelled")
    assert "called off" in text(browser, "status")
    assert stack.call("GET", f"/v1/games/{game_id}").json()["status"] == "cancelled"
    browser.find_element(By.ID, "again").click()
    # Invited again, Dan accepts: the game starts on Cora's page.
    game_id = open_table(browser, invite=[dan["id"]], bots="1")
    wait_for(browser, lambda b: body(b, "status") == "waiting")
    eventually(lambda: [g for g in my_games(stack, dan) if g["id"] == game_id], lambda found: found)
    accepted = stack.call("POST", f"/v1/games/{game_id}/seats/1/accept", dan["token"])
    assert accepted.status_code == 200, accepted.text
    wait_for(browser, lambda b: body(b, "status") == "active", message=Table(browser).page)
    assert "Dan accepted the invitation." in text(browser, "log")

    # Dan invites Cora to two tables: "My games" shows both without a refresh (the
    # inbox's long-poll); Cora declines one and accepts the other.
    browser.find_element(By.ID, "again").click()
    invited = []
    for _ in range(2):
        seats = [{"player": "me"}, {"player": cora["id"]}]
        body_ = {"game": "alebrijes", "seats": seats, "options": SHORT}
        made = stack.call("POST", "/v1/games", dan["token"], json=body_)
        assert made.status_code == 201, made.text
        invited.append(made.json()["id"])
    rows = "#my-games-list li.invitation"
    wait_for(
        browser,
        lambda b: len(b.find_elements(By.CSS_SELECTOR, rows)) == 2,
        message=lambda: text(browser, "my-games"),
    )
    found = texts(browser, rows)
    assert all("invited" in row and "with Dan" in row for row in found), found
    shoot(browser, screenshots, axe_source, "invite-my-games")
    decline, accept = invited
    answer = 'button[data-do="{}"][data-game="{}"]'
    click(browser, answer.format("decline", decline))
    eventually(
        lambda: stack.call("GET", f"/v1/games/{decline}").json()["seats"][1],
        lambda seat: seat["open"] and not seat.get("invited"),
    )
    wait_for(browser, lambda b: not b.find_elements(By.CSS_SELECTOR, f'[data-game="{decline}"]'))
    click(browser, answer.format("accept", accept))
    wait_for(browser, lambda b: text(b, "game-id") == accept)
    wait_for(browser, lambda b: body(b, "status") == "active", message=Table(browser).page)
    assert "Cora" in text(browser, "board") and "Dan" in text(browser, "board")
    # What Cora's page holds of Dan is his name: never his token.
    assert dan["token"] not in browser.page_source
    browser.find_element(By.ID, "again").click()


def test_a_rematch_is_asked_and_an_offered_one_joined(browser, stack, screenshots, axe_source):
    cora = signed_in(browser, stack, "Cora")
    dan = guest(stack, "Dan")
    first = open_table(browser, invite=[dan["id"]])
    assert stack.call("POST", f"/v1/games/{first}/seats/1/accept", dan["token"]).ok
    wait_for(browser, lambda b: body(b, "status") == "active")
    finish_by_resigning(stack, first, cora, dan)
    wait_for(browser, lambda b: body(b, "status") == "finished", seconds=60)
    ask = browser.find_element(By.ID, "rematch-ask")
    wait_for(browser, lambda b: ask.is_displayed())
    shoot(browser, screenshots, axe_source, "rematch-ask")
    # Cora asks: a new game with the same seats opens, waiting for Dan's answer.
    ask.click()
    wait_for(browser, lambda b: text(b, "game-id") not in ("", first))
    second = text(browser, "game-id")
    wait_for(browser, lambda b: body(b, "status") == "waiting")
    offered = [e for e in stack.events(first, dan["token"])[0] if e["type"] == "rematch_offered"]
    assert [e["game_id"] for e in offered] == [second]
    assert stack.call("POST", f"/v1/games/{second}/seats/1/accept", dan["token"]).ok
    wait_for(
        browser,
        lambda b: body(b, "status") == "active",
        message=lambda: (
            f"{Table(browser).page()} {body(browser, 'transport')} "
            f"{stack.call('GET', f'/v1/games/{second}').json()}"
        ),
    )

    # Dan asks the next one: Cora, at the finished table, sees the offer and joins it.
    finish_by_resigning(stack, second, cora, dan)
    wait_for(browser, lambda b: body(b, "status") == "finished", seconds=60)
    asked = stack.call("POST", f"/v1/games/{second}/rematch", dan["token"])
    assert asked.status_code == 200, asked.text
    third = asked.json()["id"]
    join = browser.find_element(By.ID, "rematch-join")
    wait_for(browser, lambda b: join.is_displayed(), message=lambda: text(browser, "log"))
    assert "A rematch is offered" in text(browser, "rematch")
    assert not browser.find_element(By.ID, "rematch-ask").is_displayed()
    shoot(browser, screenshots, axe_source, "rematch-offered")
    join.click()
    wait_for(browser, lambda b: text(b, "game-id") == third)
    wait_for(browser, lambda b: body(b, "status") == "active", message=Table(browser).page)
    summary = stack.call("GET", f"/v1/games/{third}").json()
    assert [s.get("player") for s in summary["seats"]] == [cora["id"], dan["id"]]
    browser.find_element(By.ID, "again").click()


def play_by_first_legal(stack, game_id, players):
    """Both seats play the first legal command each turn, through the API."""
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the rated game did not end"
        spectator = stack.view(game_id)
        if spectator["status"] == "finished":
            return spectator["result"]
        acting = [s for s in spectator["to_act"] if s in players]
        if not acting:
            time.sleep(0.02)
            continue
        view = stack.view(game_id, players[acting[0]]["token"])
        if not view["legal"]:
            time.sleep(0.02)
            continue
        command = {**view["legal"][0], "expected_version": view["version"]}
        moved = stack.command(game_id, players[acting[0]]["token"], command)
        assert moved.status_code in (200, 409), moved.text


def test_my_ratings_and_the_leaderboard_around_me(browser, stack, screenshots, axe_source):
    cora = signed_in(browser, stack, "Cora")
    dan = guest(stack, "Dan")
    # Not rated yet: My ratings says so.
    wait_for(browser, lambda b: b.find_element(By.ID, "my-ratings-none").is_displayed())
    # A rated game, opened from the page (Rated, Dan invited, no bot), played out
    # through the API by both (first legal command each turn).
    game_id = open_table(browser, invite=[dan["id"]], rated=True)
    created = stack.events(game_id)[0][0]  # the summary does not say; the log does
    assert created["type"] == "game_created" and created["rated"] is True
    assert stack.call("POST", f"/v1/games/{game_id}/seats/1/accept", dan["token"]).ok
    play_by_first_legal(stack, game_id, {0: cora, 1: dan})
    wait_for(browser, lambda b: body(b, "status") == "finished", seconds=60)
    mine = eventually(
        lambda: stack.call("GET", f"/v1/players/{cora['id']}/ratings").json()["ratings"],
        lambda ratings: ratings,
    )
    assert [(r["game"], r["games"], r["provisional"]) for r in mine] == [("alebrijes", 1, True)]
    # The result says how the game moved Cora's rating.
    (entry,) = stack.call("GET", f"/v1/players/{cora['id']}/ratings/alebrijes/history").json()[
        "history"
    ]
    change = f"Your alebrijes rating: {entry['before']} → {entry['after']}"
    shown = lambda: text(browser, "result")  # noqa: E731
    wait_for(browser, lambda b: change in shown(), message=shown)
    browser.find_element(By.ID, "again").click()
    ratings = browser.find_element(By.ID, "my-ratings")
    wait_for(browser, lambda b: ratings.is_displayed())
    row = " ".join(texts(browser, "#my-ratings tbody tr")[0].split())
    assert row.split()[:3] == ["alebrijes", "standard", str(mine[0]["rating"])], row
    assert "provisional" in row and row.split()[-1] == "1", row

    # The board around Cora: her row marked, ranks in order, the provisional marked.
    Select(browser.find_element(By.ID, "board-game")).select_by_value("alebrijes")
    browser.execute_script("delete document.body.dataset.board")
    browser.find_element(By.ID, "board-show").click()
    wait_for(browser, lambda b: (body(b, "board") or "").startswith("alebrijes:"))
    board = stack.call("GET", "/v1/leaderboards/alebrijes?around=me&limit=10", cora["token"]).json()
    shown = [" ".join(row.split()) for row in texts(browser, "#board-table tbody tr")]
    assert len(shown) == len(board["entries"]) >= 2
    assert [int(r.split()[0]) for r in shown] == [e["rank"] for e in board["entries"]]
    (you,) = texts(browser, "#board-table tr.mine")
    assert "Cora (you)" in you and str(mine[0]["rating"]) in you and "provisional" in you
    assert any("Dan" in r for r in shown)
    assert "fewer than 10 rated games" in text(browser, "board-note")
    shoot(browser, screenshots, axe_source, "ratings-leaderboard")


def test_quick_match_seats_me_at_the_table_the_matchmaker_opens(
    browser, stack, screenshots, axe_source
):
    """Cora presses Quick match for a 2-player Alien table (no bots) and the page says
    it is looking; Dan's app opens a ticket of the same queue through the API; the
    matchmaker seats them both, and Cora's page sits her at the new table by itself
    (the inbox's `matched`). Stop looking cancels a waiting ticket."""
    cora = signed_in(browser, stack, "Cora")
    Select(browser.find_element(By.ID, "game")).select_by_value("alien")
    wait_for(browser, lambda b: body(b, "preset") == "alien")
    # First a ticket given up: Stop looking cancels it.
    browser.find_element(By.ID, "quick-find").click()
    wait_for(browser, lambda b: body(b, "ticket") == "waiting")
    assert "Looking for a table of 2 players (alien); bots fill in" in text(browser, "quick-say")
    shoot(browser, screenshots, axe_source, "quick-match-looking")
    browser.find_element(By.ID, "quick-stop").click()
    wait_for(browser, lambda b: "Stopped looking" in text(b, "quick-say"))
    mine = stack.call("GET", "/v1/players/me/tickets", cora["token"]).json()["tickets"]
    assert [t["status"] for t in mine] == ["cancelled"]
    # Then one matched: no bots, so only Dan's ticket completes the table.
    browser.find_element(By.ID, "quick-bots").click()
    browser.find_element(By.ID, "quick-find").click()
    wait_for(browser, lambda b: body(b, "ticket") == "waiting")
    dan = guest(stack, "Dan")
    ticket = {"game": "alien", "players": 2, "bots": None}
    opened = stack.call("POST", "/v1/matchmaking/tickets", dan["token"], json=ticket)
    assert opened.status_code == 201, opened.text
    wait_for(
        browser,
        lambda b: body(b, "game") == "alien" and body(b, "version"),
        message=lambda: Table(browser).page(),
    )
    game_id = text(browser, "game-id")
    mine = stack.call("GET", "/v1/players/me/tickets", cora["token"]).json()["tickets"]
    assert mine[0]["status"] == "matched" and mine[0]["game_id"] == game_id
    assert {g["id"] for g in my_games(stack, dan)} == {game_id}
    shoot(browser, screenshots, axe_source, "quick-match-seated")
    assert dan["token"] not in browser.page_source
