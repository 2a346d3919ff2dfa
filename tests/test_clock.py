"""The one injectable clock: a pinned `now` is read exactly, a bad one is a usage error."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import run_cli

from mnemolint.clock import now, parse
from mnemolint.errors import ConfigError


def test_a_date_is_midnight_utc_and_a_time_keeps_its_offset() -> None:
    assert parse("2026-12-01") == dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)
    assert parse("2026-12-01T09:30:00Z") == dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.timezone.utc)
    assert parse("2026-12-01T09:30:00+08:00").utcoffset() == dt.timedelta(hours=8)


def test_the_real_clock_when_nothing_is_pinned() -> None:
    before = dt.datetime.now(dt.timezone.utc)
    assert before <= now("") <= dt.datetime.now(dt.timezone.utc)


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "1.5"])
def test_a_bad_moment_is_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="ISO 8601"):
        parse(bad)


def test_a_bad_now_on_the_command_line_or_in_the_config_exits_2(tmp_path: Path) -> None:
    result = run_cli("check", "--today", "someday", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2
    assert "ISO 8601" in result.stderr
    (tmp_path / "mnemolint.toml").write_text('now = "soon"\n')
    assert run_cli("check", str(tmp_path), cwd=tmp_path).returncode == 2
    assert run_cli("check", "--now", "2026-12-01", str(tmp_path), cwd=tmp_path).returncode == 0
