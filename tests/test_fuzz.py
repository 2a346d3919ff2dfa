"""The fuzz harness (tests/fuzz.py) on every run, for a bounded number of examples: arbitrary text
and bytes never raise out of the parsers, the engine or the index generator.

`MNEMOLINT_FUZZ_EXAMPLES` raises the count (CI keeps the default, about ten seconds).
"""

from __future__ import annotations

import os

import pytest
from fuzz import byte_strings, lint_memory_dir, parse_text, texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemolint.parse.frontmatter import split_and_parse

EXAMPLES = int(os.environ.get("MNEMOLINT_FUZZ_EXAMPLES", "150"))
bounded = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@bounded
@given(texts())
def test_no_text_raises_out_of_a_parser(text: str) -> None:
    parse_text(text)


@bounded
@given(byte_strings(), byte_strings(), st.booleans())
def test_no_file_content_raises_out_of_the_engine_or_the_generator(index: bytes, topic: bytes, inside: bool) -> None:
    lint_memory_dir(index, topic, inside)


@pytest.mark.parametrize("tag", ["!!int", "!!float", "!!bool", "!!timestamp"])
def test_an_empty_tagged_scalar_is_invalid_yaml_not_an_internal_error(tag: str) -> None:
    """The fuzzer's first find: `description: !!int` raised IndexError in ruamel, in every rule."""
    front = split_and_parse(["---", f"description: {tag}", "---"], 16)
    assert front.error is not None and front.data is None, front.error
    lint_memory_dir(b"", tag.encode(), True)
