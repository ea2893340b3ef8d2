"""services/api/body.py's test for a name written twice: it counts the names a body
writes against the names orjson kept, and names the doubled one only when they differ.
Both halves are checked against the standard library reading every pair."""

import json

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from services.api.body import duplicate_key, names_written

# Names and strings full of what could put a scan out of step: quotes, backslashes,
# colons, escapes, non-ASCII.
TEXT = st.text(alphabet=st.sampled_from('ab":\\ \t{}[],é\u2028'), max_size=6)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


def read_pairs(data):
    """The standard library's reading of every pair: (how many names `data` writes,
    the names some object holds twice)."""
    written, doubled = [0], set()

    def hook(pairs):
        names = [name for name, _ in pairs]
        written[0] += len(names)
        doubled.update(n for n in names if names.count(n) > 1)
        return dict(pairs)

    json.loads(data, object_pairs_hook=hook)
    return written[0], doubled


@settings(max_examples=300, deadline=None)
@given(VALUES, st.booleans(), st.booleans())
def test_a_body_naming_each_field_once_is_counted_and_let_through(value, ascii, spaced):
    data = json.dumps(value, ensure_ascii=ascii, indent=1 if spaced else None).encode()
    assert names_written(data) == read_pairs(data)[0]  # the count every request pays
    assert duplicate_key(data, orjson.loads(data)) is None


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, VALUES, min_size=1, max_size=4), st.data())
def test_the_name_written_twice_is_the_one_named(value, data):
    name = data.draw(st.sampled_from(sorted(value)))
    written = json.dumps(value)
    # The name once more, spelled as json.dumps spells it, at the object's end.
    doubled = (written[:-1] + f", {json.dumps(name)}: 0}}").encode()
    assert read_pairs(doubled)[1] == {name}
    assert duplicate_key(doubled, orjson.loads(doubled)) == name


def test_a_name_spelled_with_an_escape_is_the_same_name():
    data = b'{"\\u0074ype": "play", "type": "pass"}'
    assert duplicate_key(data, orjson.loads(data)) == "type"
