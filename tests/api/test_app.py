"""services/api's Flask subclass: what it changes of Flask's own behaviour, nothing."""

import pytest

from services import api


def test_ensure_sync_still_wraps_an_async_view_and_leaves_a_plain_one(app):
    async def later():
        return "ran"

    def plain():
        return "plain"

    assert app.ensure_sync(plain) is plain
    for _ in range(2):  # the second time from what it remembered
        # Flask's own answer for an async view without its `async` extra (asgiref).
        with pytest.raises(RuntimeError, match="async"):
            app.ensure_sync(later)


def test_the_remembered_answers_stay_bounded(app, monkeypatch):
    monkeypatch.setattr(api, "_ASYNC_MOST", 3)
    monkeypatch.setattr(api, "_ASYNC", {})
    for _ in range(10):
        app.ensure_sync(lambda: None)  # a closure made per call, as a per-request hook is
    assert len(api._ASYNC) <= 3


def test_an_unhashable_callable_is_asked_about_as_flask_asks(app):
    class Handler(list):  # a list's subclass: callable, and unhashable
        def __call__(self):
            return "handled"

    handler = Handler()
    assert app.ensure_sync(handler) is handler
