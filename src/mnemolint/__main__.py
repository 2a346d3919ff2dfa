"""`python -m mnemolint`."""

from mnemolint.cli import entry

entry()
