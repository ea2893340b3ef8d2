"""asyncapi.yaml, the contract of GET /v1/ws, is generated from the same components as
openapi.yaml; it must be current and valid by the AsyncAPI initiative's own parser
(@asyncapi/parser, pinned by tests/api/asyncapi/package-lock.json, installed into
.cache/asyncapi by `npm ci`)."""

import hashlib
import shutil
from pathlib import Path

import yaml

from services.api import asyncapi, errors, live, openapi
from tests.e2e.clients import need, run

ROOT = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).resolve().parent / "asyncapi"
CACHE = ROOT / ".cache" / "asyncapi"


def test_asyncapi_yaml_is_current():
    assert asyncapi.PATH.read_text() == asyncapi.text(), "run `make asyncapi` and commit it"


def test_its_payloads_are_the_openapi_components():
    document = yaml.safe_load(asyncapi.PATH.read_text())
    components = yaml.safe_load(openapi.PATH.read_text())["components"]["schemas"]
    schemas = document["components"]["schemas"]
    for name in ("View", "Moved", "Problem", "AnyCommand", "AlebrijesEvent", "AlienView"):
        assert name in schemas
    assert schemas["Problem"] == components["Problem"]
    assert schemas["Problem"]["properties"]["code"]["enum"] == sorted(errors.STATUS)
    messages = document["components"]["messages"]
    sent = {m["name"] for k, m in messages.items() if k.startswith("send_")}
    assert sent == set(live.TYPES)
    received = {m["name"] for k, m in messages.items() if k.startswith("receive_")}
    assert {"view", "event", "answer", "error", "pong", "subscribed"} <= received


def test_the_asyncapi_parser_finds_no_error():
    node = need("node")
    npm = need("npm")
    digest = hashlib.sha256((PROJECT / "package-lock.json").read_bytes()).hexdigest()
    stamp = CACHE / ".lock-sha256"
    if not stamp.exists() or stamp.read_text() != digest:
        CACHE.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(PROJECT / name, CACHE / name)
        run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=CACHE)
        stamp.write_text(digest)
    shutil.copy(PROJECT / "validate.mjs", CACHE / "validate.mjs")  # resolves the parser there
    output = run([node, str(CACHE / "validate.mjs"), str(asyncapi.PATH)])
    assert "valid: AsyncAPI 3.0.0" in output
