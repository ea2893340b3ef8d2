"""shared/bots/ismcts: the search answers with a legal command within its budget,
sampling included, deterministically on a fake clock."""

import random
import time

import pytest

from shared.bots import ismcts
from tests.bot_cases import CASE_PARAMS, TickClock, decision_points


def _point(case, seed="search"):
    return decision_points(case, seed, count=2)[-1]


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_the_search_answers_a_legal_command_within_its_budget(case):
    with case.installed():
        _, _, _, view, feed = _point(case)
        clock = TickClock(tick=0.001)
        command = ismcts.search(view, feed, random.Random(1), think_ms=60, clock=clock)
        assert command in view["legal"]
        assert clock.readings > 10  # it did search
        assert clock.now <= 0.060  # the last reading still within the 60 ms


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_sampling_counts_against_the_budget(case, monkeypatch):
    with case.installed():
        _, _, _, view, feed = _point(case)
        module, clock, samples = case.module(), TickClock(tick=0.0005), []
        real_sample = module.sample

        def slow_sample(v, f, rng):  # every world costs 10 ms of the fake clock
            samples.append(clock.now)
            clock.now += 0.010
            return real_sample(v, f, rng)

        monkeypatch.setattr(module, "sample", slow_sample)
        ismcts.search(view, feed, random.Random(3), think_ms=100, clock=clock)
        assert 1 <= len(samples) <= 9  # 85 ms of search: at most 9 worlds of 10 ms
        assert clock.now <= 0.100


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_on_a_fake_clock_the_search_is_deterministic_and_grows_with_its_budget(case, monkeypatch):
    with case.installed():
        _, _, _, view, feed = _point(case)
        module, worlds = case.module(), []
        real_sample = module.sample

        def counted(v, f, rng):
            worlds.append(1)
            return real_sample(v, f, rng)

        monkeypatch.setattr(module, "sample", counted)

        def decide(think_ms):
            worlds.clear()
            command = ismcts.search(view, feed, random.Random(7), think_ms, clock=TickClock())
            return command, len(worlds)

        first, again = decide(50), decide(50)
        assert first == again
        assert decide(400)[1] > first[1] > 0


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_without_time_for_one_play_out_the_search_answers_as_greedy(case):
    with case.installed():
        _, _, _, view, feed = _point(case)
        greedy = case.module().greedy(view, feed, random.Random(5))
        clock = TickClock(tick=1.0)  # the budget is gone at the second reading
        assert ismcts.search(view, feed, random.Random(5), think_ms=20, clock=clock) == greedy


def test_a_single_legal_command_is_sent_without_searching():
    clock = TickClock()
    view = {"game": "alebrijes", "seat": 0, "legal": [{"type": "exchange", "cards": []}]}
    assert ismcts.search(view, [], random.Random(0), clock=clock) == view["legal"][0]
    assert clock.readings == 0


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_without_a_clock_the_search_reads_the_real_one(case, monkeypatch):
    # The budget's proofs above run on a fake clock; this shows a search given none
    # reads DEFAULT_CLOCK, the real monotonic one. Its p99 in wall time is a measure of
    # the machine, not a test's: the tournament prints it (docs/bots.md).
    assert ismcts.DEFAULT_CLOCK is time.perf_counter
    with case.installed():
        _, _, _, view, feed = _point(case)
        clock = TickClock(tick=0.001)
        monkeypatch.setattr(ismcts, "DEFAULT_CLOCK", clock)
        assert ismcts.search(view, feed, random.Random(9), think_ms=40) in view["legal"]
        assert clock.readings > 10 and clock.now <= 0.040


def _search(seat):
    search = ismcts.Search.__new__(ismcts.Search)
    search.seat = seat
    return search


