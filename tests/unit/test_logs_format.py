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
