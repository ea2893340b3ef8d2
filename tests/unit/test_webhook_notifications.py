"""Webhooks' pure parts: notifications from a table's events, what each subscriber may
receive, the signature, and which URLs and addresses a webhook may reach."""

import random
import socket
from pathlib import Path

import pytest

from services.webhooks import urls
from services.webhooks.jobs import backoff
from services.webhooks.settings import Settings
from shared import table, webhooks
from shared.games.base import RuleError
from shared.replay import check


def records_of(events, first_version=1, at=1000):
    return [(first_version + i, e, at) for i, e in enumerate(events)]


def play_alebrijes(seats, rounds=1, seed="w", turn_seconds=None, max_moves=400):
    """A whole game of Alebrijes played with random legal commands, decided one command
    at a time: the appends, each a list of (version, event, at)."""
    options = {"seed": seed, "rounds": rounds, "turn_seconds": turn_seconds}
    events = table.create("g1", "alebrijes", seats, options, seed)
    appends, version, at = [records_of(events, 1, 1000)], len(events), 1000
    current = table.fold((e, at) for e in events)
    rng = random.Random(seed)
    for _ in range(max_moves):
        if current["status"] != "active":
            return appends
        seat = table.to_act(current)[0]
        command = rng.choice(table.rules_of(current).legal(current["rules"], seat))
        by = "bot" if current["seats"][seat]["bot"] else "holder"
        at += 1000
        events = table.play(current, seat, command, by)
        appends.append(records_of(events, version + 1, at))
        version += len(events)
        current = table.fold(((e, at) for e in events), current)
    raise AssertionError("the game did not end")


def per_append(appends):
    """Notifications as a projector sees them when it projects after every append."""
    notes, before = [], None
    for records in appends:
        found, before = webhooks.notifications("g1", before, records)
        notes += found
    return notes, before


def test_a_started_game_tells_who_acts_first_at_the_version_their_turn_began():
    appends = play_alebrijes([{"name": "ana"}, {"name": "bo"}], turn_seconds=60)
    notes, current = webhooks.notifications("g1", None, appends[0])
    kinds = [n["kind"] for n in notes]
    assert kinds == ["game_started", "your_turn"]
    started, turn = notes
    assert started["data"]["game"] == "alebrijes"
    assert [s["name"] for s in started["data"]["seats"]] == ["ana", "bo"]
    assert turn["seat"] == table.to_act(current)[0]
    assert turn["version"] == appends[0][-1][0]  # the deal, the last event, began it
    assert turn["data"]["deadline"] == 1000 + 60_000
    assert turn["id"] == f"g1:{turn['version']}:your_turn:{turn['seat']}"


def test_every_turn_of_a_whole_game_is_notified_once_and_the_end_with_the_result():
    appends = play_alebrijes([{"name": "ana"}, {"name": "bo"}])
    notes, final = per_append(appends)
    ids = [n["id"] for n in notes]
    assert len(ids) == len(set(ids))
    assert [n["version"] for n in notes] == sorted(n["version"] for n in notes)
    # Oracle: after each append, every acting seat that did not act all along.
    expected, before = [], None
    for records in appends:
        after = table.fold(((e, at) for _, e, at in records), before)
        acted = {e["seat"] for _, e, _ in records if e["type"] == table.COMMANDED}
        was = set(table.to_act(before)) if before else set()
        expected += [s for s in table.to_act(after) if s not in was or s in acted]
        before = after
    assert [n["seat"] for n in notes if n["kind"] == "your_turn"] == expected
    assert notes[-1]["kind"] == "game_ended"
    assert notes[-1]["data"]["result"] == final["result"]


def test_one_batch_for_a_whole_log_sends_no_turn_that_is_already_over():
    appends = play_alebrijes([{"name": "ana"}, {"name": "bo"}])
    stepwise, _ = per_append(appends)
    whole, _ = webhooks.notifications("g1", None, [r for a in appends for r in a])
    assert {n["id"] for n in whole} <= {n["id"] for n in stepwise}
    assert [n["kind"] for n in whole] == ["game_started", "game_ended"]


