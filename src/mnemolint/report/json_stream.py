"""JSON written as `json.dump(value, out, indent=2)` writes it, byte for byte, but streamed and fast.

With `indent`, the standard library falls back to its pure-Python encoder, which writes every
token separately: a SARIF log of 2,000 findings cost 150,000 writes and 0.2 s. Here each
container becomes one joined string (strings are escaped by the C functions `json` itself uses),
and an array given as an iterator (not a list) is written one element at a time, as it is made,
so no string of the whole log is ever held. Values are what JSON has: dict with str keys, list
or iterator, str, int, float, bool, None.
"""

from __future__ import annotations

from json.encoder import encode_basestring, encode_basestring_ascii

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

INDENT = "  "


def dump(value: object, out: TextIO, ensure_ascii: bool = True) -> None:
    """Write `value` to `out` as `json.dump(value, out, indent=2, ensure_ascii=ensure_ascii)` would."""
    _Writer(out, encode_basestring_ascii if ensure_ascii else encode_basestring).write(value, 0)


class _Writer:
    __slots__ = ("out", "string")

    def __init__(self, out: TextIO, string: Callable[[str], str]) -> None:
        self.out = out
        self.string = string

    def write(self, value: object, level: int) -> None:
        """Stream the arrays given as iterators, and the containers holding one; encode the rest whole.
        The elements of a streamed array are encoded whole: they hold no iterator themselves."""
        if not _holds_stream(value):
            self.out.write(self.encode(value, level))
            return
        is_dict = isinstance(value, dict)
        opening, closing = ("{", "}") if is_dict else ("[", "]")
        inner = "\n" + INDENT * (level + 1)
        separator = opening + inner
        if is_dict:
            for key, item in value.items():  # type: ignore[attr-defined]
                self.out.write(f"{separator}{self.string(key)}: ")
                self.write(item, level + 1)
                separator = "," + inner
        elif isinstance(value, (list, tuple)):
            for item in value:
                self.out.write(separator)
                self.write(item, level + 1)
                separator = "," + inner
        else:
            for item in value:  # type: ignore[attr-defined]
                self.out.write(separator + self.encode(item, level + 1))
                separator = "," + inner
        self.out.write(opening + closing if separator[0] == opening else "\n" + INDENT * level + closing)

    def encode(self, value: object, level: int) -> str:
        """`value` as one string: containers recurse, scalars inside them are encoded in the loop."""
        is_dict = isinstance(value, dict)
        if not is_dict and not isinstance(value, (list, tuple)):
            return self.scalar(value)
        if not value:
            return "{}" if is_dict else "[]"
        inner = "\n" + INDENT * (level + 1)
        string = self.string
        parts = []
        pairs = value.items() if is_dict else ((None, item) for item in value)  # type: ignore[attr-defined]
        for key, item in pairs:
            head = inner if key is None else f"{inner}{string(key)}: "
            if type(item) is str:
                parts.append(head + string(item))
            elif isinstance(item, (dict, list, tuple)):
                parts.append(head + self.encode(item, level + 1))
            else:
                parts.append(head + self.scalar(item))
        opening, closing = ("{", "}") if is_dict else ("[", "]")
        return opening + ",".join(parts) + "\n" + INDENT * level + closing

    def scalar(self, value: object) -> str:
        if isinstance(value, str):
            return self.string(value)
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, int):
            return int.__repr__(value)
        if isinstance(value, float):
            return _float(value)
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _holds_stream(value: object) -> bool:
    """Whether `value` is an iterator, or a dict or list with one inside."""
    if isinstance(value, dict):
        return any(_holds_stream(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_stream(item) for item in value)
    return hasattr(value, "__next__")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)
