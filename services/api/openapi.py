"""`python -m services.api.openapi` prints the OpenAPI document as YAML; `--write`
updates openapi.yaml at the repository's root (a test fails when it is stale)."""

import sys
from pathlib import Path

import yaml

from services.api import create_app

PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"


class _Dumper(yaml.SafeDumper):
    """Writes a schema used twice in full both times: `&id001`/`*id001` anchors
    confuse readers and some tools."""

    def ignore_aliases(self, data):
        return True


def document():
    app = create_app(spec_only=True)
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return yaml.dump(spec, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    text = document()
    if "--write" in sys.argv:
        PATH.write_text(text)
    else:
        sys.stdout.write(text)
