"""The matching rules (shared/matchmaking/matching.py), pure: who is seated with whom."""

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.matchmaking import matching
from shared.matchmaking.matching import groups, window

NOW = 1_000_000_000


def ticket(n, waited, players=(2, 2), rating=None, abandoner=False, bots=None, player=None):
    return {
        "id": f"t{n}",
        "game": "alien",
        "player": player or f"p{n}",
        "opened_at": NOW - int(waited * 1000),
        "players": list(players),
        "rating": rating,
        "abandoner": abandoner,
        "bots": bots,
    }


def seated(found):
    return [sorted(t["id"] for t in g.tickets) for g in found]


def test_the_longest_waiting_are_matched_first():
    found = groups([ticket(1, 5), ticket(2, 30), ticket(3, 10)], NOW)
    assert seated(found) == [["t2", "t3"]]


def test_counts_must_overlap_and_a_full_table_starts_at_once():
    assert groups([ticket(1, 1, (2, 2)), ticket(2, 1, (3, 4))], NOW) == []
    four = [ticket(n, 1, (3, 4)) for n in range(4)]
    assert seated(groups(four, NOW)) == [["t0", "t1", "t2", "t3"]]
    mixed = [ticket(1, 1, (2, 4)), ticket(2, 1, (3, 4)), ticket(3, 1, (2, 3))]
    assert seated(groups(mixed, NOW)) == [["t1", "t2", "t3"]]  # 3 is every one's largest


def test_a_table_short_of_its_largest_count_waits_a_moment_for_more():
    three = [ticket(n, 1, (3, 4)) for n in range(3)]
    assert groups(three, NOW) == []
    three = [ticket(n, matching.GATHER_SECONDS, (3, 4)) for n in range(3)]
    assert seated(groups(three, NOW)) == [["t0", "t1", "t2"]]


def test_ratings_match_within_a_window_that_widens_with_waiting():
    assert window(0) == 50 and window(10) == 150 and window(1000) == 1000
    far = [ticket(1, 0, rating=1000), ticket(2, 0, rating=1200)]
    assert groups(far, NOW) == []
    waited = [ticket(1, 15, rating=1000), ticket(2, 0, rating=1200)]  # window(15) = 200
    assert seated(groups(waited, NOW)) == [["t1", "t2"]]
    # Within the window, the longest-waiting comes first, not the closest.
    three = [ticket(1, 20, rating=1000), ticket(2, 10, rating=1240), ticket(3, 1, rating=1001)]
    assert seated(groups(three, NOW)) == [["t1", "t2"]]
    # No rating: anyone.
    assert seated(groups([ticket(1, 0, rating=1000), ticket(2, 0)], NOW)) == [["t1", "t2"]]


def test_abandoners_match_among_themselves_first():
    tickets = [
        ticket(1, 3),
        ticket(2, 2, abandoner=True),
        ticket(3, 1),
        ticket(4, 0, abandoner=True),
    ]
    assert seated(groups(tickets, NOW)) == [["t1", "t3"], ["t2", "t4"]]
    # Soft: alone among others, an abandoner is matched once someone waited long enough.
    lonely = [ticket(1, 1), ticket(2, 0, abandoner=True)]
    assert groups(lonely, NOW) == []
    lonely = [ticket(1, matching.ABANDONER_SECONDS), ticket(2, 0, abandoner=True)]
    assert seated(groups(lonely, NOW)) == [["t1", "t2"]]


# A calibration table as the tournament writes it (shared/bots/calibration.py).
TABLE = {
    "games": {
        "alien": {
            "levels": {
                "ismcts": {"rating": 1600, "ci95": [1500, 1700]},
                "greedy": {"rating": 1400, "ci95": [1300, 1500]},
                "random": {"rating": 800, "ci95": [700, 900]},
            }
        }
    }
}


def test_bots_complete_a_short_table_once_the_anchor_waited_long_enough():
    bots = {"after_seconds": 30, "level": None}
    assert groups([ticket(1, 29, (3, 4), bots=bots)], NOW, TABLE) == []
    (group,) = groups([ticket(1, 30, (3, 4), bots=bots), ticket(2, 1, (3, 4))], NOW, TABLE)
    assert [t["id"] for t in group.tickets] == ["t1"]  # t2 asked for no bots
    assert len(group.bots) == 2 and len(set(group.bots)) == 1
    chosen = groups([ticket(1, 30, bots={"after_seconds": 30, "level": "random"})], NOW, TABLE)
    assert chosen[0].bots == ["random"] and chosen[0].reason == "the ticket's level"


def fill(*ratings, game="alien", table=TABLE):
    """(level, reason) of the bots completing a table of four for players with these
    ratings (None: unrated), the first the anchor; all waited long enough that any two
    ratings match (window: 1000)."""
    bots = {"after_seconds": 0, "level": None}
    tickets = [
        {**ticket(i, 100 - i, (4, 4), rating=r, bots=bots), "game": game}
        for i, r in enumerate(ratings)
    ]
    (group,) = groups(tickets, NOW, table)
    assert len(group.bots) == 4 - len(ratings) and len(set(group.bots)) == 1
    return group.bots[0], group.reason


