"""Alakablast: what a seat knows of the cards, its own open cards above all.

What the seat knows: its hidden cards, everyone else's open cards, the discard zone and
the cards on the table in a duel; of its own open cards, what it was told (`told` in the
view) and, from its feed, what each clue said a card is *not* (a clue marks every open card
it fits, so an unmarked one does not fit it). Every card it has not seen is equally likely
to be any of its open cards that fits all that, another player's hidden card or in the pile;
but a claim answered in the other dimension makes the claimed value likelier (a right claim
must be answered so, a wrong one need not: no event says which it was).
"""

from collections import Counter

from shared.games.alakablast.cards import CARDS, element, power
from shared.games.alakablast.knowledge import matches

# How much likelier a claim answered in the other dimension makes the claimed value: a
# right claim is always answered so, a wrong one (we guess) about half the time.
CLAIM_ODDS = 2
SPELLS = sorted(set(CARDS))
SPECIAL = {spell: matches(spell, {"special": True}) for spell in SPELLS}
# A duel of a kind looks only at one side of a card: its power, or its element.
SIDE = {
    "power": {spell: power(spell) for spell in SPELLS},
    "element": {spell: element(spell) for spell in SPELLS},
}


def _fits_told(spell, told):
    special = SPECIAL[spell]
    if told["special"] and not special:
        return False
    if told["element"] is not None and (special or spell[0] != told["element"]):
        return False
    return told["power"] is None or (not special and SIDE["power"][spell] == told["power"])


# The spells that fit each thing an owner can have been told, (element, power, special)
# -> frozenset: greedy asks this thousands of times a search.
_FITTING = {}


def fitting(told):
    """The spells that agree with what an open card's owner was told (every spell for a
    hidden card, told None)."""
    key = None if told is None else (told["element"], told["power"], told["special"])
    found = _FITTING.get(key)
    if found is None:
        found = frozenset(s for s in SPELLS if told is None or _fits_told(s, told))
        _FITTING[key] = found
    return found


def fits(spell, told, nots=()):
    """Whether `spell` agrees with what its owner was told (and with the clues that did
    not mark the card)."""
    if spell not in fitting(told):
        return False
    return not nots or not any(matches(spell, clue) for clue in nots)


def unseen(state, me):
    """The cards the seat has not seen, as a Counter: not its hidden ones, not the others'
    open ones, not in the discard zone nor on the table in a duel."""
    seen = list(state["discard_zone"])
    for hand in state["hands"]:
        seen += [card["spell"] for card in hand if card["spell"] is not None]
    if state["duel"] is not None:
        seen += state["duel"]["played"]["attacker"] + state["duel"]["played"]["rival"]
    return Counter(CARDS) - Counter(seen)


def _slot():
    return {"not": [], "claimed": []}


def heard(view, feed):
    """Per position of the seat's hand, what its feed said of that open card beyond
    `told` (None for a hidden card): "not", the clues that did not mark it, and "claimed",
    the seat's claims about it that were answered in the other dimension (a right claim
    must be; a wrong one may be). None when the feed does not add up to the hand (an
    empty feed in a search)."""
    me = view["seat"]
    slots, chosen, asked = None, None, None
    for event in feed:
        kind = event["type"]
        if kind == "dealt":
            mine = event["hands"][me]
            slots = [None] * len(mine["hidden"]) + [_slot() for _ in range(mine["open"])]
        elif slots is None:
            continue
        elif kind == "asked":
            asked = event if event["seat"] == me and event["claim"] else None
        elif kind == "informed" and event["target"] == me:
            for position, slot in enumerate(slots):
                if slot is not None and position not in event["cards"]:
                    slot["not"].append(event["clue"])
            if asked is not None and _answered_otherwise(asked["claim"], event["clue"]):
                slots[asked["card"]]["claimed"].append(asked["claim"])
            asked = None
        elif kind == "card_chosen" and event["seat"] == me:
            chosen = event["card"]
        elif kind == "duel_revealed" and me in (event["attacker"], event["rival"]):
            slots.pop(chosen)
        elif kind == "cards_drawn" and event["seat"] == me:
            count = event["cards"] if event["open"] else len(event["cards"])
            if event["open"]:
                slots += [_slot() for _ in range(count)]
            else:
                hidden = sum(1 for slot in slots if slot is None)
                slots[hidden:hidden] = [None] * count
    hand = view["state"]["hands"][me]
    if slots is None or [s is None for s in slots] != [not card["open"] for card in hand]:
        return None
    return slots


def _answered_otherwise(claim, clue):
    """Whether a claim's answer was about the other dimension (not "special")."""
    return "special" not in clue and not set(clue) & set(claim)


def chances(spell, count, told, slot):
    """How likely the open card is `spell`, of which `count` are unseen, for a seat that
    heard `slot` of it: 0 when it cannot be; more when a claim of it was answered in the
    other dimension, CLAIM_ODDS times for each such claim."""
    if not fits(spell, told, slot["not"] if slot else ()):
        return 0
    if slot:
        for claim in slot["claimed"]:
            if matches(spell, claim):
                count *= CLAIM_ODDS
    return count


def beliefs(state, me, pool, slots=None):
    """Per position of the seat's hand, {spell: probability}: a hidden card is certain, an
    open one is any unseen spell that fits what the seat knows of it."""
    result = []
    for position, card in enumerate(state["hands"][me]):
        if card["spell"] is not None:
            result.append({card["spell"]: 1.0})
            continue
        slot = slots[position] if slots else None
        if slot is None or not (slot["not"] or slot["claimed"]):  # `told` is all it heard
            fit = fitting(card["told"])
            weights = {s: n for s, n in pool.items() if n > 0 and s in fit}
        else:
            weights = {s: chances(s, n, card["told"], slot) for s, n in pool.items() if n > 0}
        if not any(weights.values()):  # the feed disagrees with the view: trust `told`
            weights = {s: chances(s, n, card["told"], None) for s, n in pool.items() if n > 0}
        total = sum(weights.values()) or 1
        result.append({s: n / total for s, n in weights.items() if n})
    return result
