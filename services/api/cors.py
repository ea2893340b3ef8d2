"""CORS for browser clients: off unless CORS_ORIGINS lists the allowed origins
(comma-separated, or `*` for any). Preflight requests are answered by Flask's
automatic OPTIONS handling with the headers added here."""

from flask import request

ALLOWED_HEADERS = (
    "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-ID"
)
EXPOSED_HEADERS = "ETag, Retry-After, X-Request-ID, Idempotent-Replayed"
METHODS = "GET, POST, DELETE, OPTIONS"


def install(app, origins):
    allowed = {o.strip() for o in origins.split(",") if o.strip()}
    if not allowed:
        return

    @app.after_request
    def _cors(response):
        origin = request.headers.get("Origin")
        if origin is None or not ("*" in allowed or origin in allowed):
            return response
        response.headers["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
        response.vary.add("Origin")
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response.headers["Access-Control-Max-Age"] = "600"
        return response
