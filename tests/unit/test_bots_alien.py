"""Alien bot knowledge: greedy and reflex always send a legal command, claims are only
ever right, and a sampled state is one the seat cannot tell from the true one."""

import random
from collections import Counter

import pytest

from shared import table
from shared.bots import ismcts
from shared.bots.games import alien as bot
from shared.bots.games.alien import play, sampling
from shared.games import alien
from shared.games.alien.scenarios import started
from tests.bot_positions import positions, seat_feed, seat_view

GAMES = 6  # seeded games per player count; each yields many positions


def random_policy(view, rng):
    return rng.choice(view["legal"])


def greedy_policy(view, rng):
    return bot.greedy(view, [], rng)


def every_position(game, players, policy, games=GAMES, options=None):
    for seed in range(games):
        yield from positions(game, players, seed, policy, options=options)


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (5, {}), (8, {}), (3, {"no_math": True})]
)
def test_greedy_and_reflex_send_only_legal_commands(players, options):
    checked = 0
    for policy in (random_policy, greedy_policy):
        for tbl, log in every_position("alien", players, policy, games=3, options=options):
            for seat in range(players):
                view = seat_view(tbl, len(log), seat)
                rng = random.Random(checked)
                answer = bot.reflex(view, seat_feed(tbl, log, seat), rng)
                assert answer is None or answer in view["legal"]
                assert answer is None or answer["type"] in alien.REFLEXES
                if seat in view["to_act"]:
                    assert bot.greedy(view, seat_feed(tbl, log, seat), rng) in view["legal"]
                    checked += 1
    assert checked > 300


def _view(state, seat):
    return {"seat": seat, "legal": alien.legal(state, seat), "state": alien.view(state, seat)}


OTHER = ["C79", "C89", "C69", "C78", "C47"]  # a hand that plays no part


def test_the_reflex_shouts_a_right_claim_and_stacks_in_a_window():
    # Seat 1 holds A6; the table card C15 shows 1 and 5, whose sum is 6.
    state = started([["C02", "C03", "C04", "C05", "C06"], ["A6", "C07", "C08", "A3", "H1"]], "C15")
    shout = bot.reflex(_view(state, 1), [], random.Random(1))
    assert shout == {"type": "claim", "card": "A6", "table": "C15"}
    for event in alien.decide(state, 1, shout):
        state = alien.evolve(state, event)
    assert bot.reflex(_view(state, 0), [], random.Random(1)) == {"type": "stack"}
    # The claimant itself has nothing to send.
    assert bot.reflex(_view(state, 1), [], random.Random(1)) is None


def test_the_reflex_never_claims_what_is_not_right():
    # A7 and A3 are neither 1+5 nor 5-1: no claim is worth the card it would cost.
    state = started([["C02", "C03", "C04", "C05", "C06"], ["A7", "A3", "C08", "C09", "H1"]], "C15")
    assert bot.reflex(_view(state, 1), [], random.Random(1)) is None


def test_greedy_claims_on_its_own_turn_before_anything_else():
    state = started([["A6", "A5", "C26", "C37", "H1"], OTHER], "C15")
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {
        "type": "claim",
        "card": "A6",
        "table": "C15",
    }


def test_greedy_captures_by_matching_before_laying_cards():
    state = started([["A5", "C26", "C37", "C48", "C29"], OTHER], "C15")
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {"type": "capture", "card": "A5"}


def test_greedy_lays_the_clue_card_that_leads_to_a_capture():
    # A8 in hand, table C13: C36 then C68 shows 8; C35 shows 3 + 5 = 8 at once.
    state = started([["A8", "C26", "C35", "C36", "C68"], OTHER], "C13")
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {"type": "play", "card": "C35"}
    state = started([["A8", "C26", "C36", "C49", "C68"], OTHER], "C13", no_math=True)
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {"type": "play", "card": "C36"}


