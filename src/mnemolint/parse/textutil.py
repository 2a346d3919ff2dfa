"""Counting text the way the agents' JavaScript loaders count it.

Their loaders do `raw.trim()`, then `split("\\n").length` for lines and `.length` (UTF-16 code
units) for characters. Python strings count code points and `str.strip` trims a different set of
characters, so both are re-implemented here once and used everywhere.
"""

from __future__ import annotations

import re

# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim() removes.
_JS_WS = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """`String.prototype.trim()`: also strips a BOM and Unicode spaces, unlike some `str.strip`s."""
    return text.strip(_JS_WS)


def js_lstrip_count(text: str) -> int:
    """How many leading characters `trim()` removes."""
    return len(text) - len(text.lstrip(_JS_WS))


_BELOW_F0 = bytes(range(0xF0))  # every byte but the lead bytes of a four-byte UTF-8 sequence


def utf16_len(text: str) -> int:
    """JavaScript `string.length`: astral characters count twice."""
    if text.isascii():
        return len(text)
    # An astral character is the one whose UTF-8 starts with a byte of F0 or above: counted in C
    # (`max(text)` costs 17 ms on 187 KB), by the built-in codec (UTF-16's is a module to import).
    return len(text) + len(text.encode("utf-8", "surrogatepass").translate(None, _BELOW_F0))


def utf16_prefix_index(text: str, units: int) -> int:
    """Python index of the first character that starts at or after `units` UTF-16 units.

    A cut that would split a surrogate pair keeps the whole character out, as a lone surrogate
    would be an unreadable half in the agent's prompt either way.
    """
    head = text[: units + 1]
    if head.isascii() or utf16_len(head) == len(head):  # no astral character in it
        return min(units, len(text))
    seen = 0
    for index, char in enumerate(text):
        width = 2 if ord(char) > 0xFFFF else 1
        if seen + width > units:
            return index
        seen += width
    return len(text)


def shorten(text: str, limit: int = 80) -> str:
    """The first `limit` characters of a line, as the seed's warning quotes it."""
    text = text.rstrip("\r")
    cut = utf16_prefix_index(text, limit)
    return text[:cut] + ("…" if cut < len(text) else "")


def quote(text: str, limit: int = 80) -> str:
    """A value as a finding quotes it: credential-shaped text masked (before the cut, which could
    leave a token unrecognisable but still readable), then `shorten`ed."""
    from mnemolint.redact import redact

    return shorten(redact(text), limit)


# What a terminal, a log viewer or a CI runner could act on or hide: C0 controls (tab and newline
# too, since each output line is one record), DEL, C1 controls, the Unicode line and paragraph
# separators and the bidirectional embeddings, overrides and isolates ("Trojan Source"). Lone
# surrogates are the bytes of a file name that is not UTF-8, decoded with surrogateescape. Left to
# `re`'s cache, so that a run with nothing to escape never compiles it.
_INVISIBLE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def visible(text: str, keep: str = "") -> str:
    """`text` safe to print in any output format: each control character, and each byte of a name
    that is not UTF-8, written as its escape (`\\n`, `\\x1b`, `\\xff`, `\\u2028`), never dropped.

    Backslashes are left as they are, so an escape and a name spelled with a backslash read alike;
    neither can move the cursor, end a line or start a workflow command. Characters in `keep`
    stay as they are (a diff keeps a file's tabs).
    """
    if text.isprintable():  # the common case, in C
        return text
    return re.sub(_INVISIBLE, lambda match: _escape(match.group(), keep), text)


def _escape(char: str, keep: str) -> str:
    code = ord(char)
    if char in keep:
        return char
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def undecodable(text: str) -> bool:
    """Whether `text` (a file name) holds bytes that are not UTF-8, kept as lone surrogates."""
    return not text.isascii() and any("\ud800" <= char <= "\udfff" for char in text)


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 line`, `3 lines`, with thousands separators."""
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def dominant_eol(lines: list[str]) -> str:
    """The line ending most lines (split on \\n, CRs kept) end in: CRLF only when over half do."""
    ended = lines[:-1]  # the last piece has no line ending
    crlf = sum(1 for line in ended if line.endswith("\r"))
    return "\r\n" if crlf * 2 > len(ended) else "\n"