def test_seats_a_bot_plays_get_no_turns():
    appends = play_alebrijes([{"name": "ana"}, {"bot": "random"}])
    notes, _ = per_append(appends)
    turns = {n["seat"] for n in notes if n["kind"] == "your_turn"}
    assert turns == {0}


def test_a_timeout_and_the_takeover_it_causes_are_notified_for_that_seat():
    events = table.create(
        "g1", "alebrijes", [{"name": "a"}, {"name": "b"}], {"zombie_after": 1}, "s"
    )
    before = table.fold((e, 1) for e in events)
    seat = table.to_act(before)[0]
    timed = table.time_out(before, seat)
    notes, current = webhooks.notifications("g1", before, records_of(timed, len(events) + 1))
    lifecycle = [(n["kind"], n["seat"]) for n in notes if n["kind"] != "your_turn"]
    assert lifecycle == [("timed_out", seat), ("seat_taken_over", seat)]
    assert notes[1]["data"] == {"bot": "greedy", "reason": "timeouts"}  # takeover_bot
    other = webhooks.seat_subscriber(1 - seat)
    assert all(webhooks.for_subscriber(n, other, current) is None for n in notes[:2])


def test_a_seats_webhook_hears_its_own_turn_with_its_commands_and_not_the_others():
    appends = play_alebrijes([{"name": "ana"}, {"name": "bo"}])
    before = None
    for records in appends:
        notes, current = webhooks.notifications("g1", before, records)
        for note in notes:
            for seat in (0, 1):
                body = webhooks.for_subscriber(note, webhooks.seat_subscriber(seat), current)
                if note["kind"] == "your_turn" and note["seat"] != seat:
                    assert body is None
                elif note["kind"] == "your_turn":
                    legal = table.rules_of(current).legal(current["rules"], seat)
                    assert body["data"]["legal"] == legal
                else:
                    assert body == note
            game_body = webhooks.for_subscriber(note, webhooks.GAME, current)
            assert game_body == note and "legal" not in note["data"]
        before = current


def test_a_signature_verifies_only_the_same_body_secret_and_a_recent_time():
    body = b'{"id":"g1:4:your_turn:0"}'
    header = webhooks.sign("s3cret", body, 1_700_000_000)
    assert header.startswith("t=1700000000,v1=")
    assert webhooks.verify("s3cret", header, body, now=1_700_000_010)
    assert not webhooks.verify("other", header, body, now=1_700_000_010)
    assert not webhooks.verify("s3cret", header, body + b" ", now=1_700_000_010)
    assert not webhooks.verify("s3cret", header, body, now=1_700_000_000 + 301)
    assert not webhooks.verify("s3cret", "v1=abc", body, now=1_700_000_000)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1%eth0",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_loopback_private_link_local_multicast_and_reserved_addresses_are_refused(address):
    assert not urls.address_allowed(address)


@pytest.mark.parametrize(
    "address",
    [
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254, a cloud's metadata service
        "2002:c0a8:101::",  # 6to4 of 192.168.1.1
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo to the client 127.0.0.1
        "2001:0:7f00:1:8000:63bf:3fff:fdd2",  # Teredo through the server 127.0.0.1
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    ],
)
def test_ipv6_forms_that_carry_a_private_ipv4_address_are_refused(address):
    assert not urls.address_allowed(address)


@pytest.mark.parametrize(
    "address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2002:808:808::1", "64:ff9b::808:808"]
)
def test_public_addresses_are_allowed(address):
    assert urls.address_allowed(address)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a hook",
        "https://example.com/hook?a=b c",
        "https://example.com/ho\tok",
        "https://example.com/h\u00e9",
        "https://example.com:0/hook",
    ],
)
def test_urls_that_could_never_be_delivered_are_refused(url):
    with pytest.raises(urls.RefusedUrl):
        urls.resolve(url, resolver=resolver_to("8.8.8.8"))


