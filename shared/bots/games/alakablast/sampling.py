"""Alakablast: a whole rules state the seat cannot tell from the true one (`sample`)."""

from collections import Counter

from shared.bots.games.alakablast.beliefs import chances, heard, unseen
from shared.bots.games.alakablast.play import greedy
from shared.games import alakablast as rules
from shared.games.alakablast.cards import OPTIONS
from shared.games.common import clone

RANDOM_CHOICE = 0.2  # how often a rival's hidden duel card is drawn as any card of its hand


def sample(view, feed, rng):
    """A complete Alakablast rules state the seat cannot tell from the true one: its
    open cards drawn among the unseen spells that fit what it knows of them, the others'
    hidden cards and the draw pile dealt from the rest, and a rival's chosen but unrevealed
    duel card drawn as `_rivals_choice` says."""
    state, me = view["state"], view["seat"]
    pool = unseen(state, me)
    mine = _deal_open_cards(state["hands"][me], pool, heard(view, feed), rng)
    if mine is None:
        mine = _deal_open_cards(state["hands"][me], pool, None, rng)
    rest = list((pool - Counter(mine.values())).elements())
    rng.shuffle(rest)
    hands = []
    for owner, hand in enumerate(state["hands"]):
        cards = []
        for position, card in enumerate(hand):
            spell = card["spell"]
            if spell is None:
                spell = mine[position] if owner == me else rest.pop()
            cards.append({"spell": spell, "open": card["open"], "told": clone(card["told"])})
        hands.append(cards)
    world = {
        "players": state["players"],
        "seed": f"sample-{rng.getrandbits(64):016x}",
        "deck": None,
        "options": {k: v for k, v in (view.get("options") or {}).items() if k in OPTIONS},
        "phase": state["phase"],
        "turn": state["turn"],
        "turn_number": state["turn_number"],
        "hands": hands,
        "gems": list(state["gems"]),
        "discard_zone": list(state["discard_zone"]),
        "draw_pile": rest[: state["draw_pile"]],
        "shuffles": 1 + sum(1 for event in feed if event["type"] == "draw_pile_rebuilt"),
        "question": clone(state["question"]),
        "duel": _duel_state(state["duel"], me),
        "result": clone(state["result"]),
    }
    _rivals_choice(world, view, me, rng)
    return world


def _deal_open_cards(hand, pool, slots, rng):
    """{position: spell} for the seat's own open cards, each fitting what the seat knows
    (a backtracking draw, most constrained card first); None when nothing fits."""

    def ticket_count(position, spell, count):
        return chances(spell, count, hand[position]["told"], slots[position] if slots else None)

    positions = [i for i, card in enumerate(hand) if card["spell"] is None]
    positions.sort(key=lambda i: sum(1 for s, n in pool.items() if ticket_count(i, s, n)))
    left = Counter(pool)
    dealt = {}

    def deal(index):
        if index == len(positions):
            return True
        position = positions[index]
        bag = []  # a spell's tickets: its unseen copies, more for a claim that held up
        for spell, count in left.items():
            bag += [spell] * ticket_count(position, spell, count)
        rng.shuffle(bag)  # a spell with more tickets comes up first more often
        for spell in dict.fromkeys(bag):
            left[spell] -= 1
            dealt[position] = spell
            if deal(index + 1):
                return True
            left[spell] += 1
        return False

    return dealt if deal(0) else None


def _duel_state(duel, me):
    """The duel as the rules keep it, with the seat's own choice (if made) and no other:
    `_rivals_choice` draws the rival's."""
    if duel is None:
        return None
    chosen = {}
    for role in ("attacker", "rival"):
        chosen[role] = duel["choice"] if duel[role] == me else None
    return {
        "attacker": duel["attacker"],
        "rival": duel["rival"],
        "kind": duel["kind"],
        "stake": duel["stake"],
        "chosen": chosen,
        "played": {role: list(cards) for role, cards in duel["played"].items()},
    }


def _rivals_choice(world, view, me, rng):
    """A duelist's choice is known only to itself. When the other duelist has chosen, its
    card is drawn, never read: the card greedy would choose seeing that duelist's view of
    this world (a rival who weighs its cards, as greedy does), or now and then
    (RANDOM_CHOICE) any card of its hand."""
    duel, seen = world["duel"], view["state"]["duel"]
    if duel is None:
        return
    for role in ("attacker", "rival"):
        seat = duel[role]
        if seat == me or seat not in seen["chosen"]:
            continue
        hand = world["hands"][seat]
        if rng.random() < RANDOM_CHOICE:
            duel["chosen"][role] = rng.randrange(len(hand))
            continue
        legal = [{"type": "choose", "card": i} for i in range(len(hand))]
        their_view = {
            "game": view["game"],
            "seat": seat,
            "to_act": [seat],
            "legal": legal,
            "state": rules.view(world, seat),
            "options": world["options"],
        }
        duel["chosen"][role] = greedy(their_view, [], rng)["card"]
