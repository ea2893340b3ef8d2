"""deploy/gunicorn.conf.py as gunicorn reads it: the settings the API runs with."""

import gc
import os
import runpy
from pathlib import Path

import pytest
from gunicorn.config import Config

from services.gunicorn_worker import NoAccessLog, ProblemWorker

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))  # the file sets a default
    config = Config()
    for name, value in runpy.run_path(str(CONF)).items():
        if name in config.settings:
            config.set(name, value)
    return config


def test_the_api_runs_our_gevent_worker(config):
    assert config.worker_class is ProblemWorker


def test_gunicorn_builds_no_access_line_beside_the_apps_own(config):
    assert config.logconfig_dict  # set: gunicorn's own logger would build access lines
    assert config.logger_class is NoAccessLog
    assert not config.logger_class(config).access_log_enabled


def test_a_worker_freezes_what_it_loaded_before_serving(config):
    gc.unfreeze()
    try:
        config.post_worker_init(None)
        assert gc.get_freeze_count() > 0  # a full collection no longer walks them
    finally:
        gc.unfreeze()


def test_a_metrics_directory_made_here_goes_when_gunicorn_exits(monkeypatch):
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    settings = runpy.run_path(str(CONF))
    made = Path(os.environ.pop("PROMETHEUS_MULTIPROC_DIR"))  # run_path set it
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(made))
    assert made.is_dir()
    settings["on_exit"](None)
    assert not made.exists()


def test_a_metrics_directory_the_operator_named_is_kept(config, tmp_path):
    config.on_exit(None)
    assert tmp_path.is_dir()
