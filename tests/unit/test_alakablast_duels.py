"""Alakablast: challenging to a duel (B), the secret choice, outcomes, ties, refills, the end."""

import pytest

import shared.games.alakablast as game
from shared.games.alakablast.cards import GEM_TARGET, duel_outcome, sorted_spells
from tests.alakablast_tables import (
    after,
    cards_on_table,
    given,
    play,
    refused,
    spells,
    started,
    types,
)

# Two players: seat 0 holds hidden W3 F1 and open P2 L0 S7; seat 1 hidden F3 P1, open W1 W2 F2.
DEAL = [(["W3", "F1"], ["P2", "L0", "S7"]), (["F3", "P1"], ["W1", "W2", "F2"])]
PILE = ["P6", "F6", "W6", "P5"]


def table():
    return started(2, DEAL, pile=PILE)


def duel(rival, kind, card=None, dimension=None):
    command = {"type": "duel", "rival": rival, "kind": kind}
    if card is not None:
        command.update(card=card, dimension=dimension)
    return command


def choose(card):
    return {"type": "choose", "card": card}


def informed(target, card, clue, cards):
    """A handmade clue event, to set up what a player knows."""
    return {
        "type": "informed",
        "seat": 1 - target,
        "target": target,
        "card": card,
        "clue": clue,
        "cards": cards,
    }


def knowing_everything(state):
    """Seat 1 is told everything about its open W1, W2, F2."""
    for event in [
        informed(1, 2, {"element": "W"}, [2, 3]),
        informed(1, 2, {"power": 1}, [2]),
        informed(1, 3, {"power": 2}, [3, 4]),
        informed(1, 4, {"element": "F"}, [4]),
    ]:
        state = game.evolve(state, event)
    return state


def test_a_duel_starts_with_a_clue_about_a_rival_open_card_chosen_by_the_attacker():
    state, events = play(table(), (0, duel(1, "element", 2, "element")))
    assert events == [
        {"type": "duel_declared", "seat": 0, "rival": 1, "kind": "element"},
        {
            "type": "informed",
            "seat": 0,
            "target": 1,
            "card": 2,
            "clue": {"element": "W"},
            "cards": [2, 3],
        },
    ]
    assert state["phase"] == "duel"
    assert state["hands"][1][3]["told"]["element"] == "W"


def test_the_duel_clue_cannot_repeat_what_the_rival_knows():
    state = game.evolve(table(), informed(1, 2, {"element": "W"}, [2, 3]))
    assert refused(state, 0, duel(1, "power", 2, "element")) == "illegal_move"
    assert game.decide(state, 0, duel(1, "power", 2, "power"))


def test_the_duel_clue_must_be_about_an_open_card_of_the_rival():
    assert refused(table(), 0, duel(1, "power", 0, "element")) == "illegal_move"
    assert refused(table(), 0, duel(1, "power", 5, "element")) == "illegal_move"


def test_the_duel_clue_is_skipped_when_the_rival_knows_all_open_cards():
    state = knowing_everything(table())
    assert [c for c in game.legal(state, 0) if c["type"] == "duel"] == [
        duel(1, "element"),
        duel(1, "power"),
    ]
    assert types(game.decide(state, 0, duel(1, "power"))) == ["duel_declared"]
    assert refused(state, 0, duel(1, "power", 2, "element")) == "illegal_move"


def test_a_duel_without_a_clue_is_refused_when_one_can_be_given():
    assert refused(table(), 0, duel(1, "element")) == "illegal_move"


def test_a_duel_needs_a_rival_other_than_the_attacker():
    assert refused(table(), 0, duel(0, "element", 2, "element")) == "illegal_move"
    assert refused(table(), 0, duel(2, "element", 2, "element")) == "illegal_move"


def test_both_duelists_must_choose_in_either_order():
    state = after(table(), (0, duel(1, "element", 2, "element")))
    assert game.to_act(state) == [0, 1]
    assert game.legal(state, 1) == [choose(i) for i in range(5)]
    state = after(state, (1, choose(4)))
    assert game.to_act(state) == [0]
    assert game.legal(state, 1) == []


def test_a_duelist_cannot_choose_twice():
    state = after(table(), (0, duel(1, "element", 2, "element")), (0, choose(0)))
    assert refused(state, 0, choose(1)) == "not_your_turn"


def test_a_duelist_chooses_a_card_of_their_hand():
    state = after(table(), (0, duel(1, "element", 2, "element")))
    assert refused(state, 0, choose(5)) == "illegal_move"
    assert refused(state, 0, choose(-1)) == "illegal_move"


