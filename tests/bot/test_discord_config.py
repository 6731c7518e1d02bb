"""Settings for ``python -m bot``: environment over ``.env``, clear errors, token hidden."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config, read_env_file


def test_env_file_syntax_comments_quotes_and_export(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("# comment\n\nexport DISCORD_TOKEN='abc def'\nSANMARCO_DB=\"games.db\"\n"
                   "LOG_LEVEL=debug # inline comment\nBROKEN LINE\n")
    assert read_env_file(env) == {"DISCORD_TOKEN": "abc def", "SANMARCO_DB": "games.db",
                                    "LOG_LEVEL": "debug"}


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nSANMARCO_DB=file.db\nSANMARCO_TEST_GUILD=42\n")
    cfg = load_config({"DISCORD_TOKEN": "from-env"}, env)
    assert cfg.token == "from-env" and cfg.db_path == "file.db" and cfg.test_guild == 42
    assert "from-env" not in repr(cfg)  # the token never reaches a log line


def test_hard_playouts_default_and_override() -> None:
    assert load_config({"DISCORD_TOKEN": "t"}, None).hard_playouts is None
    assert load_config({"DISCORD_TOKEN": "t", "SANMARCO_HARD_PLAYOUTS": "24"},
                       None).hard_playouts == 24


def test_work_processes_default_and_override() -> None:
    """SANMARCO_WORK_PROCESSES: the side lane's processes (bot.work), as many as asked."""
    assert load_config({"DISCORD_TOKEN": "t", "SANMARCO_WORK_PROCESSES": "2"},
                       None).work_processes == 2
    assert load_config({"DISCORD_TOKEN": "t", "SANMARCO_WORK_PROCESSES": "0"},
                       None).work_processes == 0


def test_missing_token_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_config({}, tmp_path / "absent.env")


@pytest.mark.parametrize("key,value,word", [("SANMARCO_TEST_GUILD", "abc", "server id"),
                                            ("LOG_LEVEL", "LOUD", "LOG_LEVEL"),
                                            ("SANMARCO_HARD_PLAYOUTS", "0", "playouts"),
                                            ("SANMARCO_HARD_PLAYOUTS", "many", "playouts"),
                                            ("SANMARCO_HARD_PLAYOUTS", "²", "playouts"),
                                            ("SANMARCO_WEB_PROXY_HEADER", "X Forwarded: 1",
                                             "PROXY_HEADER"),

                                            ("SANMARCO_WORK_PROCESSES", "two",
                                             "SANMARCO_WORK_PROCESSES")])
def test_malformed_settings_are_named(key: str, value: str, word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_config({"DISCORD_TOKEN": "t", key: value}, None)


def test_python_m_bot_without_token_exits_with_a_message(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_shards_and_a_postgresql_database_are_read_and_checked() -> None:
    cfg = load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0-1,3",
                       "DATABASE_URL": "postgresql://bot:pw@db/sm",
                       "SANMARCO_REMINDER_SECONDS": "60", "SANMARCO_LEASE_SECONDS": "2.5",
                       "SANMARCO_SHUTDOWN_SECONDS": "3"}, None)
    assert (cfg.shard_count, cfg.shard_ids, cfg.sharded) == (4, (0, 1, 3), True)
    assert cfg.database == "postgresql://bot:pw@db/sm" and "pw" not in repr(cfg)
    assert cfg.reminder_poll_seconds == 60 and cfg.lease_seconds == 2.5
    assert cfg.shutdown_seconds == 3
    plain = load_config({"DISCORD_TOKEN": "t", "SANMARCO_DB": "g.db"}, None)
    assert (plain.sharded, plain.shard_ids, plain.database) == (False, None, "g.db")
    assert plain.lease_seconds == 10 and plain.shutdown_seconds == 10
    assert load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"}, None).shard_ids is None


@pytest.mark.parametrize("settings,word", [
    ({"SHARD_IDS": "1"}, "SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "below SHARD_COUNT"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "different"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1-0"}, "ranges"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
    ({"DATABASE_URL": "mysql://db/sm"}, "postgresql://"),
    ({"SANMARCO_REMINDER_SECONDS": "0"}, "SANMARCO_REMINDER_SECONDS"),
    ({"SANMARCO_LEASE_SECONDS": "0.1"}, "SANMARCO_LEASE_SECONDS"),
    ({"SANMARCO_LEASE_SECONDS": "nan"}, "SANMARCO_LEASE_SECONDS"),
    ({"SANMARCO_LEASE_SECONDS": "ten"}, "SANMARCO_LEASE_SECONDS"),
    ({"SANMARCO_SHUTDOWN_SECONDS": "0"}, "SANMARCO_SHUTDOWN_SECONDS"),
])
def test_malformed_shard_and_database_settings_are_named(settings: dict[str, str],
                                                         word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_config({"DISCORD_TOKEN": "t", **settings}, None)


def test_the_bot_is_sharded_only_when_asked() -> None:
    from bot.client import SanMarcoBot, ShardedSanMarcoBot, create_bot
    from bot.config import Config

    plain = create_bot(Config(token="t"))
    assert type(plain) is SanMarcoBot and plain.shard_count is None
    sharded = create_bot(Config(token="t", shard_count=2, shard_ids=(1,)))
    assert isinstance(sharded, ShardedSanMarcoBot) and isinstance(sharded, SanMarcoBot)
    assert (sharded.shard_count, sharded.shard_ids) == (2, [1])


@pytest.mark.parametrize("command", [["-m", "bot"], ["-m", "bot.web", "--port", "0"]])
def test_a_short_web_secret_is_refused_at_start_up_with_how_to_make_one(
        tmp_path: Path, command: list[str]) -> None:
    """Issue 36: a secret under 32 bytes could be found offline from one signed hand link:
    both the bot and the pages on their own stop (exit 2) saying how to make a good one."""
    root = Path(__file__).resolve().parents[2]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root), "DISCORD_TOKEN": "t",
           "SANMARCO_WEB_SECRET": "s" * 31}
    proc = subprocess.run([sys.executable, *command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "at least 32 bytes" in proc.stderr and "secrets.token_urlsafe(32)" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert load_config({"DISCORD_TOKEN": "t", "SANMARCO_WEB_SECRET": "é" * 16},
                       None).web_secret == "é" * 16  # 32 bytes: enough
    assert load_config({"DISCORD_TOKEN": "t", "SANMARCO_WEB_SECRET": " "}, None).web_secret is None
