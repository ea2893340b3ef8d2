"""The matching rules (shared/matchmaking/matching.py), pure: who is seated with whom."""

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.matchmaking import matching
from shared.matchmaking.matching import groups, window

NOW = 1_000_000_000


def ticket(n, waited, players=(2, 2), rating=None, abandoner=False, bots=None, player=None):
    return {
        "id": f"t{n}",
        "player": player or f"p{n}",
        "opened_at": NOW - int(waited * 1000),
        "players": list(players),
        "rating": rating,
        "abandoner": abandoner,
        "bots": bots,
    }


def seated(found):
    return [sorted(t["id"] for t in g.tickets) for g in found]


def test_the_longest_waiting_are_matched_first():
    found = groups([ticket(1, 5), ticket(2, 30), ticket(3, 10)], NOW)
    assert seated(found) == [["t2", "t3"]]


def test_counts_must_overlap_and_a_full_table_starts_at_once():
    assert groups([ticket(1, 1, (2, 2)), ticket(2, 1, (3, 4))], NOW) == []
    four = [ticket(n, 1, (3, 4)) for n in range(4)]
    assert seated(groups(four, NOW)) == [["t0", "t1", "t2", "t3"]]
    mixed = [ticket(1, 1, (2, 4)), ticket(2, 1, (3, 4)), ticket(3, 1, (2, 3))]
    assert seated(groups(mixed, NOW)) == [["t1", "t2", "t3"]]  # 3 is every one's largest


def test_a_table_short_of_its_largest_count_waits_a_moment_for_more():
    three = [ticket(n, 1, (3, 4)) for n in range(3)]
    assert groups(three, NOW) == []
    three = [ticket(n, matching.GATHER_SECONDS, (3, 4)) for n in range(3)]
    assert seated(groups(three, NOW)) == [["t0", "t1", "t2"]]


def test_ratings_match_within_a_window_that_widens_with_waiting():
    assert window(0) == 50 and window(10) == 150 and window(1000) == 1000
    far = [ticket(1, 0, rating=1000), ticket(2, 0, rating=1200)]
    assert groups(far, NOW) == []
    waited = [ticket(1, 15, rating=1000), ticket(2, 0, rating=1200)]  # window(15) = 200
    assert seated(groups(waited, NOW)) == [["t1", "t2"]]
    # Within the window, the longest-waiting comes first, not the closest.
    three = [ticket(1, 20, rating=1000), ticket(2, 10, rating=1240), ticket(3, 1, rating=1001)]
    assert seated(groups(three, NOW)) == [["t1", "t2"]]
    # No rating: anyone.
    assert seated(groups([ticket(1, 0, rating=1000), ticket(2, 0)], NOW)) == [["t1", "t2"]]


def test_abandoners_match_among_themselves_first():
    tickets = [
        ticket(1, 3),
        ticket(2, 2, abandoner=True),
        ticket(3, 1),
        ticket(4, 0, abandoner=True),
    ]
    assert seated(groups(tickets, NOW)) == [["t1", "t3"], ["t2", "t4"]]
    # Soft: alone among others, an abandoner is matched once someone waited long enough.
    lonely = [ticket(1, 1), ticket(2, 0, abandoner=True)]
    assert groups(lonely, NOW) == []
    lonely = [ticket(1, matching.ABANDONER_SECONDS), ticket(2, 0, abandoner=True)]
    assert seated(groups(lonely, NOW)) == [["t1", "t2"]]


def test_bots_complete_a_short_table_once_the_anchor_waited_long_enough():
    bots = {"after_seconds": 30, "level": None}
    assert groups([ticket(1, 29, (3, 4), bots=bots)], NOW) == []
    (group,) = groups([ticket(1, 30, (3, 4), bots=bots), ticket(2, 1, (3, 4))], NOW)
    assert [t["id"] for t in group.tickets] == ["t1"]  # t2 asked for no bots
    assert group.bots == ["greedy", "greedy"]
    strong = groups([ticket(1, 30, bots=bots, rating=1400)], NOW)[0]
    assert strong.bots == ["ismcts"]
    chosen = groups([ticket(1, 30, bots={"after_seconds": 30, "level": "random"})], NOW)[0]
    assert chosen.bots == ["random"]


def test_one_player_is_never_seated_twice_at_one_table():
    same = [ticket(1, 9, player="ana"), ticket(2, 8, player="ana"), ticket(3, 1)]
    assert seated(groups(same, NOW)) == [["t1", "t3"]]


TICKETS = st.lists(
    st.tuples(
        st.integers(0, 60),  # seconds waited
        st.sampled_from([(2, 2), (2, 3), (3, 4), (2, 5), (4, 4)]),
        st.one_of(st.none(), st.integers(800, 1400)),
        st.booleans(),
        st.one_of(st.none(), st.integers(0, 60)),
        st.integers(0, 12),  # the player
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(TICKETS)
def test_every_group_fits_every_member_and_seats_each_ticket_once(specs):
    tickets = [
        ticket(n, w, c, r, a, None if b is None else {"after_seconds": b}, f"p{p}")
        for n, (w, c, r, a, b, p) in enumerate(specs)
    ]
    found = groups(tickets, NOW)
    ids = [t["id"] for g in found for t in g.tickets]
    assert len(ids) == len(set(ids))
    for group in found:
        size = len(group.tickets) + len(group.bots)
        assert all(t["players"][0] <= size <= t["players"][1] for t in group.tickets)
        assert len({t["player"] for t in group.tickets}) == len(group.tickets)
        assert not group.bots or all(t["bots"] for t in group.tickets)