def test_greedy_lays_its_whole_hand_for_the_empty_hand_bonus():
    # No capture in reach (no_math), but C01 -> C12 -> C23 -> C34 empties the hand.
    state = started([["C12", "C34", "C23", "C01", "H3"], OTHER], "C05", no_math=True)
    state = {**state, "prisons": [[], ["A9"]]}
    assert bot.greedy(_view(state, 0), [], random.Random(1))["card"] == "H3"
    state = started([["C12", "C34", "C23", "C01", "C45"], OTHER], "C05", no_math=True)
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {"type": "play", "card": "C01"}


def test_greedy_steals_from_the_fullest_prison():
    state = started(
        [["H3", "C26", "C37", "C48", "C29"], OTHER, ["C57", "C46", "C56", "C19", "C18"]], "C05"
    )
    state = {**state, "prisons": [[], ["A1"], ["A2", "A3"]]}
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {
        "type": "hunt",
        "card": "H3",
        "target": 2,
        "alien": 3,
    }


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {}), (3, {"no_math": True})]
)
def test_a_sample_is_a_state_the_seat_cannot_tell_from_the_true_one(players, options):
    checked = varied = 0
    for policy in (random_policy, greedy_policy):
        positions = every_position("alien", players, policy, games=3, options=options)
        for index, (tbl, log) in enumerate(positions):
            if index % 3:
                continue
            for seat in range(players):
                view = seat_view(tbl, len(log), seat)
                feed = seat_feed(tbl, log, seat)
                hands = []
                for fed in (feed, []):
                    for k in range(2):
                        state = bot.sample(view, fed, random.Random(k))
                        assert alien.view(state, seat) == view["state"]
                        assert alien.legal(state, seat) == view["legal"]
                        assert alien.to_act(state) == view["to_act"]
                        hands.append(state["hands"])
                        checked += 1
                varied += len({repr(h) for h in hands}) > 1
    assert checked > 500 and varied > checked // 8


def test_what_the_feed_shows_is_true_and_the_sample_keeps_it():
    """The memory built from a seat's feed (CLUE cards under the table card, used hunters,
    cards seen going into another hand, what a reshuffled pile was made of) is true of the
    real table, and every sample places those cards where the memory says."""
    known_cards = reshuffles = 0
    for seed in range(8):
        for tbl, log in positions("alien", 3, seed, random_policy):
            rules = tbl["rules"]
            for seat in range(3):
                view, feed = seat_view(tbl, len(log), seat), seat_feed(tbl, log, seat)
                memory = sampling.memory_of(view, feed)
                assert memory is not None
                assert memory.played == rules["played"]
                assert memory.hunters == rules["hunters"]
                state = bot.sample(view, feed, random.Random(seed))
                assert state["played"] == rules["played"]
                for other in range(3):
                    if other != seat:
                        assert not memory.known[other] - Counter(rules["hands"][other])
                        assert not memory.known[other] - Counter(state["hands"][other])
                        known_cards += sum(memory.known[other].values())
                if memory.pile_from is not None:
                    reshuffles += 1
                    assert not Counter(rules["draw_pile"]) - memory.pile_from
                    assert not Counter(state["draw_pile"]) - memory.pile_from
    assert known_cards > 50 and reshuffles > 10


def test_the_search_takes_a_bot_modules_own_confidence():
    """ismcts._best: a gain of 1.15 standard errors replaces greedy's choice at the
    search's default CONFIDENCE, not at Alien's own."""
    gains = [("other", [1.0, 0.0, 0.1])]  # mean 0.367, standard error 0.318
    assert ismcts.CONFIDENCE < 1.15 < bot.CONFIDENCE
    assert ismcts._best("greedy's", gains, ismcts.CONFIDENCE) == "other"
    assert ismcts._best("greedy's", gains, bot.CONFIDENCE) == "greedy's"


