"""Alakablast bot knowledge: greedy play and sampling the unseen cards (no reflexes).

What the seat knows: its hidden cards, everyone else's open cards, the discard zone and
the cards on the table in a duel; of its own open cards, what it was told (`told` in the
view) and, from its feed, what each clue said a card is *not* (a clue marks every open card
it fits, so an unmarked one does not fit it). Every card it has not seen is equally likely
to be any of its open cards that fits all that, another player's hidden card or in the pile;
but a claim answered in the other dimension makes the claimed value likelier (a right claim
must be answered so, a wrong one need not: no event says which it was).

Strategy (from the rulebook: ask to learn your open cards, duel when you know enough):
- A duel is judged by its edge, P(win) - P(lose), of the bot's best card against the card
  the rival is likely to play: its best hidden card (the rival sees those) or its best
  open card as far as it has been told. The bot duels the rival and kind with the best
  edge once that edge reaches DUEL_EDGE, or when it has nothing left to ask about.
- The clue a duel starts with tells the rival as little as possible: another dimension
  than the duel's kind, about as few of their cards as possible.
- Otherwise it asks about the open card it knows least of, claiming the element it
  finds likeliest when it knows nothing of the card (a right claim obliges the informant
  to give the power, which says more), of the player with the fewest gems.
- In a duel it plays its card with the best edge; as an informant it gives the clue that
  tells the asker the least.
"""

from collections import Counter

from shared.games.alakablast.cards import CARDS, DUEL_KINDS, OPTIONS, duel_outcome, element, power
from shared.games.alakablast.knowledge import clue_about, matches
from shared.games.common import clone

RIVAL_BEST = 0.5  # how often a rival is expected to play its best card rather than any
DUEL_EDGE = 0.0  # the edge from which the bot duels rather than asks
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
# OUTCOME[kind][my side][their side]: +1 when mine wins, -1 when it loses, 0 on a tie.
OUTCOME = {
    kind: {
        SIDE[kind][mine]: {
            SIDE[kind][theirs]: {"attacker": 1, "rival": -1, None: 0}[
                duel_outcome(kind, mine, theirs)
            ]
            for theirs in SPELLS
        }
        for mine in SPELLS
    }
    for kind in DUEL_KINDS
}
ELEMENT_WORTH, POWER_WORTH = 1.0, 1.6  # a power clue narrows a card more than an element


def reflex(view, feed, rng):
    """Alakablast has no out-of-turn commands."""
    return None


# --- what the seat knows


def fits(spell, told, nots=()):
    """Whether `spell` agrees with what its owner was told (and with the clues that did
    not mark the card)."""
    if told is not None:
        special = SPECIAL[spell]
        if told["special"] and not special:
            return False
        if told["element"] is not None and (special or spell[0] != told["element"]):
            return False
        if told["power"] is not None and (special or SIDE["power"][spell] != told["power"]):
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
        weights = {s: chances(s, n, card["told"], slot) for s, n in pool.items() if n > 0}
        if not any(weights.values()):  # the feed disagrees with the view: trust `told`
            weights = {s: chances(s, n, card["told"], None) for s, n in pool.items() if n > 0}
        total = sum(weights.values()) or 1
        result.append({s: n / total for s, n in weights.items() if n})
    return result


def against(kind, theirs):
    """Each spell's edge against a card drawn from `theirs` ({spell: weight})."""
    side = SIDE[kind]
    mass, total = {}, 0
    for spell, weight in theirs.items():
        if weight > 0:
            mass[side[spell]] = mass.get(side[spell], 0) + weight
            total += weight
    total = total or 1
    by_side = {
        mine: sum(row[theirs] * weight for theirs, weight in mass.items()) / total
        for mine, row in OUTCOME[kind].items()
    }
    return {spell: by_side[side[spell]] for spell in SPELLS}


