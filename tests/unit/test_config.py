"""shared.config: where the Redis URL comes from when REDIS_URL is unset."""

import ast
import re
from pathlib import Path

import pytest

from shared.config import DEFAULT_REDIS_URL, Config


def test_redis_url_wins_over_everything(tmp_path):
    (tmp_path / "redis.url").write_text("redis://127.0.0.1:7001/0\n")
    config = Config.from_env({"REDIS_URL": "redis://elsewhere:6379/0", "RUN_DIR": str(tmp_path)})
    assert config.redis_url == "redis://elsewhere:6379/0" and config.redis_url_from == "REDIS_URL"


def test_without_redis_url_the_embedded_redis_of_the_run_is_used(tmp_path):
    (tmp_path / "redis.url").write_text("redis://127.0.0.1:7001/0\n")
    config = Config.from_env({"RUN_DIR": str(tmp_path)})
    assert config.redis_url == config.queue_url == "redis://127.0.0.1:7001/0"
    assert config.redis_url_from == str(tmp_path / "redis.url")


def test_with_neither_the_default_is_used_and_says_so(tmp_path):
    config = Config.from_env({"RUN_DIR": str(tmp_path)})
    assert config.redis_url == DEFAULT_REDIS_URL and config.redis_url_from == "default"


def test_the_expiry_policy_is_configurable():
    config = Config.from_env({"WAITING_EXPIRES_AFTER": "60", "IDLE_EXPIRES_AFTER": "120"})
    assert (config.waiting_expires_after, config.idle_expires_after) == (60, 120)
    assert Config.from_env({}).waiting_expires_after == 24 * 3600


def test_finished_games_read_models_expire_after_a_week_unless_set_or_off():
    assert Config.from_env({}).finished_read_models_ttl == 7 * 24 * 3600
    assert Config.from_env({"FINISHED_READ_MODELS_TTL": "3600"}).finished_read_models_ttl == 3600
    for off in ("0", "off", "OFF", "never"):
        assert Config.from_env({"FINISHED_READ_MODELS_TTL": off}).finished_read_models_ttl == 0


def test_a_negative_retention_is_refused():
    with pytest.raises(ValueError):
        Config.from_env({"FINISHED_READ_MODELS_TTL": "-1"})


def test_players_settings_are_read_from_the_environment():
    config = Config.from_env(
        {
            "PLAYER_ISSUERS": "[]",
            "RATE_LIMIT_PLAYERS": "5/minute",
            "RATE_LIMIT_INVITATIONS": "7/day",
        }
    )
    assert config.player_issuers == "[]" and config.rate_limit_players == "5/minute"
    assert config.rate_limit_invitations == "7/day"
    assert Config.from_env({}).rate_limit_invitations == "60/hour;300/day"
    assert Config.from_env({}).player_issuers == ""


# --- every setting read through Config, and listed in the README ---

ROOT = Path(__file__).resolve().parents[2]
# Read by a library or a server, not by our code: gunicorn's process count.
NOT_OURS = {"WEB_CONCURRENCY"}


def _environment_reads(path):
    """(name, line, how) of every environment variable read by name in `path`: through
    os.environ / os.getenv, or a mapping called `env` (Config.from_env's argument, the
    supervisor's copy; a WSGI `environ` is a request's). Assignments and setdefault are
    writes: skipped."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            receiver, key = node.value, node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr not in ("get", "getenv", "pop") or not node.args:
                continue
            receiver, key = node.func.value, node.args[0]
        else:
            continue
        named = isinstance(receiver, ast.Name) and receiver.id in ("env", "os")
        environ = isinstance(receiver, ast.Attribute) and receiver.attr == "environ"
        if (named or environ) and isinstance(key, ast.Constant) and isinstance(key.value, str):
            if re.fullmatch(r"[A-Z][A-Z0-9_]+", key.value):
                found.append((key.value, node.lineno))
    return found


def _readme_settings():
    """The names in the first column of the README's configuration table."""
    section = (ROOT / "README.md").read_text().split("## Configuration", 1)[1].split("\n## ")[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row)}


def test_no_module_but_config_reads_the_environment():
    config = ROOT / "shared" / "config.py"
    elsewhere = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for folder in ("services", "shared")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != config
        for name, line in _environment_reads(path)
    ]
    assert elsewhere == []  # read it through Config.from_env instead


def test_every_setting_config_reads_is_in_the_readme_table_and_back():
    read = {name for name, _ in _environment_reads(ROOT / "shared" / "config.py")}
    assert {"REDIS_URL", "CORS_ORIGINS", "LOG_FORMAT", "WEBHOOK_ATTEMPTS"} <= read
    listed = _readme_settings()
    assert read - listed == set()  # read but not documented
    assert listed - read - NOT_OURS == set()  # documented but never read


def test_the_settings_read_outside_the_api_have_their_defaults():
    config = Config.from_env({})
    assert (config.log_format, config.log_level, config.cors_origins) == ("json", "INFO", "")
    assert (config.metrics_port, config.metrics_host) == (None, "127.0.0.1")
    assert (config.port, config.projectors, config.workers, config.background_nice) == (
        8000,
        1,
        2,
        0,
    )
    assert (config.webhook_attempts, config.webhook_allow_http) == (6, False)
    assert config.ready_queue_age == 30.0


def test_the_settings_read_outside_the_api_are_read_from_the_environment():
    config = Config.from_env(
        {"LOG_FORMAT": "TEXT", "METRICS_PORT": "0", "BACKGROUND_NICE": "40",
         "WEBHOOK_ALLOW_HTTP": "yes", "READY_QUEUE_AGE": "2.5", "CORS_ORIGINS": "*"}
    )  # fmt: skip
    assert config.log_format == "text" and config.metrics_port == 0  # 0: explicitly none
    assert config.background_nice == 19  # at most
    assert config.webhook_allow_http and config.ready_queue_age == 2.5
    assert config.cors_origins == "*"


def test_a_setting_left_empty_is_its_default(tmp_path):
    read = {name for name, _ in _environment_reads(ROOT / "shared" / "config.py")}
    unset = Config.from_env({"RUN_DIR": str(tmp_path)})
    empty = Config.from_env({**{name: "" for name in read}, "RUN_DIR": str(tmp_path)})
    assert empty == unset


def test_durability_is_one_of_its_modes():
    assert Config.from_env({}).durability == "always"
    assert Config.from_env({"DURABILITY": "EverySec"}).durability == "everysec"
    with pytest.raises(ValueError, match="DURABILITY"):
        Config.from_env({"DURABILITY": "sometimes"})
