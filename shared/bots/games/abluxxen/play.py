"""Abluxxen greedy play: the best row, every strictly lower row abluxxed, the best draw.

Strategy (from the rulebook's tips and the scoring: +1 for every card in front and in
the scoring pile, -1 for every card in hand). `greedy`:

- Plays the row worth most: every card played scores (and under the rulebook's rules is
  drawn back, so a big row is pure gain), a row that can abluxx opponents' top rows is
  worth their loss too, a high row is safer from being abluxxed, and jokers are spent
  only where they make the row bigger or reach an attack ("use jokers to build strong
  combinations").
- Abluxxes every strictly lower row it may ("abluxx timely"): an attack costs nothing
  and the attacked player loses the row from in front either way; clockwise, so it
  attacks the first such target each time and keeps every later one. A row of equal
  value is left alone: its owner would take it back and play it against this row, and
  two bots doing that would never end the game.
- Answers an abluxx under the rulebook by taking the row back (giving it up costs as
  much and scores for the attacker), except once the draw pile is empty with more than
  two players, where giving it up costs no card in hand and the attacker stays behind;
  under the published rules by discarding it and drawing fresh cards, some chosen from
  the display (measured far stronger than taking it back). Published: keeps a stolen
  row only while the game is young and the row joins cards in hand.
- Draws the display cards that join its hand (more copies of a number, jokers), and
  under the published rules leaves the display for the pile when nothing there fits.
- Toward the end: a row that would end the game by emptying the hand is played only
  when that wins; and a stolen row (published) is not kept once the supply runs short.
"""

from collections import Counter

from shared.games.abluxxen.facts import JOKER, row_value

ATTACK_WORTH = 1.5  # per card of an abluxxed row: the owner loses it from in front
JOKER_COST = 1.5  # a joker kept is a bigger row or an attack later
EXPOSURE = 1.0  # per card of a top row that is easy to abluxx
_RISK = {1: 0.6, 2: 0.35, 3: 0.15}  # how likely a row of that many cards is abluxxed
ENDGAME_SUPPLY = 12  # draw pile size from which the end is near


def reflex(view, feed, rng):
    """Abluxxen has no reflexes: always None."""
    return None


def _scores(state):
    return [entry["score"] for entry in state["seats"]]


def _row_score(state, seat, cards):
    """How much playing `cards` as the new top row is worth to `seat`."""
    count, value = len(cards), row_value(cards)
    published = state["published"]
    hand = state["hand"]
    if count == len(hand):
        # the game ends at once (published), or once the pile is empty (rulebook)
        if published or state["draw_pile_count"] == 0:
            scores = _scores(state)
            # every card played scores +1 instead of -1
            ahead = scores[seat] + 2 * count > max(s for i, s in enumerate(scores) if i != seat)
            return 1000.0 if ahead else -1000.0
    score = float(count)
    for entry in state["seats"]:
        row = entry["top_row"]
        if entry["seat"] == seat or row is None or len(row) != count:
            continue
        if entry["top_row_value"] < value:
            score += ATTACK_WORTH * count
    jokers = cards.count(JOKER)
    score -= JOKER_COST * jokers
    # a small, low row is easy to abluxx: it goes back to hand or to the attacker
    score -= EXPOSURE * count * _RISK.get(count, 0.05) * (14 - value) / 13
    score += 0.01 * value
    return score


def _play(view, seat):
    state = view["state"]
    best, best_score = None, None
    for command in view["legal"]:
        score = _row_score(state, seat, command["cards"])
        if best_score is None or score > best_score:
            best, best_score = command, score
    return best


def _attack(view):
    """The first target clockwise whose row is strictly lower, else stop.

    A row of equal value is left alone: its owner would take it back and play it
    again against this row, and two players doing so would never end the game.
    """
    attack = view["state"]["attack"]
    seats = view["state"]["seats"]
    for command in view["legal"]:
        if (
            command["type"] == "attack"
            and seats[command["target"]]["top_row_value"] < attack["value"]
        ):
            return command
    return {"type": "stop"}


def _answer(view, seat):
    state, legal = view["state"], view["legal"]
    choices = {command["choice"]: command for command in legal}
    if "discard" in choices:  # published: fresh cards, some chosen from the display
        return choices["discard"]
    if "give_up" in choices and state["draw_pile_count"] == 0 and len(state["seats"]) > 2:
        attacker = state["attack"]["seat"]
        scores, row = _scores(state), len(state["attack"]["row"])
        if scores[attacker] + row < scores[seat]:  # the attacker stays behind
            return choices["give_up"]
    return choices["take_back"]


def _keep(view, seat):
    state = view["state"]
    row = state["seats"][state["attack"]["target"]]["top_row"] or []
    held = Counter(state["hand"])
    number = next((card for card in row if card != JOKER), JOKER)
    supply = state["draw_pile_count"] + len(state["display"])
    take = supply > ENDGAME_SUPPLY * 2 and held[number] >= 1
    return {"type": "keep", "take": take}


def _card_worth(card, held):
    """How much a card drawn now is worth: jokers most, then copies of held numbers."""
    if card == JOKER:
        return 2.0
    return 0.7 * held[card] + int(card) / 40


PILE_WORTH = 0.5  # an unknown card from the draw pile, on average


def _draw_score(state, held, command):
    picks = command["display"]
    score = sum(_card_worth(card, held) for card in picks)
    return score + PILE_WORTH * (state["draw"]["count"] - len(picks))


def _draw(view, seat):
    state = view["state"]
    held = Counter(state["hand"])
    best, best_score = None, None
    for command in view["legal"]:
        score = _draw_score(state, held, command)
        if best_score is None or score > best_score:
            best, best_score = command, score
    return best


def greedy(view, feed, rng):
    """The command this seat sends: the best row, every attack, the best cards to draw."""
    seat, state = view["seat"], view["state"]
    phase = state["phase"]
    if phase == "play":
        return _play(view, seat)
    if phase == "attack":
        return _attack(view)
    if phase == "answer":
        return _answer(view, seat)
    if phase == "keep":
        return _keep(view, seat)
    return _draw(view, seat)


def rank(view, feed, rng):
    """Every legal command, the most promising first, for the search to try in this
    order: greedy's choice, then rows (or draws) by the score greedy gives them; in the
    other phases, with a few commands each, the others in a random order."""
    seat, state, legal = view["seat"], view["state"], view["legal"]
    first = greedy(view, feed, rng)
    if state["phase"] == "play":
        scores = [_row_score(state, seat, c["cards"]) for c in legal]
    elif state["phase"] == "draw":
        held = Counter(state["hand"])
        scores = [_draw_score(state, held, c) for c in legal]
    else:
        rest = [c for c in legal if c != first]
        rng.shuffle(rest)
        return [first, *rest]
    order = sorted(range(len(legal)), key=lambda i: (-scores[i], rng.random()))
    return [first, *(legal[i] for i in order if legal[i] != first)]
