"""Pieces every game's command schemas share."""

from marshmallow import Schema, fields, validate

from services.api.fields import Count


def command_type(name):
    return fields.String(required=True, validate=validate.OneOf([name]))


class Command(Schema):
    expected_version = Count(
        validate=validate.Range(min=0),
        metadata={
            "description": "Refuse the command (version_conflict) unless the game is "
            "still at this version."
        },
    )
