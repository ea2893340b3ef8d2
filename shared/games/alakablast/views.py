"""What each seat may see of the state and of each event.

A seat sees its own hidden cards and everyone else's open cards; of its own open cards
only what it has been told. A spectator (seat None) sees only what every player sees, so
that no player can learn their own open cards by watching their own game. A chosen duel
card is secret from everyone until both are revealed. Once the game is over every card
is shown.
"""

from shared.games.alakablast.cards import GEM_TARGET, NAME, hand_size
from shared.games.alakablast.table import duel_role
from shared.games.alakablast.turns import to_act
from shared.games.common import check_seat, clone


def sees(seat, owner, is_open):
    """True when `seat` may see the face of a card of `owner` that is open or hidden."""
    if seat is None:
        return False
    return owner != seat if is_open else owner == seat


def _card_view(card, owner, seat, over):
    shown = over or sees(seat, owner, card["open"])
    return {
        "open": card["open"],
        "spell": card["spell"] if shown else None,
        "told": clone(card["told"]),
    }


def _duel_view(duel, seat):
    if duel is None:
        return None
    role = duel_role(duel, seat)
    return {
        "attacker": duel["attacker"],
        "rival": duel["rival"],
        "kind": duel["kind"],
        "stake": duel["stake"],
        "played": clone(duel["played"]),
        "chosen": sorted(duel[r] for r in ("attacker", "rival") if duel["chosen"][r] is not None),
        "choice": duel["chosen"][role] if role else None,
    }


def view(state, seat):
    """What `seat` (None: a spectator) may see of the table, as a JSON dict."""
    check_seat(seat, state["players"])
    over = state["phase"] == "over"
    players = state["players"]
    return {
        "game": NAME,
        "players": players,
        "seat": seat,
        "phase": state["phase"],
        "turn": state["turn"],
        "turn_number": state["turn_number"],
        "hand_size": hand_size(players),
        "target": GEM_TARGET[players],
        "gems": list(state["gems"]),
        "hands": [
            [_card_view(card, owner, seat, over) for card in hand]
            for owner, hand in enumerate(state["hands"])
        ],
        "discard_zone": list(state["discard_zone"]),
        "draw_pile": len(state["draw_pile"]),
        "question": clone(state["question"]),
        "duel": _duel_view(state["duel"], seat),
        "to_act": to_act(state),
        "result": result(state),
    }


def _seen(cards, visible):
    """The cards themselves when visible, else only how many there are."""
    return list(cards) if visible else len(cards)


def _redact_dealt(event, seat):
    hands = [
        {
            "hidden": _seen(hand["hidden"], sees(seat, owner, False)),
            "open": _seen(hand["open"], sees(seat, owner, True)),
        }
        for owner, hand in enumerate(event["hands"])
    ]
    return {
        "type": "dealt",
        "hands": hands,
        "discard_zone": list(event["discard_zone"]),
        "draw_pile": len(event["draw_pile"]),
    }


def _redact_card_chosen(event, seat):
    if seat == event["seat"]:
        return {"type": "card_chosen", "seat": seat, "card": event["card"]}
    return {"type": "card_chosen", "seat": event["seat"]}


def _redact_cards_drawn(event, seat):
    visible = sees(seat, event["seat"], event["open"])
    return {**event, "cards": _seen(event["cards"], visible)}


def _redact_draw_pile_rebuilt(event, seat):
    return {"type": "draw_pile_rebuilt", "draw_pile": len(event["draw_pile"])}


REDACTIONS = {
    "dealt": _redact_dealt,
    "card_chosen": _redact_card_chosen,
    "cards_drawn": _redact_cards_drawn,
    "draw_pile_rebuilt": _redact_draw_pile_rebuilt,
}


def redact(event, seat):
    """The event as `seat` (None: a spectator) may see it; hidden cards become counts."""
    redaction = REDACTIONS.get(event["type"])
    return redaction(event, seat) if redaction else clone(event)


def result(state):
    """None until the game is over; then winners, scores (the gems) and the reason."""
    return clone(state["result"])
