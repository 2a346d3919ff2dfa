"""mnemolint: lint and fix AI-agent memory repositories."""

__version__ = "0.1.0"
