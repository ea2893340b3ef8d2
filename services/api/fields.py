"""Marshmallow fields the OpenAPI document needs beyond the stock ones, and the apispec
attribute functions that render them so client generators can type every value.

Generators (openapi-python-client, openapi-generator, openapi-typescript) pick the
class of a union member by its discriminator or by trying each member in turn; both
work only when every member carries a one-valued `type` (or `game`) tag, which is why
unions here are always `oneOf` plus a `discriminator` with an explicit mapping. The
document is OpenAPI 3.1, so a nullable value is `oneOf: [..., {type: "null"}]`, which
every generator above types as "X or None" (3.0's `nullable` next to a `$ref` is not).

Request bodies get strict fields: JSON has types, so "3" is not a number and 2.5 not a
count.
"""

import re
import unicodedata

from marshmallow import ValidationError, fields, validate

# The fields a game's contract is written with live beside the games (shared/games/schema.py).
from shared.games.schema import INT64, Alternatives, Count, Flag, Seconds  # noqa: F401

_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")


class QueryInteger(fields.Integer):
    """A whole number in a query string, written one way: ASCII digits only (int()
    would also read "+5", " 5" and Arabic-Indic digits)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not _DIGITS.fullmatch(value):
            raise ValidationError("a whole number written in ASCII digits (0-9) only")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryNumber(fields.Float):
    """A number of seconds in a query string: ASCII digits, maybe a decimal point."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not _DECIMAL.fullmatch(value):
            raise ValidationError("a number written in ASCII digits (0-9, maybe one '.')")
        return super()._deserialize(value, attr, data, **kwargs)


class Union(fields.Raw):
    """A value that is one of several component schemas, told apart by the one-valued
    property `discriminator` (e.g. a game's commands by "type", views by "game"). It is
    documented as its own component `name`; validation happens elsewhere, with the
    member the tag names."""

    def __init__(self, name, members, discriminator="type", **kwargs):
        super().__init__(**kwargs)
        self.union_name = name
        self.members = members  # {tag: marshmallow Schema class}
        self.discriminator = discriminator


def union2properties(self, field, **kwargs):
    """apispec attribute function: a Union becomes a $ref to its own oneOf component."""
    if not isinstance(field, Union):
        return {}
    components = self.spec.components
    if field.union_name not in components.schemas:
        refs = {tag: self.resolve_nested_schema(s)["$ref"] for tag, s in field.members.items()}
        components.schema(
            field.union_name,
            component={
                "oneOf": [{"$ref": ref} for ref in dict.fromkeys(refs.values())],
                "discriminator": {"propertyName": field.discriminator, "mapping": refs},
            },
        )
    return _nullable(field, [{"$ref": f"#/components/schemas/{field.union_name}"}])


def alternatives2properties(self, field, **kwargs):
    if not isinstance(field, Alternatives):
        return {}
    if field.component is None:
        return _nullable(field, [dict(a) for a in field.alternatives])
    if field.component not in self.spec.components.schemas:
        alternatives = [dict(a) for a in field.alternatives]
        self.spec.components.schema(field.component, component={"oneOf": alternatives})
    return _nullable(field, [{"$ref": f"#/components/schemas/{field.component}"}])


def _nullable(field, alternatives):
    """OpenAPI 3.1: a nullable value is one of its alternatives or JSON null."""
    if field.allow_none:
        return {"oneOf": [*alternatives, {"type": "null"}]}
    return alternatives[0] if len(alternatives) == 1 else {"oneOf": alternatives}


INT64_RANGE = (-(2**63), 2**63 - 1)


class Seed(fields.Raw):
    """An integer (64 bits) or a string, kept as sent: a seed of 7 comes back as 7, and
    makes the same shuffles as "7" (the rules read its decimal string)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValidationError("a seed is an integer or a string")
        if isinstance(value, int) and not INT64_RANGE[0] <= value <= INT64_RANGE[1]:
            raise ValidationError("a seed integer fits in 64 bits (or send it as a string)")
        if isinstance(value, str) and not 0 < len(value) <= 128:
            raise ValidationError("a seed string has 1 to 128 characters")
        if isinstance(value, str):
            check_printable(value)
        return value


def seed2properties(self, field, **kwargs):
    """Inline, not a component: openapi-generator's Java makes a `$ref` beside null a
    non-nullable class, which then refuses a running game's null seed."""
    if isinstance(field, Seed):
        return _nullable(field, [INT64, {"type": "string", "minLength": 1, "maxLength": 128}])
    return {}


# Control characters (NUL, newlines, escapes...) and lone surrogates: no name shows
# them, and a lone surrogate cannot even be written as UTF-8.
_UNPRINTABLE = ("Cc", "Cs")


def check_printable(text):
    if any(unicodedata.category(c) in _UNPRINTABLE for c in text):
        raise ValidationError("control characters and lone surrogates are not allowed")


class Text(fields.String):
    """A string people read, such as a player's name: no control characters."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        check_printable(text)
        return text


# Java's and Kotlin's `Int`, Swift's `Int32`: an integer without a format is 32 bits.
INT32_MAX = 2**31 - 1
MOST_SEATS = 8


def int642properties(self, field, **kwargs):
    """apispec attribute function: an integer that may exceed 32 bits says `int64`,
    so that every generator gives it a 64-bit type; one whose documented maximum fits
    in 32 bits (a count of rounds, a wait in seconds) says `int32`."""
    if not isinstance(field, fields.Integer):
        return {}
    highest = [v.max for v in field.validators if isinstance(v, validate.Range) and v.max]
    if highest and min(highest) <= INT32_MAX:
        return {"format": "int32"}
    return {"format": "int64"}


def nullable_enum2properties(self, field, ret, **kwargs):
    """apispec attribute function: a nullable choice is one of an enum of strings or
    JSON null, not a `[string, null]` type whose enum holds null, which generators
    split into one class per type (openapi-python-client made three identical ones)."""
    enum = ret.get("enum")
    if not (field.allow_none and enum and None in enum and "string" in ret.get("type", ())):
        return {}
    del ret["type"], ret["enum"]
    choices = [value for value in enum if value is not None]
    return {"oneOf": [{"type": "string", "enum": choices}, {"type": "null"}]}


def seat_parameter(converter):
    """A path's `<int:...>` (a seat number: a table has at most 8) as an OpenAPI
    parameter schema."""
    return {"type": "integer", "format": "int32", "minimum": 0, "maximum": MOST_SEATS - 1}


ATTRIBUTE_FUNCTIONS = (
    union2properties,
    alternatives2properties,
    seed2properties,
    int642properties,
    nullable_enum2properties,
)
