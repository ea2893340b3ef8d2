"""The ratings fold (shared/ratings): which games are rated, the places, and the
figures against openskill's own."""

import pytest
from openskill.models import PlackettLuce

from shared import table
from shared.games.base import RuleError
from shared.ratings import Ratings, displayed, outcome, places, variant_of


def finished(seats, result, rated=True, game="alien", options=None, game_id="g1"):
    """A finished table as the fold leaves it (only what the ratings read)."""
    shaped = [
        {"player": None, "bot": None, "resigned": False, "away": False, **seat} for seat in seats
    ]
    return {
        "id": game_id,
        "game": game,
        "status": "finished",
        "result": result,
        "seats": shaped,
        "options": options or {},
        **({"rated": True} if rated else {}),
    }


def test_places_follow_the_scores_whichever_way_the_game_counts():
    assert places({"winners": [1], "scores": [3, 9, 5]}, 3) == [3, 1, 2]
    assert places({"winners": [0], "scores": [-2, -10, -10]}, 3) == [1, 2, 2]
    assert places({"winners": [2], "scores": [4, 4, 1]}, 3) == [2, 2, 1]  # fewest wins
    # Scores that do not say who won: the winners first, the rest tied.
    assert places({"winners": [1], "scores": [5, 2, 5]}, 3) == [2, 1, 2]


def test_only_a_rated_finished_game_of_players_is_rated():
    seats = [{"player": "a"}, {"player": "b"}]
    result = {"winners": [0], "scores": [1, 0]}
    assert outcome(finished(seats, result), 10)["seats"][0] == {"id": "a", "place": 1, "bot": False}
    assert outcome(finished(seats, result, rated=False), 10) is None
    assert outcome({**finished(seats, result), "status": "cancelled"}, 10) is None
    named = [{"player": "a"}, {"name": "anon"}]
    assert outcome(finished(named, result), 10) is None


def test_a_bot_seat_is_rated_only_when_the_operator_says_and_stays_fixed():
    seats = [{"player": "a"}, {"bot": "greedy"}]
    result = {"winners": [1], "scores": [0, 1]}
    assert outcome(finished(seats, result), 1) is None
    rated = outcome(finished(seats, result), 1, rate_bots=True)
    ratings = Ratings()
    history = ratings.fold([rated])
    assert set(history) == {"a"}
    assert ratings.rating("bot:greedy", "alien") == Ratings().rating("bot:greedy", "alien")
    assert ratings.rating("a", "alien")["mu"] < 25


def test_leavers_are_tied_last_whatever_their_seat_scored():
    seats = [{"player": "a", "resigned": True}, {"player": "b"}, {"player": "c", "away": True}]
    result = {"winners": [0], "scores": [4, 1, 0]}
    rated = outcome(finished(seats, result), 1)
    assert [s["place"] for s in rated["seats"]] == [2, 1, 2]


def test_the_figures_are_openskills_folded_by_end_time_then_game_id():
    model = PlackettLuce()
    games = [
        ("g2", 5, [{"player": "a"}, {"player": "b"}, {"player": "c"}], [0, 2, 1]),
        ("g1", 5, [{"player": "b"}, {"player": "a"}], [1, 0]),
        ("g0", 9, [{"player": "c"}, {"player": "a", "resigned": True}], [0, 1]),
    ]
    outcomes = [
        outcome(finished(s, {"winners": [w.index(max(w))], "scores": w}, game_id=g), at)
        for g, at, s, w in games
    ]
    ratings = Ratings()
    history = ratings.fold(outcomes)
    expected = {p: model.rating() for p in "abc"}
    for rank_order in (["b", "a"], ["b", "c", "a"], ["c", "a"]):  # g1, g2, g0
        teams = [[expected[p]] for p in rank_order]
        rated = model.rate(teams, ranks=list(range(1, len(teams) + 1)))
        for p, [r] in zip(rank_order, rated, strict=True):
            expected[p] = r
    for p in "abc":
        mine = ratings.rating(p, "alien")
        assert (mine["mu"], mine["sigma"]) == (expected[p].mu, expected[p].sigma)
    assert [e["game_id"] for e in history["a"]] == ["g1", "g2", "g0"]
    assert history["a"][0]["before"] == displayed(25, 25 / 3) == 1000
    assert history["a"][1]["before"] == history["a"][0]["after"]
    assert ratings.rating("a", "alien")["games"] == 3


def test_each_rule_set_is_a_board_of_its_own():
    assert variant_of("abluxxen", {"published": True}) == "published"
    assert variant_of("abluxxen", {"published": False}) == "standard"
    assert variant_of("alebrijes", {"rounds": 5, "one_turn": False}) == "standard"
    seats = [{"player": "a"}, {"player": "b"}]
    result = {"winners": [0], "scores": [1, 0]}
    ratings = Ratings()
    ratings.fold(
        [outcome(finished(seats, result, game="abluxxen", options={"published": True}), 1)]
    )
    assert ratings.rating("a", "abluxxen", "published")["games"] == 1
    assert ratings.rating("a", "abluxxen")["games"] == 0


def test_a_rated_game_is_refused_a_named_seat_and_a_named_claim():
    with pytest.raises(RuleError) as refused:
        table.create("g", "alien", [{"player": "a"}, {"name": "x"}], {"rated": True}, "1")
    assert refused.value.code == "rated_needs_players"
    events = table.create("g", "alien", [{"player": "a"}, {"open": True}], {"rated": True}, "1")
    assert events[0]["rated"] is True
    waiting = table.fold(events)
    assert waiting["rated"] is True
    with pytest.raises(RuleError) as refused:
        table.claim(waiting, 1, "x")
    assert refused.value.code == "rated_needs_players"
    started = table.fold(table.claim(waiting, 1, None, player="b"), waiting)
    assert started["status"] == "active"
    unrated = table.create("g", "alien", [{"name": "x"}, {"name": "y"}], {}, "1")
    assert "rated" not in unrated[0] and "rated" not in table.fold(unrated)