def test_the_search_takes_a_bot_modules_own_least_gain():
    """ismcts._best: a gain many standard errors above zero but under Alien's MIN_GAIN
    leaves greedy's choice (its evaluate misjudges small gains); a larger one replaces it."""
    small = [("other", [0.02, 0.025, 0.022, 0.025])]
    large = [("other", [0.09, 0.1, 0.08, 0.1])]
    assert 0.02 < bot.MIN_GAIN < 0.05
    assert ismcts._best("greedy's", small, bot.CONFIDENCE) == "other"
    assert ismcts._best("greedy's", small, bot.CONFIDENCE, bot.MIN_GAIN) == "greedy's"
    assert ismcts._best("greedy's", large, bot.CONFIDENCE, bot.MIN_GAIN) == "other"


def _fit(slots, cards):
    """Whether `cards` can be the unseen cards `slots` describe: each card given to a
    slot that does not lack it (a bipartite matching, by augmenting paths)."""
    if len(slots) != len(cards):
        return False
    holder = {}  # slot -> card index

    def place(card, tried):
        for slot, lacks in enumerate(slots):
            if cards[card] in lacks or slot in tried:
                continue
            tried.add(slot)
            if slot not in holder or place(holder[slot], tried):
                holder[slot] = card
                return True
        return False

    return all(place(card, set()) for card in range(len(cards)))


def _unseen(hand, known):
    return list((Counter(hand) - known).elements())


@pytest.mark.parametrize("players", [2, 3])
def test_what_greedy_play_reveals_a_seat_lacks_is_true_and_the_sample_keeps_it(players):
    """Among greedy players who shout every right claim at once (as the tournament
    plays them), what a seat's feed says each unseen card in another hand is not (the
    seat did not capture, steal or lay a card, nobody claimed) is true of the real
    hands, and a trusted sample deals the hands so too."""
    from services.tournament import Game  # the tournament's in-process table

    inferred = clues = 0
    for seed in range(4):
        game = Game("alien", ["greedy"] * players, f"lacks-{seed}")
        for _ in range(300):
            if not game.step():
                break
            hands = game.table["rules"]["hands"]
            for seat in range(players):
                view, feed = game.view(seat), game.feeds[seat]
                memory = sampling.memory_of(view, feed)
                assert memory is not None
                rng = random.Random(seed)
                rng.randrange = lambda n: 1  # never the untrusted world
                state = bot.sample(view, feed, rng)
                assert alien.view(state, seat) == view["state"]
                for other in range(players):
                    if other == seat:
                        continue
                    slots, known = memory.slots[other], memory.known[other]
                    assert _fit(slots, _unseen(hands[other], known))
                    assert _fit(slots, _unseen(state["hands"][other], known))
                    inferred += sum(len(slot) for slot in slots)
                    clues += sum(1 for slot in slots for card in slot if card[0] == "C")
    assert inferred > 2000 and clues > 500


def test_a_seat_that_ends_its_turn_holds_no_card_it_could_have_laid():
    """Greedy ends a turn only with no CLUE card to lay, no bounty hunter to use and no
    capture: the cards kept then are none of those, the cards drawn after may be."""
    memory = sampling._Memory(0, 3)
    memory.fold({"type": "dealt", "hands": [["C01"] * 5, 5, 5], "draw_pile": 55})
    memory.fold({"type": "turned_over", "card": "C38", "returned_to": None})
    memory.prisons[2] = ["A7"]  # an alien H2 or H3 could take
    memory.fold({"type": "ended_turn", "seat": 1})
    (lacks,) = {frozenset(slot) for slot in memory.slots[1]}
    assert {"A3", "A8", "C38", "C03", "C89", "C13", "H1", "H2", "H3"} <= lacks
    assert "C12" not in lacks and "A5" not in lacks  # C38 is not claimed before it leaves
    memory.fold({"type": "drew", "seat": 1, "cards": 2})
    assert [len(slot) for slot in memory.slots[1]] == [len(lacks)] * 5 + [0, 0]
    # On its next turn it lays C36 (a card drawn since), then captures A3, which every
    # unseen card lacked (3 was on both table cards): the reading was wrong (not a
    # greedy player), and what each card lacked is forgotten.
    memory.fold({"type": "turn_began", "seat": 1})
    memory.fold({"type": "played", "seat": 1, "card": "C36"})
    assert len(memory.slots[1]) == 6 and "C36" not in memory.lacks[1]
    assert sum(not slot & {"C38", "C89"} for slot in memory.slots[1]) == 1
    memory.fold({"type": "captured", "seat": 1, "card": "A3"})
    assert len(memory.slots[1]) == 5 and memory.lacks[1] == set()
    assert memory.lacks[2] == {"A5"} and memory.lacks[0] == set()  # C38 left unclaimed


