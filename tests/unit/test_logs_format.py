"""services/ops/logs.py's formatters write what the formatters they stand for write:
the date and time made once a second must not change a record's line."""

import logging

from pythonjsonlogger.orjson import OrjsonFormatter

from services.ops import logs


def records(start=1_764_600_000.25, count=400, step=0.0137):
    """Records a few ms apart, across several second and minute boundaries."""
    for i in range(count):
        record = logging.LogRecord("tablestream.access", 20, "p", 1, "GET %s", ("/v1",), None)
        record.created = start + i * step
        record.msecs = (record.created - int(record.created)) * 1000
        yield record


def test_json_lines_are_orjson_formatters_lines():
    ours = logs.formatter("api", "json")
    theirs = OrjsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        static_fields={"process": "api"},
    )
    for record in records():
        assert ours.format(record) == theirs.format(record)


def test_text_lines_are_the_standard_formatters_lines():
    ours = logs.formatter("api", "text")
    theirs = logging.Formatter("%(asctime)s api %(levelname)s %(name)s: %(message)s")
    for record in records(start=1_764_600_059.5):  # a minute's end
        assert ours.format(record) == theirs.format(record)
    dated = logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M")
    ours.datefmt = dated.datefmt
    record = next(records())
    assert ours.formatTime(record, "%H:%M") == dated.formatTime(record, "%H:%M")


def test_a_text_line_escapes_control_characters_so_no_client_can_forge_a_line():
    forged = "/v1/games\n2026-12-04 03:00:00,000 api INFO tablestream.access: GET /admin 200"
    record = logging.LogRecord("tablestream.access", 20, "p", 1, "GET %s 404", (forged,), None)
    line = logs.formatter("api", "text").format(record)
    assert "\n" not in line and "\r" not in line
    assert line.endswith("GET " + forged.replace("\n", "\\n") + " 404")
    for control in ("\r", "\x1b[2J", "\u2028", "\x85", "\x00"):
        record.args = (f"/a{control}b",)
        line = logs.formatter("api", "text").format(record)
        assert control not in line and repr(control)[1:-1] in line


def test_a_traceback_keeps_its_lines_in_text():
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", 40, "p", 1, "failed %s", ("a\nb",), sys.exc_info())
    line = logs.formatter("api", "text").format(record)
    assert "failed a\\nb" in line and "Traceback" in line and "\n" in line