def rival_play(state, rival, kind, pool, worth):
    """{spell: probability} of the card `rival` plays: a mix of its best card (as it
    sees its hand) and any card of its hand (a rival may bluff, or not know better)."""
    best = best_play(state, rival, kind, pool, worth)
    if RIVAL_BEST >= 1:
        return best
    hand = state["hands"][rival]
    total = sum(pool.values()) or 1
    mixed = Counter({s: p * RIVAL_BEST for s, p in best.items()})
    share = (1 - RIVAL_BEST) / len(hand)
    for card in hand:
        if card["spell"] is not None:
            mixed[card["spell"]] += share
        else:
            for s, n in pool.items():
                mixed[s] += share * n / total
    return dict(mixed)


def best_play(state, rival, kind, pool, worth):
    """{spell: probability} of the card `rival` plays in a duel of `kind`: its best hidden
    card (drawn from the unseen cards) unless one of its open cards looks better to it
    from what it was told."""
    hand = state["hands"][rival]
    hidden = sum(1 for card in hand if not card["open"])
    best_open, best_open_worth = None, -2.0
    for card in hand:
        if card["open"] and card["spell"] is not None:
            told = card["told"]
            guess = {s: n for s, n in pool.items() if n > 0 and fits(s, told)}
            guess[card["spell"]] = guess.get(card["spell"], 0) + 1
            total = sum(guess.values())
            seems = sum(worth[s] * n for s, n in guess.items()) / total
            if seems > best_open_worth:
                best_open, best_open_worth = card["spell"], seems
    if hidden == 0 or not pool:
        return {best_open: 1.0} if best_open else {}
    ranked = sorted((s for s in pool if pool[s] > 0), key=lambda s: worth[s])
    total = sum(pool.values())
    play, below = Counter(), 0
    for spell in ranked:  # P(best of `hidden` draws is this spell)
        chance = ((below + pool[spell]) / total) ** hidden - (below / total) ** hidden
        below += pool[spell]
        play[best_open if best_open and best_open_worth > worth[spell] else spell] += chance
    return dict(play)


def edges(kind, mine, theirs):
    """Per position of my hand, the edge of playing it against `theirs`."""
    edge = against(kind, theirs)
    return [sum(chance * edge[spell] for spell, chance in card.items()) for card in mine]


# --- on the seat's turn


def greedy(view, feed, rng):
    """The command the seat sends now (always one of view["legal"])."""
    legal, state, me = view["legal"], view["state"], view["seat"]
    kinds = {command["type"] for command in legal}
    if kinds == {"inform"}:
        return _inform(state, legal)
    pool = unseen(state, me)
    mine = beliefs(state, me, pool, heard(view, feed))
    if kinds == {"choose"}:
        return _choose(state, me, legal, pool, mine)
    return _turn(state, me, legal, pool, mine)


def _choose(state, me, legal, pool, mine):
    duel = state["duel"]
    rival = duel["rival"] if duel["attacker"] == me else duel["attacker"]
    worth = against(duel["kind"], pool)
    theirs = rival_play(state, rival, duel["kind"], pool, worth)
    scores = edges(duel["kind"], mine, theirs)
    # On a tie of edges, play an open card: the bot keeps the cards it knows.
    hand = state["hands"][me]
    best = max(range(len(hand)), key=lambda i: (round(scores[i], 6), hand[i]["open"], -i))
    return {"type": "choose", "card": best}


def _turn(state, me, legal, pool, mine):
    asks = [c for c in legal if c["type"] == "ask"]
    duels = [c for c in legal if c["type"] == "duel"]
    best, best_edge = None, -2.0
    worths = {kind: against(kind, pool) for kind in DUEL_KINDS}
    for rival, kind in sorted({(c["rival"], c["kind"]) for c in duels}):
        worth = worths[kind]
        edge = max(edges(kind, mine, rival_play(state, rival, kind, pool, worth)))
        edge += 0.01 * state["gems"][rival]  # beat the leader when it is as easy
        if edge > best_edge:
            best, best_edge = (rival, kind), edge
    if best is not None and (not asks or best_edge >= DUEL_EDGE):
        return _duel(state, duels, *best)
    return _ask(state, me, asks, mine)