def test_a_sample_deals_an_unseen_card_none_of_what_it_lacks():
    """Where a rival's unseen cards lack a dozen cards or more (it ended a turn with
    cards it could not lay), every trusted sample deals it cards that fit, and the
    untrusted one deals at random."""
    from services.tournament import Game

    game = Game("alien", ["greedy", "greedy"], "ends")
    for _ in range(400):
        view, feed = game.view(0), game.feeds[0]
        memory = sampling.memory_of(view, feed)
        if view["state"]["turn"] == 0 and max(map(len, memory.slots[1]), default=0) > 12:
            break
        assert game.step()
    unfit = 0
    for k in range(20):
        for world in (0, 1):  # randrange 0: the untrusted world
            rng = random.Random(k)
            rng.randrange = lambda n, world=world: world
            hand = bot.sample(view, feed, rng)["hands"][1]
            fits = _fit(memory.slots[1], _unseen(hand, memory.known[1]))
            assert fits or not world
            unfit += not fits
    assert unfit > 0


def test_a_seat_that_did_not_capture_is_dealt_no_card_it_could_have_captured_with():
    """The memory reads a pass on a table card showing aliens a, b as holding neither
    CAPTURED card (nor a CLUE card to lay); a card the seat then draws unseen may be one."""
    memory = sampling._Memory(0, 2)
    memory.fold({"type": "dealt", "hands": [["C01", "C02", "C04", "C05", "C06"], 5]})
    memory.table = "C38"
    memory.fold({"type": "passed", "seat": 1})
    assert {"A3", "A8", "C13", "C89"} <= memory.lacks[1]
    assert memory.lacks[0] == set()  # the seat's own hand is in its view
    memory.fold({"type": "drew", "seat": 1, "cards": 1})
    assert memory.lacks[1] == set()
    memory.fold({"type": "turned_over", "card": "C12", "returned_to": None})
    assert memory.lacks[1] == {"A5"}  # C38 left unclaimed: 8 - 3 (8 + 3 is no alien)
    memory.fold({"type": "claimed", "seat": 0, "card": "A3", "table": "C12"})
    memory.fold({"type": "played", "seat": 0, "card": "C14"})  # C12 was claimed
    assert memory.lacks[1] == {"A5"}
    memory.fold({"type": "played", "seat": 0, "card": "C46"})  # C14 left unclaimed
    assert memory.lacks[1] == {"A5", "A3"}  # 4 - 1 (1 + 4 is A5 already)


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (3, {"no_math": True})])
def test_reflex_commands_are_the_reflexes_among_the_legal_commands(players, options):
    """The search's quick look at a seat's reflexes lists exactly what filtering legal
    would, in the same order, at every step of random and greedy games."""
    reflexes = 0
    for policy in (random_policy, greedy_policy):
        for tbl, _ in every_position("alien", players, policy, games=2, options=options):
            state = tbl["rules"]
            for seat in range(players):
                quick = alien.reflex_commands(state, seat)
                legal = alien.legal(state, seat)
                assert quick == [c for c in legal if c["type"] in alien.REFLEXES]
                reflexes += len(quick)
    # no_math: no claims, so no windows and no stacks
    assert reflexes == 0 if options.get("no_math") else reflexes > 20
    assert alien.reflex_commands(alien.initial({"players": 2, "seed": "s"}), 0) == []


