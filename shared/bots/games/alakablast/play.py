"""Alakablast on the seat's turn, as an informant and in a duel (`greedy`; no reflexes).

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

from shared.bots.games.alakablast.beliefs import SIDE, SPELLS, beliefs, fitting, heard, unseen
from shared.games.alakablast.cards import DUEL_KINDS, duel_outcome, element, power
from shared.games.alakablast.knowledge import clue_about, matches

RIVAL_BEST = 0.5  # how often a rival is expected to play its best card rather than any
DUEL_EDGE = 0.0  # the edge from which the bot duels rather than asks
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
POWERS = sorted(OUTCOME["power"])
# ELEMENT_ODDS[element]: (the elements it beats, the elements it loses to).
ELEMENT_ODDS = {
    mine: tuple(tuple(e for e, won in row.items() if won == sign) for sign in (1, -1))
    for mine, row in OUTCOME["element"].items()
}
ELEMENT_WORTH, POWER_WORTH = 1.0, 1.6  # a power clue narrows a card more than an element


def reflex(view, feed, rng):
    """Alakablast has no out-of-turn commands."""
    return None


def sides(kind, weights):
    """{side: weight} of a card drawn from `weights` ({spell: weight}): a duel of `kind`
    looks only at that side of a card (its power, or its element)."""
    side, mass = SIDE[kind], {}
    for spell, weight in weights.items():
        if weight > 0:
            mass[side[spell]] = mass.get(side[spell], 0) + weight
    return mass


def against(kind, theirs):
    """{side: edge} of each side of a card in a duel of `kind` against a card whose side
    is drawn from `theirs` ({side: weight}); a spell's edge is its side's.

    Greedy weighs sides rather than spells (23 of them, for 8 powers or 5 elements),
    and a power's edge is the weight below it less the weight above it: the search's
    play-outs spend most of their time here."""
    mass = {side: weight for side, weight in theirs.items() if weight > 0}
    total = sum(mass.values()) or 1
    if kind == "power":
        edge, below, rest = {}, 0, total
        for level in POWERS:
            here = mass.get(level, 0)
            rest -= here
            edge[level] = (below - rest) / total
            below += here
        return edge
    return {
        mine: (sum(mass.get(s, 0) for s in beats) - sum(mass.get(s, 0) for s in loses)) / total
        for mine, (beats, loses) in ELEMENT_ODDS.items()
    }


def rival_play(state, rival, kind, pool, worth, mass=None):
    """{side: probability} of the card `rival` plays: a mix of its best card (as it
    sees its hand) and any card of its hand (a rival may bluff, or not know better).
    `mass` is sides(kind, pool) (computed when None), `worth` against(kind, mass)."""
    mass = sides(kind, pool) if mass is None else mass
    best = best_play(state, rival, kind, pool, worth, mass)
    if RIVAL_BEST >= 1:
        return best
    side, hand = SIDE[kind], state["hands"][rival]
    mixed = {s: p * RIVAL_BEST for s, p in best.items()}
    share = (1 - RIVAL_BEST) / len(hand)
    for card in hand:
        if card["spell"] is not None:
            seen = side[card["spell"]]
            mixed[seen] = mixed.get(seen, 0) + share
    unknown = sum(1 for card in hand if card["spell"] is None)
    if unknown:  # each spread over the unseen cards
        total = sum(mass.values()) or 1
        for s, n in mass.items():
            mixed[s] = mixed.get(s, 0) + unknown * share * n / total
    return mixed


def best_play(state, rival, kind, pool, worth, mass):
    """{side: probability} of the card `rival` plays in a duel of `kind`: its best hidden
    card (drawn from the unseen cards) unless one of its open cards looks better to it
    from what it was told. `mass`, `worth`: as rival_play's."""
    side, hand = SIDE[kind], state["hands"][rival]
    hidden = sum(1 for card in hand if not card["open"])
    best_open, best_open_worth = None, -2.0
    for card in hand:
        if card["open"] and card["spell"] is not None:
            fit = fitting(card["told"])
            guess = {s: n for s, n in pool.items() if n > 0 and s in fit}
            guess[card["spell"]] = guess.get(card["spell"], 0) + 1
            total = sum(guess.values())
            seems = sum(worth[side[s]] * n for s, n in guess.items()) / total
            if seems > best_open_worth:
                best_open, best_open_worth = card["spell"], seems
    if hidden == 0 or not pool:
        return {side[best_open]: 1.0} if best_open else {}
    total = sum(pool.values())
    play, below = {}, 0
    for drawn in sorted(mass, key=worth.get):  # P(best of `hidden` draws has this side)
        chance = ((below + mass[drawn]) / total) ** hidden - (below / total) ** hidden
        below += mass[drawn]
        played = side[best_open] if best_open and best_open_worth > worth[drawn] else drawn
        play[played] = play.get(played, 0) + chance
    return play