def test_the_reward_is_the_share_of_the_victory_shaped_by_the_scores_rank():
    shared_win = {"winners": [0, 1], "scores": [5, 5, 2]}
    lost = {"winners": [1], "scores": [3, 9, 1]}
    w = ismcts.SCORE_WEIGHT
    assert _search(0)._reward(shared_win) == pytest.approx((1 - w) * 0.5 + w * 0.75)
    assert _search(2)._reward(shared_win) == pytest.approx(0.0)
    assert _search(0)._reward(lost) == pytest.approx(w * 0.5)
    assert _search(1)._reward(lost) == pytest.approx(1.0)


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_the_cyclic_collector_waits_during_a_search_and_comes_back_after(case, monkeypatch):
    import gc

    with case.installed():
        _, _, _, view, feed = _point(case)
        module, during = case.module(), []
        real_sample = module.sample

        def watched(v, f, rng):
            during.append(gc.isenabled())
            return real_sample(v, f, rng)

        monkeypatch.setattr(module, "sample", watched)
        assert gc.isenabled()
        ismcts.search(view, feed, random.Random(4), think_ms=30, clock=TickClock())
        assert during and not any(during)
        assert gc.isenabled()


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_greedys_choice_stands_unless_another_command_beats_it_on_the_same_worlds(
    case, monkeypatch
):
    with case.installed():
        _, _, _, view, feed = _point(case)
        greedy = case.module().greedy(view, feed, random.Random(8))
        target = next(c for c in view["legal"] if c != greedy)
        monkeypatch.setattr(ismcts, "WIDENING", 100.0)  # every command from the first world
        worlds = []

        def play_out(search, world, command):
            worlds.append(id(world))
            return 1.0 if command == target else 0.5

        monkeypatch.setattr(ismcts.Search, "play_out", play_out)
        chosen = ismcts.search(view, feed, random.Random(8), think_ms=50, clock=TickClock())
        assert chosen == target and len(set(worlds)) >= ismcts.MIN_WORLDS
        # Every command tied with greedy's: greedy's choice stands.
        monkeypatch.setattr(ismcts.Search, "play_out", lambda search, world, command: 0.5)
        assert ismcts.search(view, feed, random.Random(8), 50, clock=TickClock()) == greedy


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_a_play_out_folds_in_place_on_its_own_copy_as_evolve_would(case, monkeypatch):
    from shared.games.common import clone

    with case.installed():
        _, _, _, view, feed = _point(case)
        module = case.module()
        world = module.sample(view, feed, random.Random(5))
        untouched = clone(world)
        budget = ismcts.Budget(TickClock(tick=0.0), 1000)
        rewards = {}
        for in_place in (True, False):
            monkeypatch.setattr(ismcts, "FOLD_IN_PLACE", in_place)
            search = ismcts.Search(view, random.Random(6), "greedy", budget)
            if in_place:  # the games of this change fold in place; others fall back
                expected = hasattr(search.rules, "evolve_in_place")
                assert (search.in_place is not None) == expected
            rewards[in_place] = [search.play_out(world, c) for c in view["legal"][:4]]
            assert world == untouched
        assert rewards[True] == rewards[False]


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_the_search_tries_the_commands_in_the_bot_modules_rank_order(case, monkeypatch):
    with case.installed():
        _, _, _, view, feed = _point(case)
        module = case.module()
        greedy = module.greedy(view, feed, random.Random(2))
        others = [c for c in view["legal"] if c != greedy][::-1]
        monkeypatch.setattr(module, "rank", lambda v, f, rng: [greedy, *others], raising=False)
        monkeypatch.setattr(ismcts, "WIDENING", 100.0)  # every command from the first world
        tried = []

        def play_out(search, world, command):
            tried.append(command)
            return 0.5

        monkeypatch.setattr(ismcts.Search, "play_out", play_out)
        ismcts.search(view, feed, random.Random(2), think_ms=20, clock=TickClock())
        assert tried[: len(view["legal"])] == [greedy, *others]


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_with_evaluate_a_play_out_ends_after_horizon_commands(case, monkeypatch):
    with case.installed():
        _, _, _, view, feed = _point(case)
        module = case.module()
        monkeypatch.setattr(module, "evaluate", lambda state, seat: 0.123, raising=False)
        monkeypatch.setattr(module, "HORIZON", 1, raising=False)
        world = module.sample(view, feed, random.Random(5))
        budget = ismcts.Budget(TickClock(tick=0.0), 1000)
        search = ismcts.Search(view, random.Random(6), "greedy", budget)
        steps = []
        real_step = search._step
        search._step = lambda state: steps.append(1) or real_step(state)
        reward = search.play_out(world, view["legal"][0])
        assert len(steps) == 1 and reward == 0.123  # one command after the seat's own
        monkeypatch.delattr(module, "evaluate")  # without it: played to the end
        search = ismcts.Search(view, random.Random(6), "greedy", budget)
        assert search.play_out(world, view["legal"][0]) != 0.123
