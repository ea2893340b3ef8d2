"""Abluxxen, random play: many seeded games under both rule sets and every player count,
with uniformly random choices from `legal`. Every card is accounted for at every step,
every legal command is accepted, and every game ends with a result that follows the rules."""

from collections import Counter

import pytest
from test_abluxxen_support import all_cards, random_game

from shared.games import abluxxen

GAMES = 50  # per rule set and player count
MAX_STEPS = 3000  # commands; random games end in a few hundred, so this only stops a hang


def check_step(state, seat, command, events, after):
    assert all_cards(after) == Counter(abluxxen.CARDS)
    assert all(event["type"] for event in events)
    if after["phase"] != "over":
        assert after["phase"] in ("play", "attack", "answer", "keep", "draw")
        assert abluxxen.to_act(after), "a game that is not over waits for someone"
        for other in abluxxen.to_act(after):
            assert abluxxen.legal(after, other)


def check_result(state):
    result = abluxxen.result(state)
    assert result is not None, "the game ended within the step bound"
    points = [
        len(state["covered"][seat])
        + len(state["top_rows"][seat] or [])
        + len(state["scoring_piles"][seat])
        - len(state["hands"][seat])
        for seat in range(state["players"])
    ]
    assert result["scores"] == points
    assert result["winners"] == [seat for seat, p in enumerate(points) if p == max(points)]
    hand_empty = any(not hand for hand in state["hands"])
    if state["options"]["published"]:
        supply_empty = not state["display"] and not state["draw_pile"]
        assert hand_empty or supply_empty
        assert result["reason"] == ("hand_empty" if hand_empty else "supply_empty")
        assert all(not pile for pile in state["scoring_piles"])  # stolen rows go to hand
    else:
        assert hand_empty and not state["draw_pile"] and result["reason"] == "hand_empty"
        assert not state["discard_pile"]
    assert abluxxen.to_act(state) == []


@pytest.mark.parametrize("published", [False, True], ids=["rulebook", "published"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_card_and_always_end_by_the_rules(players, published):
    for game in range(GAMES):
        state, _, _ = random_game(players, published, f"{players}/{game}", MAX_STEPS, check_step)
        check_result(state)