def test_a_duelist_may_play_an_open_card_blind_or_a_hidden_one():
    state = after(table(), (0, duel(1, "element", 2, "element")))
    state, events = play(state, (0, choose(4)), (1, choose(1)))  # open S7 against hidden P1
    assert events[2]["attacker_spell"] == "S7" and events[2]["rival_spell"] == "P1"
    assert events[2]["winner"] == 1


def test_only_the_duelists_choose():
    deal = [
        (["W3", "F1"], ["P2", "L0"]),
        (["F3", "P1"], ["W1", "W2"]),
        (["P3", "P4"], ["F4", "F5"]),
    ]
    state = after(started(3, deal), (0, duel(1, "power", 2, "power")))
    assert game.to_act(state) == [0, 1]
    assert refused(state, 2, choose(0)) == "not_your_turn"


def test_a_chosen_card_stays_secret_until_both_have_chosen():
    state, events = play(table(), (0, duel(1, "element", 2, "element")), (0, choose(2)))
    chosen = events[-1]
    assert chosen == {"type": "card_chosen", "seat": 0, "card": 2, "spell": "P2"}
    assert game.redact(chosen, 0) == {"type": "card_chosen", "seat": 0, "card": 2}
    assert game.redact(chosen, 1) == {"type": "card_chosen", "seat": 0}
    assert game.redact(chosen, None) == {"type": "card_chosen", "seat": 0}
    assert game.view(state, 0)["duel"]["choice"] == 2
    assert game.view(state, 1)["duel"]["choice"] is None
    assert game.view(state, 1)["duel"]["chosen"] == [0]
    assert "P2" not in str(game.view(state, None)["duel"])


def test_both_cards_are_revealed_once_both_have_chosen():
    state = after(table(), (0, duel(1, "element", 2, "element")), (1, choose(0)))
    _, events = play(state, (0, choose(0)))
    assert types(events)[:2] == ["card_chosen", "duel_revealed"]
    assert events[1] == {
        "type": "duel_revealed",
        "attacker": 0,
        "rival": 1,
        "attacker_spell": "W3",
        "rival_spell": "F3",
        "winner": 0,
    }
    assert game.redact(events[1], 1) == events[1]


@pytest.mark.parametrize(
    "winner, loser", [("W3", "F3"), ("F3", "P3"), ("P3", "W3"), ("L0", "W3"), ("L0", "S7")]
)
def test_water_beats_fire_fire_beats_plant_plant_beats_water_and_light_beats_the_rest(
    winner, loser
):
    assert duel_outcome("element", winner, loser) == "attacker"
    assert duel_outcome("element", loser, winner) == "rival"


@pytest.mark.parametrize("other", ["W1", "F6", "P3", "L0"])
def test_shadow_loses_to_every_element_but_shadow(other):
    assert duel_outcome("element", "S7", other) == "rival"
    assert duel_outcome("element", other, "S7") == "attacker"


@pytest.mark.parametrize(
    "pair", [("W1", "W6"), ("F2", "F3"), ("P4", "P1"), ("L0", "L0"), ("S7", "S7")]
)
def test_equal_elements_tie_in_an_elemental_duel(pair):
    assert duel_outcome("element", *pair) is None


@pytest.mark.parametrize("high, low", [("W2", "F1"), ("S7", "W6"), ("P1", "L0"), ("S7", "L0")])
def test_in_a_power_duel_the_higher_power_wins(high, low):
    assert duel_outcome("power", high, low) == "attacker"
    assert duel_outcome("power", low, high) == "rival"
    assert duel_outcome("power", "W3", "F3") is None


def test_an_elemental_duel_ignores_power():
    # Seat 0's plant 2 beats seat 1's water 2... and its open light (position 3) beats all.
    state = after(table(), (0, duel(1, "element", 2, "power")), (0, choose(2)), (1, choose(3)))
    assert state["gems"] == [1, 0]


def test_a_power_duel_ignores_element():
    state = after(table(), (0, duel(1, "power", 2, "power")), (0, choose(1)), (1, choose(0)))
    assert state["gems"] == [0, 1]  # F1 against F3


def test_the_winner_of_a_duel_gets_a_gem():
    state, events = play(
        table(), (0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(0))
    )
    assert {"type": "duel_won", "winner": 0, "loser": 1, "gems": 1} in events
    assert state["gems"] == [1, 0]


