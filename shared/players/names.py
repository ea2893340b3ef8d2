"""A player's name: validated, never unique (two players may both be "ana").

A name is shown to other players in every view, so it must be plain text that cannot
disguise itself or the text around it: no control characters, no format characters
(the bidirectional overrides and isolates that reverse what follows, zero-width joiners
and spaces), no private-use, surrogate or unassigned code points, no line or paragraph
separators. Letters, marks, numbers, punctuation, symbols (emoji) and single inner
spaces are fine.
"""

import unicodedata

MIN_LENGTH, MAX_LENGTH = 1, 40  # code points, after normalisation
# Shown where an erased player's name was (views, inbox, replays, exports).
PLACEHOLDER = "deleted player"
_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible format character (such as a bidirectional override)",
    "Co": "a private-use character",
    "Cs": "a surrogate",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


# The rules above as a pattern, for the API's document (so clients and fuzzers know them):
# words of allowed characters, single spaces between them, outer spaces dropped. The
# class leaves out every Basic Multilingual Plane code point whose category is refused
# and every space (Zs); `checked` stays the judge. What the pattern cannot say: code
# points outside the BMP (written alike in no two regex dialects) and unassigned ones
# (which depend on the server's Unicode version). tests/api/test_schema_refusals.py checks
# it against `checked` for every BMP code point.
_NOT_IN_A_WORD = (
    r"\x00-\x20\x7F-\xA0\xAD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2"
    r"\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u2064\u2066-\u206F\u3000"
    r"\uE000-\uF8FF\uFEFF\uFFF9-\uFFFB"
)
PATTERN = rf"^ *[^{_NOT_IN_A_WORD}]+(?: [^{_NOT_IN_A_WORD}]+)* *$"


class BadName(ValueError):
    """Why a name was refused (the message says, for the client's user)."""


def checked(name):
    """`name` normalised (NFC, outer spaces dropped) when it is a valid player name;
    raises BadName saying why not."""
    if not isinstance(name, str):
        raise BadName("a name is a string")
    if len(name) > 4 * MAX_LENGTH:  # before normalising: bound the work on hostile input
        raise BadName(f"a name is at most {MAX_LENGTH} characters")
    name = unicodedata.normalize("NFC", name).strip(" ")
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise BadName(f"a name is {MIN_LENGTH} to {MAX_LENGTH} characters")
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category in _REFUSED:
            raise BadName(f"character {index + 1} is {_REFUSED[category]} (U+{ord(char):04X})")
        if category == "Zs" and (char != " " or name[index - 1] == " "):
            raise BadName("spaces in a name are single plain spaces")
    return name
