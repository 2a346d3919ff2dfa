"""Kinds of file mnemolint lints, and the containers that give files their kind: `base` (what a
kind and a container are), one module per family of kinds (`memory`), `registry` (all of them)."""