def edges(kind, mine, theirs):
    """Per position of my hand ({spell: chance} each), the edge of playing it against
    `theirs` ({side: weight})."""
    side, edge = SIDE[kind], against(kind, theirs)
    return [sum(chance * edge[side[spell]] for spell, chance in card.items()) for card in mine]


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
    scores = _choose_scores(state, me, pool, mine)
    # On a tie of edges, play an open card: the bot keeps the cards it knows.
    hand = state["hands"][me]
    best = max(range(len(hand)), key=lambda i: (round(scores[i], 6), hand[i]["open"], -i))
    return {"type": "choose", "card": best}


def _choose_scores(state, me, pool, mine):
    """Per position of my hand, its edge against the card the rival is likely to play."""
    duel = state["duel"]
    rival = duel["rival"] if duel["attacker"] == me else duel["attacker"]
    kind = duel["kind"]
    mass = sides(kind, pool)
    theirs = rival_play(state, rival, kind, pool, against(kind, mass), mass)
    return edges(kind, mine, theirs)


def _turn(state, me, legal, pool, mine):
    asks = [c for c in legal if c["type"] == "ask"]
    duels = [c for c in legal if c["type"] == "duel"]
    best, best_edge = None, -2.0
    for pair, edge in _duel_edges(state, duels, pool, mine).items():
        if edge > best_edge:
            best, best_edge = pair, edge
    if best is not None and (not asks or best_edge >= DUEL_EDGE):
        return _duel(state, duels, *best)
    return _ask(state, me, asks, mine)


def _duel_edges(state, duels, pool, mine):
    """{(rival, kind): the edge of my best card in that duel}, rivals in seat order."""
    found = {}
    masses = {kind: sides(kind, pool) for kind in DUEL_KINDS}
    worths = {kind: against(kind, masses[kind]) for kind in DUEL_KINDS}
    for rival, kind in sorted({(c["rival"], c["kind"]) for c in duels}):
        theirs = rival_play(state, rival, kind, pool, worths[kind], masses[kind])
        edge = max(edges(kind, mine, theirs)) + 0.01 * state["gems"][rival]  # the leader,
        found[rival, kind] = round(edge, 9)  # when as easy; a tie in seat order
    return found


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
    return _ask_with_claim(asks, mine, position, _informant(state, asks, position))


def _informant(state, asks, position):
    """Whom to ask about `position`: the player with the fewest gems (the first clockwise
    on a tie), whose turn a clue helps least."""
    informants = list(dict.fromkeys(c["informant"] for c in asks if c["card"] == position))
    return min(informants, key=lambda s: (state["gems"][s], informants.index(s)))


def _ask_with_claim(asks, mine, position, informant):
    """The ask about `position` of `informant`, claiming the likeliest element when a
    claim may be made."""
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


def rank(view, feed, rng):
    """The commands worth searching (ismcts), greedy's choice first, the likeliest
    rivals to it next (the search plays out the first few on the most worlds).

    On a turn, one ask per card (of the informant and with the claim greedy would choose)
    and one duel per rival and kind (with the clue that tells the rival the least),
    rather than every informant, claim and clue: the search compares each on the same
    worlds, and a few dozen near-twins would share out its few play-outs. Greedy's ask
    comes first of the asks, the duels by their edge. In a duel, every card by its edge;
    otherwise every legal command in a random order."""
    legal, state, me = view["legal"], view["state"], view["seat"]
    first = greedy(view, feed, rng)
    phase = state["phase"]
    if phase in ("turn", "duel"):
        pool = unseen(state, me)
        mine = beliefs(state, me, pool, heard(view, feed))
    if phase == "turn":
        asks = [c for c in legal if c["type"] == "ask"]
        duels = [c for c in legal if c["type"] == "duel"]
        by_edge = _duel_edges(state, duels, pool, mine)
        rest = [_duel(state, duels, *pair) for pair in sorted(by_edge, key=by_edge.get)[::-1]]
        if asks:
            cards = sorted(
                dict.fromkeys(c["card"] for c in asks), key=lambda i: -_uncertainty(mine[i])
            )
            rest[1:1] = [_ask_with_claim(asks, mine, c, _informant(state, asks, c)) for c in cards]
    elif phase == "duel":
        scores = _choose_scores(state, me, pool, mine)
        rest = sorted(legal, key=lambda c: -scores[c["card"]])
    else:
        rest = list(legal)
        rng.shuffle(rest)
    return [first, *(c for c in rest if c != first)]


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
