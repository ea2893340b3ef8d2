"""Logs: one record a line, JSON for machines (the default), text for a terminal.

`LOG_FORMAT=json|text` (`make run` defaults to text), `LOG_LEVEL` (INFO). Each record
names its process (api, projector, worker...). A record made while the API answers a
request also carries the request's method, path and request id, so a 500 arrives as one
JSON record holding what it answered and its traceback (`exc_info`).
"""

import logging
import logging.config
import re
import time

from pythonjsonlogger.orjson import OrjsonFormatter

from shared.config import Config

ACCESS = "tablestream.access"


class RequestContext(logging.Filter):
    """Adds the current request's method, path and request id to a record."""

    def filter(self, record):
        if hasattr(record, "request_id"):  # an access line carries them already
            return True
        from flask import g, has_request_context, request

        if has_request_context():
            record.method = request.method
            record.path = request.path
            record.request_id = g.get("request_id")
        return True


def formatter(process, fmt="json"):
    """JSON lines (time, level, logger, process, message and any extra fields, a
    traceback as `exc_info`), or one line of text for a terminal."""
    if fmt == "text":
        return TextFormatter(f"%(asctime)s {process} %(levelname)s %(name)s: %(message)s")
    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        static_fields={"process": process},
    )


class _SameSecond:
    """formatTime as logging.Formatter's, its date and time of day made once a second,
    not for every record (a fifth of an access line's cost)."""

    _made = (None, "")  # (second, its date and time): one tuple, swapped whole

    def formatTime(self, record, datefmt=None):
        if datefmt or not self.default_msec_format:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        made = self._made
        if made[0] != second:
            made = (second, time.strftime(self.default_time_format, self.converter(second)))
            self._made = made
        return self.default_msec_format % (made[1], record.msecs)


# Characters that would end or rewrite a line of text: C0 and C1 controls, DEL, and the
# Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_controls(text):
    """`text` with each control character written as a Python escape (`\\n`, `\\x1b`)."""
    return _CONTROL.sub(lambda found: repr(found.group())[1:-1], text)


class TextFormatter(_SameSecond, logging.Formatter):
    """One line a record: a message's control characters (a `%0a` in a requested path
    arrives as a newline) are escaped, so no client can write a line of its own. A
    traceback keeps its lines."""

    def format(self, record):
        message = record.getMessage()
        if not _CONTROL.search(message):
            return super().format(record)
        escaped = logging.makeLogRecord(record.__dict__)
        escaped.msg, escaped.args = escape_controls(message), None
        return super().format(escaped)


# orjson's: the same fields at about half the cost of the standard library's json (an
# access line a request).
class JsonFormatter(_SameSecond, OrjsonFormatter):
    pass


def dict_config(process, fmt=None, level=None):
    """A logging.config.dictConfig for `process`: every logger to stderr through one
    handler, JSON lines or text. gunicorn's own loggers are sent through it too."""
    config = Config.from_env()
    fmt = (fmt or config.log_format).lower()
    level = (level or config.log_level).upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request": {"()": RequestContext}},
        "formatters": {"main": {"()": formatter, "process": process, "fmt": fmt}},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "filters": ["request"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"level": level, "handlers": ["main"]},
        "loggers": {
            # gunicorn's loggers keep their levels but write through our handler.
            "gunicorn.error": {"handlers": [], "propagate": True},
            "gunicorn.access": {"handlers": [], "propagate": False},
            # RQ logs every job at INFO: its warnings are what an operator needs.
            "rq.worker": {"level": "WARNING"},
            "rq.scheduler": {"level": "WARNING"},
        },
    }


def setup(process, fmt=None, level=None):
    """Configure this process's logging (call once, at start)."""
    lean_records()
    logging.config.dictConfig(dict_config(process, fmt, level))


def lean_records():
    """Records without what no format of ours prints (the caller's file and line, the
    thread and process): collecting those is most of the cost of an access line. The
    logging HOWTO's "Optimization" section names these switches."""
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None


def run_quietly(main, *args):
    """Run a process's `main`: Ctrl-C ends it without a traceback, and a Redis that
    cannot be reached is one log line (a supervisor starts the process again)."""
    import sys

    import redis

    try:
        return main(*args)
    except KeyboardInterrupt:
        sys.exit(130)
    except redis.ConnectionError as error:
        logging.getLogger("tablestream").error("cannot reach Redis: %s", error)
        sys.exit(1)
