"""The reference client at /play: static files shipped in the package (no build step,
no CDN). It is an ordinary third-party client of the public API, served here only so
that `make run` shows it."""

from pathlib import Path

from flask import send_from_directory

FILES = Path(__file__).parent / "static" / "play"


def install(app):
    """Serve /play/ (index.html) and its files; /play redirects to /play/."""
    app.add_url_rule("/play/", "play", lambda: _file("index.html"))
    app.add_url_rule("/play/<path:name>", "play_file", _file)


def _file(name):
    return send_from_directory(FILES, name, max_age=60)
