"""report/json_stream.py writes what `json.dump(value, out, indent=2)` writes, byte for byte."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from mnemolint.report import json_stream

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=30,
)


def written(value: object, ensure_ascii: bool) -> str:
    out = io.StringIO()
    json_stream.dump(value, out, ensure_ascii)
    return out.getvalue()


@given(VALUES, st.booleans())
def test_same_text_as_json_dump(value: object, ensure_ascii: bool) -> None:
    assert written(value, ensure_ascii) == json.dumps(value, indent=2, ensure_ascii=ensure_ascii)


@given(st.lists(VALUES, max_size=5), st.booleans())
def test_iterators_are_written_as_arrays(items: list, ensure_ascii: bool) -> None:
    """An array given as an iterator, alone or inside containers, reads as the list would."""
    document = {"runs": [{"results": iter(items), "after": 1}], "empty": iter([])}
    expected = {"runs": [{"results": items, "after": 1}], "empty": []}
    assert written(document, ensure_ascii) == json.dumps(expected, indent=2, ensure_ascii=ensure_ascii)


def test_an_iterator_is_written_as_it_is_made() -> None:
    out = io.StringIO()
    seen = []

    def items():
        for number in range(3):
            seen.append(out.getvalue().count("\n"))
            yield {"n": number}

    json_stream.dump(items(), out)
    assert seen == [0, 3, 6]  # each element was on the output before the next was made
