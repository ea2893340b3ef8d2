"""The reference client at /play: served, shipped in the package, and a client of the
public API only."""

import fnmatch
import re
import tomllib

import yaml

from services.api import client as play_client
from services.api import openapi
from tests.e2e.conftest import ROOT


def test_play_serves_the_page_and_its_files(client):
    assert client.get("/play").status_code == 308
    page = client.get("/play/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    for name in re.findall(rb'(?:src|href)="([\w.]+\.(?:js|css))"', page.get_data()):
        assert client.get(f"/play/{name.decode()}").status_code == 200
    assert client.get("/play/missing.js").status_code == 404


def test_the_client_calls_only_documented_paths():
    modules = sorted(play_client.FILES.rglob("*.js"))
    script = "\n".join(module.read_text() for module in modules)
    called = re.findall(r"[`\"](/(?:v1|openapi)[^`\"?]*)", script)
    assert len(called) >= 7
    documented = [
        re.sub(r"\{[^}]+\}", "*", p) for p in yaml.safe_load(openapi.PATH.read_text())["paths"]
    ]
    for path in called:
        pattern = re.sub(r"\$\{[^}]+\}", "*", path)
        assert path == "/openapi.json" or any(fnmatch.fnmatch(d, pattern) for d in documented), path


def test_the_client_files_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["services.api"]
    shipped = {
        p.relative_to(play_client.FILES.parents[1]).as_posix()
        for p in [*play_client.FILES.rglob("*"), play_client.STATIC / "favicon.ico"]
        if p.is_file()
    }
    assert shipped and all(any(fnmatch.fnmatch(f, g) for g in globs) for f in shipped)


def test_docs_and_play_have_an_icon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/vnd.microsoft.icon"
    assert icon.get_data()[:4] == b"\x00\x00\x01\x00"  # an ICO's header
    assert b'rel="icon" href="/favicon.ico"' in client.get("/play/").get_data()


def test_the_documents_server_is_relative():
    """/docs' "Try it out" calls whichever host and port served it."""
    assert yaml.safe_load(openapi.PATH.read_text())["servers"][0]["url"] == "/"