def test_a_play_out_with_reflex_commands_ends_as_with_the_filtered_legal():
    """The search's play-outs give the same rewards whether a seat's reflexes come from
    reflex_commands or from filtering legal (whole play-outs, the same random numbers)."""
    from services.tournament import Game

    compared = 0
    for seed in range(3):
        game = Game("alien", ["greedy", "greedy", "greedy"], f"quick-{seed}")
        for step in range(200):
            seat = game.turn_seat()
            if seat is not None and step % 4 == 0 and len(game.view(seat)["legal"]) > 1:
                view, feed = game.view(seat), game.feeds[seat]
                world = bot.sample(view, feed, random.Random(step))
                rewards = []
                for quick in (True, False):
                    search = ismcts.Search(view, random.Random(step), "greedy", _no_deadline())
                    search.evaluate, search.horizon = None, ismcts.MAX_STEPS
                    if not quick:
                        search.reflex_commands = search._reflex_legal
                    rewards.append([search.play_out(world, c) for c in view["legal"]])
                assert rewards[0] == rewards[1]
                compared += 1
            if not game.step():
                break
    assert compared > 10


def _no_deadline():
    return ismcts.Budget(lambda: 0.0, 1000)


def test_the_standing_is_each_seats_chance_and_grows_with_what_it_holds():
    """evaluate: the seats' chances add up to 1; an alien more in prison, a bounty
    hunter in place of a CLUE card, or a CAPTURED card in place of one raises a seat's."""
    from shared.bots.games.alien import standing

    hands = [["C02", "C03", "C04", "C05", "C06"], ["C07", "C08", "C09", "C13", "C14"]]
    state = started(hands, "C15")
    assert sum(standing.evaluate(state, seat) for seat in (0, 1)) == pytest.approx(1.0)
    base = standing.evaluate(state, 1)
    for change in ("prison", "H3", "A9"):
        better = {**state, "hands": [list(h) for h in state["hands"]]}
        better["prisons"] = [list(p) for p in state["prisons"]]
        if change == "prison":
            better["prisons"][1].append("A7")
        else:
            better["hands"][1][0] = change
        assert standing.evaluate(better, 1) > base
        assert standing.evaluate(better, 0) < standing.evaluate(state, 0)
    won = {**state, "winner": 0}
    assert (standing.evaluate(won, 0), standing.evaluate(won, 1)) == (1.0, 0.0)


class _Watch:
    """A play-out's search with its evaluate and steps recorded."""

    def __init__(self, search):
        self.read, self.turns = [], []
        self.step = search._step
        search.evaluate, search._step = self.evaluate, self._step

    def evaluate(self, state, seat):
        self.read.append((seat, dict(state)))
        return 0.5

    def _step(self, state):
        self.turns.append(state["turn"])
        return self.step(state)


@pytest.mark.parametrize("players", [2, 3])
def test_a_play_out_is_read_when_the_seats_next_turn_begins(players):
    """With `cut`, a play-out from the seat's end of turn stops at the start of its
    next turn, every other seat having played once, and is read by evaluate."""
    from services.tournament import Game

    cuts = 0
    game = Game("alien", ["greedy"] * players, f"cut-{players}")
    for step in range(80):
        seat = game.turn_seat()
        if seat is not None and step % 3 == 0:
            view, feed = game.view(seat), game.feeds[seat]
            ending = next(c for c in view["legal"] if c["type"] in ("end_turn", "pass"))
            search = ismcts.Search(view, random.Random(step), "greedy", _no_deadline())
            search.horizon = ismcts.MAX_STEPS
            watch = _Watch(search)
            reward = search.play_out(bot.sample(view, feed, random.Random(step)), ending)
            if watch.read:  # else the game ended first, and its result was the reward
                ((reader, state),) = watch.read
                assert reward == 0.5 and reader == seat
                assert state["turn"] == seat and not state["acted"] and state["window"] is None
                others = {(seat + k) % players for k in range(1, players)}
                assert set(watch.turns) == others  # each played, the seat not yet again
                cuts += 1
        if not game.step():
            break
    assert cuts >= 3


# --- greedy's knobs (play.Policy), variants of greedy screened against it

