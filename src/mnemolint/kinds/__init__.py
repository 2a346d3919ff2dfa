"""Kinds of file mnemolint lints, and the containers (memory dirs) that hold them."""
