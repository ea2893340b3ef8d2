"""A JSON request body is checked once, before any schema reads it.

webargs parses bodies with the standard library, which fails with a 500 on a body
nested a few thousand deep (RecursionError) and lets a lone surrogate ("\\ud800"),
NaN or a 5,000-digit number through to code that cannot store them. orjson reads
JSON strictly (it refuses all of those, and never recurses in Python); what it
accepts and nests at most MAX_DEPTH deep the standard library reads safely too.
"""

import json
import re

from flask import g, request

from services.api.errors import ApiError
from shared import jsonutil

MAX_DEPTH = 32  # the deepest request the API documents nests 4 levels
MAX_BODY = 64 * 1024  # a full custom deck is ~500 bytes; anything near this is abuse


def check_json_body():
    """A before_request hook: refuse a JSON body that is not strict JSON or nests too
    deep (bad_request). Anything else, such as a missing body, is left to the route."""
    req = request._get_current_object()  # once: each use of the proxy looks it up again
    charset = req.mimetype_params.get("charset")
    if charset is not None and charset.lower() != "utf-8":
        raise ApiError("unsupported_media_type", f"bodies are UTF-8; charset={charset} is not read")
    if not req.is_json:
        return
    data = req.get_data(cache=True)  # over MAX_CONTENT_LENGTH: 413 here
    if not data.strip():
        return
    try:
        value = jsonutil.loads(data)
    except jsonutil.JSONDecodeError as error:
        raise ApiError("bad_request", f"the body is not valid JSON: {error}") from None
    if nests_deeper(value, MAX_DEPTH):
        raise ApiError("bad_request", f"the body nests deeper than {MAX_DEPTH} levels")
    refuse_duplicate_keys(data, value)
    g.json_body = value  # read once: a route takes it from here (parsed())


def parsed():
    """The request's JSON body as check_json_body read it; raises JSONDecodeError when
    it is not JSON (an empty body)."""
    if "json_body" in g:
        return g.json_body
    return jsonutil.loads(request.get_data())


class _Duplicate(Exception):
    pass


def _pairs(pairs):
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise _Duplicate(next(n for n in names if names.count(n) > 1))
    return dict(pairs)


# Every JSON string, and the colon after it when it is a member's name. Matching every
# string (not only names) keeps the scan in step: outside strings JSON has no quotes.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"[ \t\n\r]*(:?)')


def names_written(data):
    """How many member names the JSON text `data` writes."""
    return _STRING.findall(data).count(b":")


def duplicate_key(data, value):
    """The first name an object of the JSON `data` holds twice, or None; `value` is
    `data` as orjson read it. orjson keeps the last of two names silently, so `value`
    holds fewer names than `data` writes exactly when one is doubled: counting both is
    the cheap test on every request. Only then does the standard library's hook, which
    sees every pair, find the name (safe here: orjson has read `data` and its depth is
    bounded)."""
    if names_written(data) == names_written(jsonutil.dumps(value)):
        return None
    try:
        json.loads(data, object_pairs_hook=_pairs)
    except _Duplicate as found:
        return str(found)
    except RecursionError:  # deeper than Python recurses: refused as too deep anyway
        raise ApiError("bad_request", "the body nests too deep") from None
    return None


def refuse_duplicate_keys(data, value):
    """bad_request when an object in the JSON `data` (read by orjson as `value`) names a
    field twice: two spellings of one body ({"seat": 1, "seat": 2}) that parsers read
    differently."""
    name = duplicate_key(data, value)
    if name is not None:
        raise ApiError("bad_request", f"the body names the field {name!r} twice")


def nests_deeper(value, limit):
    """Whether lists and objects in `value` nest more than `limit` levels (no recursion)."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        if depth == limit:
            return True
        pending.extend((child, depth + 1) for child in item)
    return False
