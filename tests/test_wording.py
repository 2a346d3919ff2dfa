"""parse/wording.py on its own: what makes two numbers one value, and that it stays linear on 1 MB."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemolint.parse.wording import difference

MEGABYTE = 1 << 20
PIECES = [
    "5",
    " to ",
    "-",
    "–",
    "..",
    " ",
    "\t",
    ",",
    ":",
    "=",
    "(1)",
    ">",
    "+",
    "at least ",
    "2026-06-01",
    "adds",
    "x",
]


@pytest.mark.parametrize(
    ("entry", "description", "says"),
    [
        ("adds 4 fields", "adds 5 to 9 fields", "the entry says 4 where the description says 5 to 9"),
        ("adds 7 fields", "adds 5 to 9 fields", None),
        ("adds 4 rules", "adds 5 fields", None),  # counts of two things
        ("adds 4 rules", "adds 5 rules", "the entry says 4 where the description says 5"),
        ("version: 3", "version: 4", "the entry says 3 where the description says 4"),
        ("v 3, later 4", "v 4", None),  # the description's 4 is said by the entry too
        ("due (1)", "due 2026-06-01", None),
        ("due 2026-06-02", "due 2026-06-01", "the entry says 2026-06-02 where the description says 2026-06-01"),
        ("over 10 users", "12 users", None),
        ("up to 10 users", "12 users", "the entry says 10 where the description says 12"),
    ],
)
def test_numbers_of_one_thing(entry: str, description: str, says: str | None) -> None:
    assert difference(entry, description) == says


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
def test_a_megabyte_of_number_fragments_is_judged_in_linear_time(pieces: list[str]) -> None:
    unit = "".join(pieces)
    text = (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]
    started = time.perf_counter()
    difference(text, "adds 5 to 9 fields " + text[: MEGABYTE // 4])
    assert time.perf_counter() - started < 2