def test_a_tie_is_replayed_with_another_card_for_a_higher_stake():
    state = after(table(), (0, duel(1, "element", 2, "element")), (0, choose(0)))
    state, events = play(state, (1, choose(2)))  # W3 against W1: a tie
    assert types(events) == ["card_chosen", "duel_revealed", "duel_tied"]
    assert events[-1] == {"type": "duel_tied", "stake": 2}
    assert game.to_act(state) == [0, 1]
    assert state["duel"]["played"] == {"attacker": ["W3"], "rival": ["W1"]}
    assert len(state["hands"][0]) == len(state["hands"][1]) == 4
    state, events = play(state, (0, choose(0)), (1, choose(0)))  # F1 against F3: a tie again
    assert events[-1] == {"type": "duel_tied", "stake": 3}
    state = after(state, (0, choose(1)), (1, choose(0)))  # L0 against P1: seat 0 wins
    assert state["gems"] == [3, 0]


def test_a_tie_through_every_card_ends_the_game_with_a_shared_victory():
    deal = [(["W1", "W2"], ["W3", "W4", "W5"]), (["F1", "F2"], ["F3", "F4", "F5"])]
    state = after(started(2, deal), (0, duel(1, "power", 2, "power")))
    for _ in range(4):
        state = after(state, (0, choose(0)), (1, choose(0)))
    assert state["duel"]["stake"] == 5
    state, events = play(state, (0, choose(0)), (1, choose(0)))
    assert types(events)[-2:] == ["cards_discarded", "game_over"]
    assert game.result(state) == {"winners": [0, 1], "scores": [0, 0], "reason": "shared_victory"}
    assert game.to_act(state) == []
    assert len(state["discard_zone"]) == 20


def test_played_cards_go_to_the_discard_zone_sorted():
    state = after(table(), (0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(2)))
    state, events = play(state, (0, choose(2)), (1, choose(0)))  # L0 beats F3
    assert {"type": "cards_discarded", "cards": ["W3", "L0", "W1", "F3"]} in events
    zone = state["discard_zone"]
    assert all(card in zone for card in ["W3", "L0", "W1", "F3"])
    assert zone == sorted(zone, key=lambda c: ("WFPLS".index(c[0]), int(c[1])))
    assert state["duel"] is None


def test_the_winner_draws_open_cards_and_the_loser_hidden_cards():
    state, events = play(
        table(), (0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(0))
    )
    assert {"type": "cards_drawn", "seat": 0, "cards": ["P6"], "open": True} in events
    assert {"type": "cards_drawn", "seat": 1, "cards": ["F6"], "open": False} in events
    assert state["hands"][0][-1] == {
        "spell": "P6",
        "open": True,
        "told": {"element": None, "power": None, "special": False},
    }
    assert state["hands"][1][1] == {"spell": "F6", "open": False, "told": None}
    assert len(state["hands"][0]) == len(state["hands"][1]) == 5
    assert state["draw_pile"][:2] == ["W6", "P5"]


def test_the_winner_draws_before_the_loser():
    state, events = play(
        table(), (0, duel(1, "element", 2, "element")), (0, choose(2)), (1, choose(0))
    )
    drawn = [event["seat"] for event in events if event["type"] == "cards_drawn"]
    assert drawn == [1, 0]  # F3 beats P2: seat 1 won


def test_new_hidden_cards_join_the_hidden_ones_before_the_open_cards():
    state = after(table(), (0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(4)))
    assert spells(state, 1) == ["F3", "P1", "F6", "W1", "W2"]
    assert [card["open"] for card in state["hands"][1]] == [False, False, False, True, True]


HANDS = [
    {"hidden": ["W3", "F1"], "open": ["P2", "L0", "S7"]},
    {"hidden": ["F3", "P1"], "open": ["W1", "W2", "F2"]},
]


def with_pile(pile, seed="test-seed"):
    """Seat 0 on turn with DEAL's hands, `pile` as the draw pile and every other card in
    the discard zone (sorted); also that discard zone."""
    discard = list(game.CARDS)
    for spell in [spell for hand in HANDS for spell in hand["hidden"] + hand["open"]] + pile:
        discard.remove(spell)
    dealt = {"type": "dealt", "hands": HANDS, "discard_zone": discard, "draw_pile": pile}
    return given(2, [dealt, {"type": "turn_began", "turn": 0}], seed=seed), discard


# Seat 0 wins with its water 3 against fire 3; then it draws one card, and seat 1 one.
WON_BY_SEAT_0 = [(0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(0))]


