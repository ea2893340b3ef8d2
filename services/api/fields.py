"""Marshmallow fields the OpenAPI document needs beyond the stock ones."""

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
        return str(value)


def seed2properties(self, field, **kwargs):
    if isinstance(field, Seed):
        return {
            "oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 128}]
        }
    return {}


class Seconds(fields.Float):
    """A number of seconds: an integer stays an integer (5, not 5.0); no NaN or infinity."""

    def _format_num(self, value):
        if isinstance(value, int):
            return value
        return super()._format_num(value)
