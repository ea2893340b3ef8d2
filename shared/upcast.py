"""Events across releases: each stored event carries the schema it was written in,
and reading it gives the event as this release's code expects it.

A game started on one release finishes on the next, so one game's stream may hold
events of several schemas. The event store writes SCHEMA beside every event (the
entry's field `s`) and, reading an older one, runs it through the upcasters from its
schema up to SCHEMA: one function per step, all of them here. A change to an event's
shape adds a step (and a committed log of the release before it:
tests/fixtures/logs/, replayed to its end by tests/integration/test_upgrades.py); the
rules never see an old shape.

Schema 0 is every event stored before events carried a schema. Its oldest
`game_created` events have no `seed_salt` (the seed's hash was unsalted), no
`dealt_by_creator` (only a custom deck marked one) and no `takeover_bot` (random bots
took seats over).
"""

from shared.table.events import CREATED, LEGACY_TAKEOVER_BOT

SCHEMA = 1


def current(event, schema):
    """`event`, stored in `schema`, as this release's code reads it."""
    while schema < SCHEMA:
        event = UPCASTERS[schema](event)
        schema += 1
    return event


def _from_unversioned(event):
    """Schema 0 to 1: a game_created gets the fields the oldest ones lack, as they were."""
    if event.get("type") != CREATED:
        return event
    return {
        "seed_salt": "",
        "dealt_by_creator": event.get("custom_deck", False),
        "takeover_bot": LEGACY_TAKEOVER_BOT,
        **event,
    }


UPCASTERS = {0: _from_unversioned}  # schema -> the step to the next one
