"""Marshmallow fields the OpenAPI document needs beyond the stock ones, and strict
ones for request bodies: JSON has types, so "3" is not a number and 2.5 not a count."""

import unicodedata

from marshmallow import ValidationError, fields


class AnyOf(fields.Raw):
    """A value documented as one of several component schemas (a game's commands or
    states). Validation happens with the game's own schema once the game is known."""

    def __init__(self, *schemas, **kwargs):
        super().__init__(**kwargs)
        self.schemas = schemas


def anyof2properties(self, field, **kwargs):
    """apispec attribute function: render AnyOf as `anyOf` of the schemas' refs."""
    if isinstance(field, AnyOf):
        return {"anyOf": [self.resolve_nested_schema(s) for s in field.schemas]}
    return {}


class Seed(fields.Raw):
    """An integer or a string."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValidationError("a seed is an integer or a string")
        if isinstance(value, str) and not 0 < len(value) <= 128:
            raise ValidationError("a seed string has 1 to 128 characters")
        if isinstance(value, str):
            check_printable(value)
        return str(value)


def seed2properties(self, field, **kwargs):
    if isinstance(field, Seed):
        return {
            "oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 128}]
        }
    return {}


class Count(fields.Integer):
    """A JSON integer: not "3", not 2.5, not true."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)


class Flag(fields.Boolean):
    """A JSON true or false: not "yes", not 1."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Seconds(fields.Float):
    """A number of seconds: a JSON number, not a string; an integer stays an integer
    (5, not 5.0); no NaN or infinity."""

    def _validated(self, value):
        if isinstance(value, str):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)

    def _format_num(self, value):
        if isinstance(value, int):
            return value
        return super()._format_num(value)


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
