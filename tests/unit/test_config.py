"""shared.config: where the Redis URL comes from when REDIS_URL is unset."""

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
    config = Config.from_env({"PLAYER_ISSUERS": "[]", "RATE_LIMIT_PLAYERS": "5/minute"})
    assert config.player_issuers == "[]" and config.rate_limit_players == "5/minute"
    assert Config.from_env({}).player_issuers == ""
