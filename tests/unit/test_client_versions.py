"""The generator versions README.md and docs/clients.md name are the ones the suite
pins and runs: TypeScript's in tests/e2e/node/package.json, the Python generators' in
constraints.txt; and both documents point at the tested TypeScript program."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "docs/clients.md"]


def pinned():
    node = json.loads((ROOT / "tests/e2e/node/package.json").read_text())["dependencies"]
    versions = {name: node[name] for name in ("typescript", "openapi-typescript", "openapi-fetch")}
    constraints = (ROOT / "constraints.txt").read_text()
    for name in ("openapi-python-client", "openapi-generator-cli"):
        versions[name] = re.search(rf"^{name}==(\S+)$", constraints, re.M).group(1)
    return versions


WORDS = {  # how the documents name each tool
    "typescript": "TypeScript",
    "openapi-typescript": "openapi-typescript",
    "openapi-fetch": "openapi-fetch",
    "openapi-python-client": "openapi-python-client",
    "openapi-generator-cli": "openapi-generator",
}


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_documents_name_the_pinned_versions_and_the_typescript_example(document):
    text = " ".join((ROOT / document).read_text().split())  # lines joined
    for name, version in pinned().items():
        assert f"{WORDS[name]} {version}" in text, (document, name, version)
    assert "tests/e2e/node/play.ts" in text
    assert (ROOT / "tests/e2e/node/play.ts").is_file()
