"""Flat `key: plain value` frontmatter read without importing ruamel.yaml (about 10 ms of every cold start).

Most memory frontmatter is three or four lines such as `name: x` and `description: a sentence`.
For exactly that subset this module gives the mapping ruamel's YAML 1.2 safe loader gives, and
declines (returns None) everything else, which then goes to ruamel as before:

- every line is empty or `key: value`: the key an ASCII identifier (`[A-Za-z_][A-Za-z0-9_.-]*`,
  not a YAML 1.2 bool or null word), no space before the colon, spaces only after it;
- every value is a plain scalar that YAML 1.2 resolves to a string: it starts with a letter
  (ASCII or not), a digit, `_`, `/`, `(`, `.` or `$` (no indicator character, sign or `~`), is
  no bool, null, int, float or timestamp to YAML 1.2, holds no `: ` or ` #` and does not end in
  `:`, and holds only printable characters other than tab and the Unicode line breaks;
- no key is repeated (an error to ruamel).

The caller (`frontmatter.fast_path`) also declines a mapping with a value YAML 1.1 reads differently
(`no`, `on`, `y`), the same test that sends ruamel's result to the event scan for FM004's facts.

A value's trailing spaces are dropped, as YAML does. tests/test_fast_yaml.py proves the
equivalence with hypothesis and over the example repository.
"""

from __future__ import annotations

import re
import sys

from mnemolint.patterns import Lazy

# A value: printable ASCII but tab and DEL, or any character from U+00A0 on; `_ODD` then declines
# those of them YAML does not print or libyaml takes for line breaks. (Negated classes: a class
# of the exact YAML ranges costs milliseconds to compile, on every cold start.)
_LINE = Lazy(
    r"([A-Za-z_][A-Za-z0-9_.-]{0,255}): +"
    r"((?:[A-Za-z0-9_/($.]|[^\x00-\x9f])(?:[^\x00-\x1f\x7f-\x9f]*[^\x00-\x20:\x7f-\x9f])?) *"
)
_ODD = "[\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"  # compiled (and cached by `re`) on first use
# Plain scalars YAML 1.2 (ruamel's `Resolver`) makes into something other than a string and that
# `_LINE` lets through: the words, and what starts with a digit or `.` (ruamel's int, float and
# timestamp patterns for YAML 1.2, as sources compiled on first use). A sign or `~` is declined.
_TYPED = frozenset(("true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"))
_NUMERIC_START = frozenset("0123456789.")
_NUMBER_OR_DATE = (
    r"(?:0b[0-1_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+"  # int
    r"|[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+|\.[0-9_]+(?:[eE][-+][0-9]+)?"  # float
    r"|\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}"  # timestamp
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)"
)


def read_flat(lines: list[str]) -> dict[str, str] | None:
    """The mapping of `lines` (the YAML between the fences, CRs stripped), or None to decline."""
    data: dict[str, str] = {}
    for line in lines:
        if not line:
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match.groups()
        if key in data or key in _TYPED or value in _TYPED or ": " in value or " #" in value:
            return None
        if not value.isascii() and re.search(_ODD, value):
            return None
        if value[0] in _NUMERIC_START and re.fullmatch(_NUMBER_OR_DATE, value):
            return None
        data[sys.intern(key)] = value  # one `name` for every file: a 100,000-file run holds them all
    return data