def _duel(state, duels, rival, kind):
    """The duel on `rival` of `kind` whose opening clue tells the rival the least."""
    options = [c for c in duels if c["rival"] == rival and c["kind"] == kind]
    hand = state["hands"][rival]

    def cost(command):
        if "card" not in command:
            return 0
        clue_dimension = command["dimension"]
        spell = hand[command["card"]]["spell"]
        clue = clue_about(spell, clue_dimension)
        relevant = clue_dimension == kind or "special" in clue
        marked = sum(1 for c in hand if c["open"] and c["spell"] and matches(c["spell"], clue))
        return marked * (3 if relevant else 1)

    return min(options, key=cost)


def _ask(state, me, asks, mine):
    """Ask about the open card the seat knows least of, of the player with fewest gems,
    claiming the likeliest element when nothing is known of the card."""
    cards = sorted({c["card"] for c in asks})
    position = max(cards, key=lambda i: (_uncertainty(mine[i]), -i))
    informants = list(dict.fromkeys(c["informant"] for c in asks if c["card"] == position))
    informant = min(informants, key=lambda s: (state["gems"][s], informants.index(s)))
    claims = [c for c in asks if c["card"] == position and c["informant"] == informant]
    elements = Counter()
    for spell, chance in mine[position].items():
        elements[element(spell)] += chance
    for letter, _ in elements.most_common():
        wanted = {"type": "ask", "card": position, "informant": informant}
        wanted["claim"] = {"element": letter}
        if wanted in claims:
            return wanted
    return claims[0]


def _uncertainty(spells):
    """How much is left to learn of a card: how spread its element and its power are."""
    by_element, by_power = Counter(), Counter()
    for spell, chance in spells.items():
        by_element[element(spell)] += chance
        by_power[power(spell)] += chance
    return (1 - sum(p * p for p in by_element.values())) + (
        1 - sum(p * p for p in by_power.values())
    )


def _inform(state, legal):
    """Answer in the dimension that tells the asker the least about the fewest cards."""
    question = state["question"]
    hand = state["hands"][question["asker"]]
    spell = hand[question["card"]]["spell"]

    def told_by(command):
        clue = clue_about(spell, command["dimension"])
        marked = [c for c in hand if c["open"] and matches(c["spell"], clue)]
        worth = ELEMENT_WORTH if "element" in clue else POWER_WORTH
        return (len(marked) * worth, command["dimension"])

    return min(legal, key=told_by)


# --- sampling the unseen cards


def sample(view, feed, rng):
    """A complete Alakablast rules state the seat cannot tell from the true one: its
    open cards drawn among the unseen spells that fit what it knows of them, the others'
    hidden cards and the draw pile dealt from the rest, and a rival's chosen but unrevealed
    duel card picked at random from its hand."""
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
    return {
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
        "duel": _duel_state(state["duel"], me, hands, rng),
        "result": clone(state["result"]),
    }


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


def _duel_state(duel, me, hands, rng):
    """The duel as the rules keep it. A duelist's choice is known only to itself: another
    duelist's chosen card is drawn at random from its hand, never read."""
    if duel is None:
        return None
    chosen = {}
    for role in ("attacker", "rival"):
        seat = duel[role]
        if seat == me:
            chosen[role] = duel["choice"]
        elif seat in duel["chosen"]:
            chosen[role] = rng.randrange(len(hands[seat]))
        else:
            chosen[role] = None
    return {
        "attacker": duel["attacker"],
        "rival": duel["rival"],
        "kind": duel["kind"],
        "stake": duel["stake"],
        "chosen": chosen,
        "played": {role: list(cards) for role, cards in duel["played"].items()},
    }