def resolver_to(*addresses):
    def resolve(host, port, type=0):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return resolve


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/hook",  # http is refused unless allowed
        "ftp://example.com/hook",
        "https://user:pw@example.com/hook",
        "https:///hook",
        "https://example.com:99999/hook",
        "not a url",
        "https://example.com/" + "a" * 2000,
    ],
)
def test_urls_that_are_not_https_or_carry_credentials_are_refused(url):
    with pytest.raises(urls.RefusedUrl):
        urls.resolve(url, resolver=resolver_to("8.8.8.8"))


def test_http_is_allowed_only_when_the_operator_says_so():
    target, addresses = urls.resolve(
        "http://example.com:8080/a?b=1", allow_http=True, resolver=resolver_to("8.8.8.8")
    )
    assert (target.scheme, target.host, target.port, target.path) == (
        "http",
        "example.com",
        8080,
        "/a?b=1",
    )
    assert addresses == ["8.8.8.8"]


def test_a_host_with_any_private_address_is_refused_unless_private_is_allowed():
    mixed = resolver_to("8.8.8.8", "10.0.0.5")
    with pytest.raises(urls.RefusedUrl, match="10.0.0.5"):
        urls.resolve("https://example.com/", resolver=mixed)
    _, addresses = urls.resolve("https://example.com/", allow_private=True, resolver=mixed)
    assert addresses == ["8.8.8.8", "10.0.0.5"]


def test_a_host_that_does_not_resolve_is_refused():
    def nowhere(host, port, type=0):
        raise socket.gaierror(-2, "Name or service not known")

    with pytest.raises(urls.RefusedUrl, match="does not resolve"):
        urls.resolve("https://nowhere.invalid/", resolver=nowhere)


def test_a_literal_loopback_address_is_refused_by_the_real_resolver():
    with pytest.raises(urls.RefusedUrl):
        urls.resolve("https://127.0.0.1:8443/hook")


def test_backoff_doubles_with_jitter_and_is_capped():
    settings = Settings(backoff_seconds=2.0, max_backoff_seconds=10.0)
    rng = random.Random(1)
    for attempt, base in [(1, 2.0), (2, 4.0), (3, 8.0), (4, 10.0), (9, 10.0)]:
        waits = [backoff(attempt, settings, rng) for _ in range(50)]
        assert all(0.5 * base <= w <= 1.5 * base for w in waits)
        assert len(set(waits)) > 1  # jittered


def test_settings_come_from_the_environment():
    settings = Settings.from_env(
        {"WEBHOOK_ALLOW_HTTP": "1", "WEBHOOK_ATTEMPTS": "3", "WEBHOOK_BACKOFF_SECONDS": "0.1"}
    )
    assert settings.allow_http and not settings.allow_private
    assert (settings.attempts, settings.backoff_seconds) == (3, 0.1)
    assert Settings.from_env({}).attempts == 6


def test_a_log_with_a_paused_webhook_replays_and_the_pause_changes_nothing():
    seats = [{"name": "ana"}, {"name": "bo"}]
    appends = play_alebrijes(seats)
    log = [e for records in appends for _, e, _ in records]
    opening = len(appends[0])
    current = table.fold(log[:opening])
    paused = table.webhook_paused(current, 1)
    assert paused == [{"type": "webhook_paused", "seat": 1}]
    assert table.evolve(current, paused[0]) == current
    assert table.redact(current, paused[0], 0) == paused[0]
    records = [
        {**e, "version": i + 1} for i, e in enumerate(log[:opening] + paused + log[opening:])
    ]
    assert check(records) == []
    finished = table.fold(log)
    with pytest.raises(RuleError):
        table.webhook_paused(finished, None)  # a game that is over takes no more events


def test_the_receiver_example_in_the_docs_verifies_what_the_server_signs():
    text = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    example = {"__name__": "docs_example"}
    exec(compile(code, "docs/webhooks.md", "exec"), example)
    body = b'{"id":"g1:4:your_turn:0","kind":"your_turn"}'
    now = 1_767_225_600
    header = webhooks.sign("s3cret", body, now)
    assert example["verify"]("s3cret", header, body, now=now + 5)
    assert not example["verify"]("s3cret", header, body.replace(b"0", b"1"), now=now + 5)
    assert not example["verify"]("wrong", header, body, now=now + 5)
    assert not example["verify"]("s3cret", header, body, now=now + 600)
