"""The end of a showdown: reveal both cards, then a tie, a win, a refill or the game's end."""

from shared.games.alakablast.cards import GEM_TARGET, duel_outcome, hand_size
from shared.games.alakablast.deal import shuffled
from shared.games.alakablast.evolve import emit
from shared.games.alakablast.table import next_seat


def showdown(state):
    """The events once both duelists have chosen (their choices are in state["duel"])."""
    events = []
    duel = state["duel"]
    attacker, rival = duel["attacker"], duel["rival"]
    attacker_spell = state["hands"][attacker][duel["chosen"]["attacker"]]["spell"]
    rival_spell = state["hands"][rival][duel["chosen"]["rival"]]["spell"]
    outcome = duel_outcome(duel["kind"], attacker_spell, rival_spell)
    winner = duel[outcome] if outcome else None
    state = emit(
        events,
        state,
        {
            "type": "duel_revealed",
            "attacker": attacker,
            "rival": rival,
            "attacker_spell": attacker_spell,
            "rival_spell": rival_spell,
            "winner": winner,
        },
    )
    if winner is None:
        _tie(events, state)
    else:
        _win(events, state, winner, rival if winner == attacker else attacker)
    return events


def _tie(events, state):
    if state["hands"][state["duel"]["attacker"]]:
        emit(events, state, {"type": "duel_tied", "stake": state["duel"]["stake"] + 1})
        return
    # Both hands are spent and still tied: everyone shares the victory.
    everyone = list(range(state["players"]))
    _end(events, state, everyone, "shared_victory")


def _win(events, state, winner, loser):
    attacker = state["duel"]["attacker"]
    gems = state["duel"]["stake"]
    state = emit(
        events, state, {"type": "duel_won", "winner": winner, "loser": loser, "gems": gems}
    )
    if state["gems"][winner] >= GEM_TARGET[state["players"]]:
        _end(events, state, [winner], "gem_target")
        return
    state = _discard_played(events, state)
    state = _refill(events, state, winner, is_open=True)
    state = _refill(events, state, loser, is_open=False)
    emit(events, state, {"type": "turn_began", "turn": next_seat(state, attacker)})


def _discard_played(events, state):
    played = state["duel"]["played"]
    cards = played["attacker"] + played["rival"]
    return emit(events, state, {"type": "cards_discarded", "cards": cards})


def _end(events, state, winners, reason):
    state = _discard_played(events, state)
    emit(
        events,
        state,
        {"type": "game_over", "winners": winners, "scores": list(state["gems"]), "reason": reason},
    )


def _refill(events, state, seat, is_open):
    """Draw back to a full hand. The moment a draw takes the pile's last card, the discard
    zone is shuffled into a new pile, before anything else happens."""
    missing = hand_size(state["players"]) - len(state["hands"][seat])
    while missing > 0 and state["draw_pile"]:
        cards = state["draw_pile"][:missing]
        event = {"type": "cards_drawn", "seat": seat, "cards": cards, "open": is_open}
        state = emit(events, state, event)
        missing -= len(cards)
        if not state["draw_pile"] and state["discard_zone"]:
            pile = shuffled(state, state["discard_zone"])
            state = emit(events, state, {"type": "draw_pile_rebuilt", "draw_pile": pile})
    return state