OTHER2 = ["C57", "C46", "C56", "C19", "C18"]  # a third hand that plays no part


def _policy(state, **knobs):
    return play.Policy(**knobs).greedy(_view(state, 0), [], random.Random(1))


def test_policy_with_no_knob_turned_is_greedy():
    for tbl, log in every_position("alien", 3, greedy_policy, games=2):
        for seat in table.to_act(tbl):
            view, feed = seat_view(tbl, len(log), seat), seat_feed(tbl, log, seat)
            default = play.Policy().greedy(view, feed, random.Random(seat))
            assert default == bot.greedy(view, feed, random.Random(seat))


KNOBS = [
    {"claim_cost": 1.0},
    {"plan_depth": 1},
    {"plan_depth": 5},
    {"h1_last": True},
    {"h1_leader": True},
    {"claim_over_match": True},
    {"h2_now_only": True},
]


@pytest.mark.parametrize("knobs", KNOBS)
def test_every_knob_sends_only_legal_commands(knobs):
    policy = play.Policy(**knobs)
    checked = 0
    for tbl, log in every_position("alien", 3, greedy_policy, games=2):
        for seat in table.to_act(tbl):
            view = seat_view(tbl, len(log), seat)
            assert (
                policy.greedy(view, seat_feed(tbl, log, seat), random.Random(seat)) in view["legal"]
            )
            checked += 1
    assert checked > 50


def test_a_claim_cost_passes_rather_than_open_claims_on_live_aliens():
    # Every CLUE card in reach shows a sum or difference no prison or hand of mine holds.
    state = started([["A9", "C12", "C13", "C23", "C34"], OTHER], "C15")
    assert _policy(state)["type"] == "play"
    assert _policy(state, claim_cost=4.0) == {"type": "pass"}


def test_a_shallower_capture_plan_lays_the_longest_chain_instead():
    # A8: C36 then C68 shows 8 (two cards); C12, C24, C45 is the longest chain.
    state = started([["A8", "C36", "C68", "C12", "C24"], OTHER], "C13", no_math=True)
    state = {**state, "hands": [[*state["hands"][0], "C45"], state["hands"][1]]}
    assert _policy(state) == {"type": "play", "card": "C36"}
    assert _policy(state, plan_depth=1) == {"type": "play", "card": "C12"}


def test_h1_last_lays_the_chain_before_the_first_bounty_hunter():
    state = started([["H1", "C12", "C26", "C37", "C48"], OTHER, OTHER2], "C15")
    assert _policy(state)["card"] == "H1"
    assert _policy(state, h1_last=True) == {"type": "play", "card": "C12"}


def test_h1_leader_takes_from_the_fullest_prison_rather_than_the_fullest_hand():
    state = started([["H1", "C12", "C26", "C37", "C48"], OTHER, OTHER2], "C15")
    hands = [state["hands"][0], [*state["hands"][1], "C03"], state["hands"][2]]
    state = {**state, "prisons": [[], [], ["A2"]], "hands": hands}
    assert _policy(state) == {"type": "hunt", "card": "H1", "target": 1}
    assert _policy(state, h1_leader=True) == {"type": "hunt", "card": "H1", "target": 2}


def test_claim_over_match_lays_the_card_that_makes_the_capture_a_claim():
    # A5 matches C15; laid on it, C05 shows 0 + 5 = 5: a claim, which also wins a card.
    state = started([["A5", "C05", "C26", "C37", "C48"], OTHER], "C15")
    assert _policy(state) == {"type": "capture", "card": "A5"}
    assert _policy(state, claim_over_match=True) == {"type": "play", "card": "C05"}


def test_h2_now_only_keeps_h2_for_an_alien_it_cannot_capture_at_once():
    state = started([["H2", "C26", "C37", "C48", "C29"], OTHER], "C15")
    state = {**state, "prisons": [[], ["A9"]]}
    assert _policy(state)["card"] == "H2"
    assert _policy(state, h2_now_only=True) == {"type": "pass"}
