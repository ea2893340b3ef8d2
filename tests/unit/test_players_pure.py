"""Players' pure parts: names, player tokens, the player's events and their fold."""

import pytest

from shared import webhooks
from shared.games.base import RuleError
from shared.players import events, names, tokens

SECRET = "s" * 32


@pytest.mark.parametrize("name", ["ana", "Zoë", "李小龍", "ana b.", "🦊 fox", "x" * 40, "Ñandú-3"])
def test_a_plain_name_is_kept(name):
    assert names.checked(name) == name


def test_a_name_is_normalised_and_trimmed():
    assert names.checked("  Zoe\u0308 ") == "Zoë"  # NFC: one code point


@pytest.mark.parametrize(
    "name, why",
    [
        ("", "1 to 40"),
        ("   ", "1 to 40"),
        ("x" * 41, "1 to 40"),
        ("x" * 10_000, "at most 40"),
        ("ana\u202ebob", "format"),  # right-to-left override
        ("ana\u2066bob", "format"),  # left-to-right isolate
        ("a\u200bb", "format"),  # zero-width space
        ("a\nb", "control"),
        ("a\x00b", "control"),
        ("a\ue000b", "private-use"),
        ("a\u2028b", "line separator"),
        ("a  b", "single plain spaces"),
        ("a\u00a0b", "single plain spaces"),
        ("a\u0378b", "unassigned"),
    ],
)
def test_a_hostile_name_is_refused_saying_why(name, why):
    with pytest.raises(names.BadName, match=why):
        names.checked(name)


def test_a_name_is_a_string():
    with pytest.raises(names.BadName):
        names.checked(7)


def test_a_player_token_names_its_player_and_generation():
    token = tokens.issue(SECRET, "0123456789abcdef", 3)
    assert tokens.looks_like(token)
    assert tokens.verify(SECRET, token) == ("0123456789abcdef", 3)


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # signature changed
        lambda t: t.replace(".3.", ".4."),  # another generation, same signature
        lambda t: t.replace("0123456789abcdef", "0123456789abcdee"),  # another player
        lambda t: t + ".x",
        lambda t: "pt..3.sig",
        lambda t: t.replace(".3.", ".-1."),
    ],
)
def test_a_forged_player_token_is_refused(forge):
    token = tokens.issue(SECRET, "0123456789abcdef", 3)
    assert tokens.verify(SECRET, forge(token)) is None


def test_a_player_token_of_another_secret_is_refused():
    token = tokens.issue("t" * 32, "0123456789abcdef", 0)
    assert tokens.verify(SECRET, token) is None


def test_a_seat_token_is_no_player_token():
    from shared import tokens as seat_tokens

    seat = seat_tokens.issue(SECRET, "abc123", 0)
    assert not tokens.looks_like(seat) and tokens.verify(SECRET, seat) is None
    assert seat_tokens.verify(SECRET, tokens.issue(SECRET, "0123456789abcdef", 0)) is None


def _fold(made, *later):
    player = events.fold((e, 1000) for e in made)
    for decide in later:
        player = events.fold(((e, 2000) for e in decide(player)), player)
    return player


def test_a_guest_is_made_renamed_linked_and_erased():
    player = _fold(events.create("0123456789abcdef", "ana"))
    assert player == {
        "id": "0123456789abcdef",
        "name": "ana",
        "guest": True,
        "identities": [],
        "generation": 0,
        "erased": False,
        "created": 1000,
    }
    player = _fold(
        events.create("0123456789abcdef", "ana"),
        lambda p: events.rename(p, "bea"),
        lambda p: events.link(p, ("https://id.example", "u-1")),
        events.log_out,
    )
    assert player["name"] == "bea" and not player["guest"] and player["generation"] == 1
    assert player["identities"] == [{"issuer": "https://id.example", "subject": "u-1"}]
    erased = events.fold(((e, 3) for e in events.erase(player)), player)
    assert erased["erased"] and erased["name"] is None and erased["identities"] == []
    assert erased["generation"] == 2
    with pytest.raises(RuleError, match="no such player"):
        events.rename(erased, "again")


def test_renaming_to_the_same_name_and_linking_twice_change_nothing():
    player = _fold(events.create("0123456789abcdef", "ana", ("iss", "sub")))
    assert not player["guest"]
    assert events.rename(player, "ana") == []
    assert events.link(player, ("iss", "sub")) == []


def test_the_webhook_registration_is_the_last_one_and_gone_once_removed_or_erased():
    made = events.create("0123456789abcdef", "ana")
    hook = events.register_webhook(
        events.fold((e, 1) for e in made), "https://x/1", ["your_turn"], "s1"
    )
    again = [{**hook[0], "url": "https://x/2", "secret": "s2"}]
    items = [(e, 1) for e in made + hook + again]
    assert events.webhook_of(items) == {
        "url": "https://x/2",
        "events": ["your_turn"],
        "secret": "s2",
    }
    # The player's fold (what views read for its name) never holds the secret.
    assert "s2" not in repr(events.fold(items))
    player = events.fold(items)
    removed = items + [(e, 2) for e in events.remove_webhook(player)]
    assert events.webhook_of(removed) is None
    erased = items + [(e, 2) for e in events.erase(player)]
    assert events.webhook_of(erased) is None


def test_a_players_notification_is_its_inbox_item_with_a_stable_id():
    item = {"kind": "your_turn", "game_id": "g1", "game": "alien", "game_version": 7,
            "seat": 1, "deadline": None, "version": 12}  # fmt: skip
    note = webhooks.player_note("p1", item)
    assert note == {**item, "id": "g1:7:your_turn:1", "player_id": "p1"}
    gone = {"kind": "invitation_gone", "game_id": "g1", "game": "alien", "game_version": 9}
    assert webhooks.player_note("p1", {**gone, "version": 13})["id"] == "g1:9:invitation_gone:-"
    assert webhooks.player_of_subscriber(webhooks.player_subscriber("p1")) == "p1"
    assert webhooks.player_of_subscriber("seat-1") is None
    assert webhooks.player_of_subscriber(webhooks.GAME) is None
