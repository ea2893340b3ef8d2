"""Pieces every game's command schemas share."""

from marshmallow import Schema, fields, validate

from services.api.fields import MAX_VERSION, Count


def command_type(name):
    return fields.String(required=True, validate=validate.OneOf([name]))


class Command(Schema):
    # Documented as a version (0 to MAX_VERSION); a larger one is a version_conflict,
    # as any the game is not at.
    expected_version = Count(
        validate=validate.Range(min=0),
        metadata={
            "description": "Refuse the command (version_conflict) unless the game is "
            "still at this version.",
            "maximum": MAX_VERSION,
        },
    )
