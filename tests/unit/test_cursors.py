"""services/api/cursors.py: a paged list's cursor gives its position back, and only
to the list it came from."""

import pytest

from services.api import cursors
from services.api.errors import ApiError


def test_a_cursor_gives_its_position_back_and_none_is_the_start():
    for position in (0, 1, 50, 10**9):
        assert cursors.offset("o", cursors.cursor("o", position)) == position
    assert cursors.offset("o", None) == 0


@pytest.mark.parametrize("given", ["", "!!", "ejEw", cursors.cursor("r", 10), "bw"])
def test_anything_but_this_lists_cursor_is_bad_cursor(given):
    with pytest.raises(ApiError) as refused:
        cursors.offset("o", given)
    assert refused.value.code == "bad_cursor"
