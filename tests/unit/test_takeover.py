"""takeover_bot: the level that plays a seat after timeouts or a resignation."""

from shared import table

SEATS = [{"name": "a"}, {"name": "b"}]


def _opened(**options):
    return table.fold(table.create("g", "alebrijes", SEATS, {"seed": "s", **options}, "s"))


def test_a_timed_out_seat_is_taken_over_by_the_tables_level():
    current = _opened(zombie_after=1, takeover_bot="ismcts")
    events = table.time_out(current, table.to_act(current)[0])
    assert events[1] == {
        "type": "seat_taken_over",
        "seat": 0,
        "bot": "ismcts",
        "reason": "timeouts",
    }
    assert table.fold(events, current)["seats"][0]["bot"] == "ismcts"


def test_greedy_by_default_and_random_in_a_log_from_before_the_option():
    assert table.resign(_opened(), 1)[0]["bot"] == "greedy"
    created, *rest = table.create("g", "alebrijes", SEATS, {"seed": "s"}, "s")
    old = {k: v for k, v in created.items() if k != "takeover_bot"}
    assert table.resign(table.fold([old, *rest]), 1)[0]["bot"] == "random"
