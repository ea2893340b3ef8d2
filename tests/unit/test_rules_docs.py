"""Each game's shapes, declared in its contract (`<package>.contract`), checked against
the two other places that state them: the rules' own command types and options, and the
pages for readers (docs/rules/<game>.md). A contract that gains a command, an event, a
field or an option the page does not name fails here, and so does an example on the
page that the API would refuse."""

import json
import re
from pathlib import Path

import pytest

from services.api.games import CONTRACTS
from services.api.games.contract import LIFECYCLE_EVENTS
from services.api.games.options import TableOptions
from shared import games, table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = re.compile(r'`(\{"type": "(\w+)"[^`]*\})`')
ENVELOPE = {"type", "expected_version"}


def page(game):
    return (ROOT / "docs" / "rules" / f"{game}.md").read_text()


@pytest.mark.parametrize("game", games.NAMES)
def test_the_rules_and_the_contract_have_the_same_commands_and_options(game):
    rules, contract = games.get(game), CONTRACTS[game]
    assert set(contract.commands) == set(rules.COMMANDS)
    own = set(contract.options().fields) - set(TableOptions().fields) - {"variant"}
    assert own == set(rules.OPTIONS)


@pytest.mark.parametrize("game", games.NAMES)
def test_every_command_is_on_the_page_and_every_example_there_is_accepted(game):
    commands, examples = CONTRACTS[game].commands, EXAMPLE.findall(page(game))
    shown = {kind for _, kind in examples}
    assert set(commands) <= shown, f"docs/rules/{game}.md shows no {set(commands) - shown}"
    concrete = 0
    for text, kind in examples:
        if kind not in commands:
            continue  # the table's own commands (start...), sent by the service
        try:
            command = json.loads(text.replace("\n", " "))
        except ValueError:  # a shape with placeholders: `{"type": "play", "cards": [codes]}`
            named = set(re.findall(r'"(\w+)":', text.split("{", 2)[1])) - ENVELOPE
            assert named <= set(commands[kind]().fields), text
            continue
        assert commands[kind]().load(command) == command, text
        concrete += 1
    assert concrete, f"docs/rules/{game}.md has no command example the API would take"


@pytest.mark.parametrize("game", games.NAMES)
def test_every_event_and_each_of_its_fields_is_named_on_the_page(game):
    text, missing = page(game), []
    for kind, schema in CONTRACTS[game].events.items():
        if kind == table.COMMANDED or kind in LIFECYCLE_EVENTS:
            continue  # every game's, documented in the OpenAPI document
        for name in [kind, *sorted(set(schema().fields) - {"type", "version", "at"})]:
            if f"`{name}`" not in text:
                missing.append(f"{kind}.{name}" if name != kind else kind)
    assert missing == [], f"docs/rules/{game}.md does not name {missing}"


@pytest.mark.parametrize("game", games.NAMES)
def test_every_option_is_on_the_page(game):
    contract = CONTRACTS[game]
    own = set(contract.options().fields) - set(TableOptions().fields) - {"variant"}
    assert {name for name in own if f"`{name}`" not in page(game)} == set()
