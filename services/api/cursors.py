"""The opaque cursors of the API's paged lists: a position in the list, written so a
client keeps it as a token and cannot mistake one list's cursor for another's."""

import base64
import binascii

from services.api.errors import ApiError


def cursor(kind, offset):
    """The cursor of position `offset` in a list of `kind` (one letter a list)."""
    return base64.urlsafe_b64encode(f"{kind}{offset}".encode()).decode().rstrip("=")


def offset(kind, given):
    """The position a cursor of `kind` (from `cursor`) stands for, 0 for None; 400
    bad_cursor for anything else."""
    if given is None:
        return 0
    try:
        raw = base64.urlsafe_b64decode(given + "=" * (-len(given) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raw = ""
    if not (raw.startswith(kind) and raw[1:].isdigit() and len(raw) < 12):
        raise ApiError("bad_cursor", "the cursor is not one this server gave")
    return int(raw[1:])
