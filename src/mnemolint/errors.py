"""The one error a user can cause: a usage or configuration error, told in one line (exit code 2)."""

from __future__ import annotations


class ConfigError(Exception):
    """A usage or configuration error: reported in one line, exit code 2."""
