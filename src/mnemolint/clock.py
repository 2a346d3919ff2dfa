"""The one place the current time comes from. Age rules (30-day log folders, staleness notes) and
the commands that print ages judge against `now`: the real clock unless the `now` setting or
`--now`/`--today` pins it, so a CI run is reproducible and no test depends on today's date."""

from __future__ import annotations

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import datetime as _dt


def parse(value: str) -> _dt.datetime:
    """An ISO 8601 date (`2026-12-01`, midnight UTC) or date and time (`2026-12-01T09:30:00+00:00`,
    UTC when no offset is given), as an aware datetime; anything else is a ConfigError."""
    import datetime as _dt  # imported when a rule asks the time: 1 ms of a start that never does

    try:
        moment = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ConfigError(f"`now` must be an ISO 8601 date or date and time, not {value!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=_dt.timezone.utc)


def now(value: str = "") -> _dt.datetime:
    """The moment a run judges ages against: `value` (the `now` option) when set, else the clock."""
    import datetime as _dt

    return parse(value) if value else _dt.datetime.now(_dt.timezone.utc)