def test_the_bots_are_the_calibrated_level_nearest_the_groups_mean_rating():
    assert fill(700, 900) == ("random", "random (800): the calibrated level of alien nearest 800")
    assert fill(1350, 1500)[0] == "greedy"
    assert fill(1900, 2300)[0] == "ismcts"  # above every level: the strongest
    assert fill(3000)[0] == "ismcts"
    # The group's mean, not the anchor's rating: the anchor at 900, two at 1850 (mean 1533).
    assert fill(900, 1850, 1850)[0] == "ismcts"
    assert fill(1850, 900, 900)[0] == "greedy"  # mean 1217: greedy 183 away, random 417


def test_unrated_players_get_the_beginners_level_and_do_not_pull_the_mean():
    assert fill(None) == ("greedy", "no rated player: greedy, the level for a beginner")
    assert fill(None, None)[0] == matching.UNRATED_LEVEL == "greedy"
    # A new player's displayed 1000 would have seated random (200 away, greedy 400).
    assert fill(None, 2300)[0] == "ismcts"  # the rated player's 2300 alone
    assert fill(None, 700)[0] == "random"
    assert matching.group_rating([ticket(1, 0), ticket(2, 0, rating=1600)]) == 1600
    assert matching.group_rating([ticket(1, 0)]) is None


def test_a_tie_between_two_levels_goes_to_the_weaker():
    assert fill(1500) == ("greedy", "greedy (1400): the calibrated level of alien nearest 1500")
    assert fill(1100)[0] == "random"  # 300 from random (800) and from greedy (1400)


def test_a_game_missing_from_the_table_gets_greedy_with_the_reason():
    assert fill(2500, game="abluxxen") == ("greedy", "no calibration of abluxxen: greedy")
    assert fill(2500, table={}) == ("greedy", "no calibration of alien: greedy")
    unrated = {"games": {"alien": {"levels": {"ismcts": {"rating": None, "ci95": None}}}}}
    assert fill(2500, table=unrated)[0] == "greedy"


def test_the_shipped_calibration_has_every_game_at_the_default_budget():
    """shared/bots/calibration.json, what the matchmaker reads when given no table:
    written by the tournament (docs/bots.md), at the budget the bots play with."""
    from shared import bots, games
    from shared.bots import calibration

    shipped = calibration.load()
    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert calibration.FILE in config["tool"]["setuptools"]["package-data"]["shared.bots"]
    assert sorted(shipped["games"]) == sorted(games.NAMES)
    for game, entry in shipped["games"].items():
        assert entry["think_ms"] == bots.THINK_MS, game
        assert set(entry["levels"]) == set(bots.LEVELS), game
        assert entry["command"].startswith("python -m services.tournament"), game
        for row in entry["levels"].values():
            assert row["ci95"][0] <= row["rating"] <= row["ci95"][1], game
    alien = shipped["games"]["alien"]["levels"]
    strongest = max(alien, key=lambda level: alien[level]["rating"])
    assert calibration.nearest(shipped, "alien", 10_000)[0] == strongest
    rated = ticket(1, 30, rating=1000, bots={"after_seconds": 0, "level": None})
    (group,) = groups([rated], NOW)
    assert group.bots and group.reason.endswith("of alien nearest 1000")


def test_one_player_is_never_seated_twice_at_one_table():
    same = [ticket(1, 9, player="ana"), ticket(2, 8, player="ana"), ticket(3, 1)]
    assert seated(groups(same, NOW)) == [["t1", "t3"]]


TICKETS = st.lists(
    st.tuples(
        st.integers(0, 60),  # seconds waited
        st.sampled_from([(2, 2), (2, 3), (3, 4), (2, 5), (4, 4)]),
        st.one_of(st.none(), st.integers(800, 1400)),
        st.booleans(),
        st.one_of(st.none(), st.integers(0, 60)),
        st.integers(0, 12),  # the player
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(TICKETS)
def test_every_group_fits_every_member_and_seats_each_ticket_once(specs):
    tickets = [
        ticket(n, w, c, r, a, None if b is None else {"after_seconds": b}, f"p{p}")
        for n, (w, c, r, a, b, p) in enumerate(specs)
    ]
    found = groups(tickets, NOW)
    ids = [t["id"] for g in found for t in g.tickets]
    assert len(ids) == len(set(ids))
    for group in found:
        size = len(group.tickets) + len(group.bots)
        assert all(t["players"][0] <= size <= t["players"][1] for t in group.tickets)
        assert len({t["player"] for t in group.tickets}) == len(group.tickets)
        assert not group.bots or all(t["bots"] for t in group.tickets)
