"""Documentation-only decorators over flask-smorest's.

flask-smorest documents a view through decorators that also wrap it, each wrapper a
layer every request runs through (`blp.arguments` even parses the query with webargs).
A view that answers a Response itself needs only their documentation: these apply the
library's decorator to the view and keep the view, with the documentation the
decorator made (`_documented`).
"""

from http import HTTPStatus

# What any POST may answer besides its own refusals: a bad or reused Idempotency-Key
# (400, 422), its first request still running (409), a body too large or not JSON.
POSTED = (400, 409, 413, 415, 422)

# flask-smorest keeps what a decorator documents in this attribute of the function it
# returns, and reads it from the view when the blueprint is registered. It has no
# public hook for documentation without a wrapper: this is the one place that relies
# on it, and tests/unit/test_apidoc.py fails if the library stops working this way.
_DOC = "_apidoc"


def _documented(view, decorated):
    """`view`, carrying the documentation that flask-smorest put on `decorated`."""
    setattr(view, _DOC, getattr(decorated, _DOC))
    return view


def errors(blp, *statuses):
    """Document the problem+json answers an endpoint may give, by HTTP status (as
    `blp.alt_response` would, without its wrapper)."""

    def decorate(view):
        documented = view
        for status in sorted(set(statuses)):
            documented = blp.alt_response(status, response=HTTPStatus(status).name)(documented)
        return _documented(view, documented)

    return decorate


def doc_only(decorator):
    """A flask-smorest decorator (`blp.response`, `blp.alt_response`, `blp.doc`) for its
    documentation only."""

    def decorate(view):
        return _documented(view, decorator(view))

    return decorate


def query_doc(blp, schema):
    """Document `schema` as an endpoint's query parameters, as `@blp.arguments(schema,
    location="query")` does, without its webargs wrapper (the route reads the query
    itself: play.view_query)."""

    def decorate(view):
        documented = blp.arguments(schema, location="query", error_status_code=400)(view)
        return _documented(view, documented)

    return decorate
