"""Fast JSON for state, events and views (orjson), with sorted keys so equal values
serialise to equal bytes."""

import orjson

_OPTIONS = orjson.OPT_SORT_KEYS


def dumps(value) -> bytes:
    return orjson.dumps(value, option=_OPTIONS)


loads = orjson.loads
JSONDecodeError = orjson.JSONDecodeError
