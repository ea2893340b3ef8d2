"""The reference client at /play: static files shipped in the package (no build step,
no CDN). It is an ordinary third-party client of the public API, served here only so
that `make run` shows it."""

from pathlib import Path

from flask import send_from_directory

STATIC = Path(__file__).parent / "static"
FILES = STATIC / "play"


def install(app):
    """Serve /play/ (index.html) and its files; /play redirects to /play/. The site's
    icon, which browsers ask for at /favicon.ico on /play and /docs alike, too."""
    app.add_url_rule("/play/", "play", lambda: _file("index.html"))
    app.add_url_rule("/play/<path:name>", "play_file", _file)
    app.add_url_rule("/favicon.ico", "favicon", _favicon)


def _favicon():
    return send_from_directory(STATIC, "favicon.ico", max_age=86400)


def _file(name):
    return send_from_directory(FILES, name, max_age=60)