def test_a_refill_that_takes_the_last_card_goes_on_from_the_rebuilt_pile():
    state, discard = with_pile(["P6"])
    state, events = play(state, *WON_BY_SEAT_0)
    assert types(events)[-5:] == [
        "cards_discarded",
        "cards_drawn",
        "draw_pile_rebuilt",
        "cards_drawn",
        "turn_began",
    ]
    assert events[-4] == {"type": "cards_drawn", "seat": 0, "cards": ["P6"], "open": True}
    rebuilt = events[-3]["draw_pile"]
    assert sorted(rebuilt) == sorted(discard + ["W3", "F3"])
    assert events[-2] == {"type": "cards_drawn", "seat": 1, "cards": rebuilt[:1], "open": False}
    assert state["discard_zone"] == [] and state["draw_pile"] == rebuilt[1:]
    assert game.redact(events[-3], 0) == {"type": "draw_pile_rebuilt", "draw_pile": 40}


def test_ruling_the_pile_is_rebuilt_the_moment_a_refill_takes_its_last_card():
    state, discard = with_pile(["P6", "F6"])
    state, events = play(state, *WON_BY_SEAT_0)
    assert types(events)[-3:] == ["cards_drawn", "draw_pile_rebuilt", "turn_began"]
    assert sorted(state["draw_pile"]) == sorted(discard + ["W3", "F3"])
    assert state["discard_zone"] == [] and game.view(state, 1)["draw_pile"] == 39
    # The next duel's played cards go to the discard zone, not into the pile.
    state = after(state, (1, next(c for c in game.legal(state, 1) if c["type"] == "duel")))
    for _ in range(len(state["hands"][0])):
        if not state["duel"]:
            break
        state, events = play(state, *[(seat, choose(0)) for seat in game.to_act(state)])
    played = next(e["cards"] for e in events if e["type"] == "cards_discarded")
    assert state["discard_zone"] == sorted_spells(played) and len(state["draw_pile"]) == 39 - 2


def test_the_rebuilt_draw_pile_is_shuffled_from_the_seed():
    piles = []
    for seed in ["one", "one", "two", "three"]:
        _, events = play(with_pile(["P6"], seed)[0], *WON_BY_SEAT_0)
        piles.append(next(e["draw_pile"] for e in events if e["type"] == "draw_pile_rebuilt"))
    assert piles[0] == piles[1]
    assert len({tuple(pile) for pile in piles}) > 1


def hands_for(players):
    """A deal where seat 0's first hidden card is light and seat 1's is water."""
    pool = [f"{element}{power}" for element in "WFP" for power in (1, 2, 3, 4, 5, 1)]
    hands = [(["L0", pool.pop()], [pool.pop() for _ in range(2)])]
    hands.append((["W6", pool.pop()], [pool.pop() for _ in range(2)]))
    for _ in range(players - 2):
        hands.append(([pool.pop(), pool.pop()], [pool.pop() for _ in range(2)]))
    if players == 2:
        hands = [(hidden, shown + ["S7"]) for hidden, shown in hands]
    return hands


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_at_once_when_a_player_reaches_the_gem_target(players):
    target = GEM_TARGET[players]
    state = started(players, hands_for(players))
    state = game.evolve(state, {"type": "duel_won", "winner": 0, "loser": 1, "gems": target - 1})
    state, events = play(state, (0, duel(1, "element", 2, "power")), (0, choose(0)), (1, choose(0)))
    assert types(events)[-3:] == ["duel_won", "cards_discarded", "game_over"]
    assert game.result(state) == {
        "winners": [0],
        "scores": [target] + [0] * (players - 1),
        "reason": "gem_target",
    }
    assert game.to_act(state) == []
    assert all(game.legal(state, seat) == [] for seat in range(players))


def test_the_gem_targets_are_seven_six_five_and_four():
    assert GEM_TARGET == {2: 7, 3: 6, 4: 5, 5: 4}
    assert game.view(started(4), 0)["target"] == 5


def test_one_gem_short_of_the_target_the_game_goes_on():
    state = started(3, hands_for(3))
    state = game.evolve(state, {"type": "duel_won", "winner": 0, "loser": 1, "gems": 4})
    state = after(state, (0, duel(1, "element", 2, "power")), (0, choose(0)), (1, choose(0)))
    assert state["gems"][0] == 5 and game.result(state) is None
    assert state["turn"] == 1


def test_the_turn_passes_clockwise_from_the_attacker_after_a_duel():
    state, events = play(
        started(3, hands_for(3)), (0, duel(2, "power", 2, "power")), (0, choose(0)), (2, choose(0))
    )
    assert events[-1] == {"type": "turn_began", "turn": 1}


def test_every_card_is_accounted_for_during_and_after_a_duel():
    state = after(table(), (0, duel(1, "element", 2, "element")), (0, choose(0)), (1, choose(2)))
    assert sum(cards_on_table(state).values()) == 49
    state = after(state, (0, choose(0)), (1, choose(0)))
    assert sum(cards_on_table(state).values()) == 49
