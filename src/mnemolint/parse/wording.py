"""Whether two short texts say different things: an index entry against its topic's description.

A paraphrase is not a difference. Word order, punctuation, case, endings and added detail do not
count; what counts is a changed value (another number of the same thing: a number inside the
other side's range or bound, a date against a count, a count of another thing are none), a
withdrawal one side states of the subject both share and the other neither states, denies nor
calls fixed ("no longer jams", "fixed jamming"), or no content word in common at all. CJK and
Hangul are compared by character bigrams, since they have no spaces (or, in Korean, endings that
vary). The title rules share the script ranges and the function words (rules/topic.py).
"""

from __future__ import annotations

import re

from mnemolint.patterns import Lazy

UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"  # kana, Han, Hangul
FUNCTION_WORDS = frozenset(
    "a an the is are was were be been of to and or in on at for with by from as it its this that than into via "
    "per so has have will their".split()
)

# A number, with its thousands separators, its parts (`3.12.1`, `5-6`, `9/10`) and a `k`/`M` suffix.
_TOKEN = Lazy(r"\d+(?:[.,:/-]\d+)*[kKmM]?(?![\w])|\w+")
_NUMBER = Lazy(r"\d+(?:[.,:/-]\d+)*[kKmM]?")
_PARTS = Lazy(r"[/-]")
_THOUSANDS = Lazy(r"(?<=\d),(?=\d{3}(?!\d))")
# What keeps a word beside a number, so that it says what the number is of: a space, or a `:` or
# `=` (`version: 3`); a comma or a bracket between them ends the phrase (`Apr 14, Apr 23`).
_BESIDE = Lazy(r"[ \t]*(?:[:=][ \t]*)?")
_DATE = Lazy(r"\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?:/\d{1,2})?")  # `2026-06-01`, `2026-03-17/18`: a day
_LABEL = Lazy(r"[(\[]\d+[)\]]")  # `(1)`, `[2]`: a label
_RANGE_TO = Lazy(r"\s*(?:to|through|and|or|–|—|~|\.\.)\s*", re.IGNORECASE)
_AT_LEAST = Lazy(r"(?:\b(?:at\s+least|more\s+than|over|above)\s+|[>≥]\s*)$")
_AT_MOST = Lazy(r"(?:\b(?:at\s+most|up\s+to|less\s+than|under|below)\s+|[<≤]\s*)$")
_RUNS = Lazy(rf"[{UNSPACED}]+")
_SUFFIXES = ("ing", "ed", "es", "s", "e")
_CLAUSE = Lazy(r"[;.!?()\[\]—–]|,\s|\s-\s|[，。；！？（）]")
# A decision or fact that no longer holds, said of something (`was removed`, `no longer`), not
# an adjective naming it (`deprecated endpoints`).
_WITHDRAWN = Lazy(
    r"\b(?:was|were|is|are|been|got|has|have)\s+(?:now\s+|since\s+)?(?:withdrawn|reverted|dropped|removed|"
    r"deprecated|superseded|obsolete|abandoned|cancell?ed|retired|gone|replaced)\b"
    r"|\bno\s+(?:longer|more)\b|已撤回|已废弃|已弃用|不再|已取消|已删除|已移除",
    re.IGNORECASE,
)
# A problem said to be over: "fixed X" and "no longer X" are one claim.
_RESOLVED = Lazy(
    r"\b(?:fix(?:ed|es)?|resolved|solved|eliminated|stopped|prevent(?:s|ed)?|patched|cured)\b|已修复|修复了|已解决|解决了",
    re.IGNORECASE,
)
_DENIED = Lazy(r"\b(?:not|never|no|none|without|don't|doesn't|isn't|aren't)\b|n[’']t\b|[不没别]", re.IGNORECASE)


def _stem(word: str) -> str:
    """A crude English stem, the same for `release`/`releases`, `style`/`styling`, `process`/`processes`."""
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def _terms(word: str) -> list[str]:
    """A token's terms: the word stemmed, or the character bigrams of its unspaced runs."""
    runs = list(_RUNS.finditer(word))
    if not runs:
        return [_stem(word)]
    terms = [_stem(part) for part in _RUNS.split(word) if part]
    for run in runs:
        chars = run.group()
        terms.extend(chars[i : i + 2] for i in range(max(len(chars) - 1, 1)))
    return terms


def content_terms(text: str) -> set[str]:
    """The text's content terms: no function words, no numbers."""
    return {
        term
        for token in _TOKEN.findall(text.casefold())
        if not _NUMBER.fullmatch(token) and token not in FUNCTION_WORDS
        for term in _terms(token)
    }


def _value(token: str) -> str:
    """A number as compared: `1,000` is `1000`, `5k` is `5000`."""
    token = _THOUSANDS.sub("", token)
    if token[-1] in "kKmM":
        scale = 1_000 if token[-1] in "kK" else 1_000_000
        try:
            return str(int(float(token[:-1]) * scale))
        except ValueError:
            return token[:-1]
    return token


def _same_number(one: str, other: str) -> bool:
    """Equal, or one the other with more parts (`3.12` and `3.12.1`, `2026-03-17` and `2026-03-17/18`)."""
    if one == other:
        return True
    short, long = sorted((one, other), key=len)
    return long.startswith(short) and not long[len(short)].isdigit()


class _Value:
    """A number of a text: as compared (`_value`) and as written, the values it covers (the range
    `5 to 9`, the bound `50+` or `N>1`), whether it is a date, and the words right beside it
    (`apr 15`: "apr" before it; `7 applications`: "applic" after it)."""

    __slots__ = ("value", "shown", "low", "high", "date", "before", "after")

    def __init__(self, token: str) -> None:
        self.value = self.shown = _value(token)
        self.date = bool(_DATE.fullmatch(token))
        parts = [] if self.date else [_magnitude(part) for part in _PARTS.split(self.value)]
        known = [part for part in parts if part is not None]
        self.low = min(known) if known and len(known) == len(parts) else None  # `5-9` covers 5 to 9
        self.high = max(known) if self.low is not None else None
        self.before: str | None = None
        self.after: str | None = None

    def widen(self, end: _Value) -> bool:
        """Make this the range from it to `end` (`5 to 9`); False when either is no plain number."""
        if self.low is None or self.high is None or end.low is None or end.high is None:
            return False
        self.low, self.high = min(self.low, end.low), max(self.high, end.high)
        return True

    def agrees(self, other: _Value) -> bool:
        """Whether the two say one value: the same number, or ranges and bounds that overlap."""
        if _same_number(self.value, other.value):
            return True
        if self.low is None or other.low is None or self.high is None or other.high is None:
            return False
        return self.low <= other.high and other.low <= self.high


def _magnitude(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


# The numbers of a text that are compared: a summary states a few, and a text of thousands is no
# summary; every pair of them is compared, so this keeps a megabyte of digits linear.
MAX_NUMBERS = 50


def _numbers(text: str) -> list[_Value]:
    """The numbers of `text`, each with the words beside it. Two numbers joined by `to`, `and`,
    `or`, `–` or `..` are one range; a number after `>`, `at least` or `over`, or before `+`, is a
    bound upwards, one after `<`, `up to` or `under` a bound downwards; a number alone in brackets,
    `(1)`, is a label, not a value. The first `MAX_NUMBERS` only."""
    folded = text.casefold()
    tokens = list(_TOKEN.finditer(folded))
    found: list[_Value] = []
    skip = -1
    for i, match in enumerate(tokens):
        token = match.group()
        if len(found) == MAX_NUMBERS:
            break
        if i <= skip or not _NUMBER.fullmatch(token):
            continue
        if _LABEL.fullmatch(folded, max(match.start() - 1, 0), match.end() + 1):
            continue
        number = _Value(token)
        last = _range_end(folded, tokens, i)
        if last is not None and number.widen(_Value(tokens[last].group())):
            number.shown = folded[match.start() : tokens[last].end()]
            skip = last
        last = skip if skip > i else i
        ahead = folded[max(match.start() - 20, 0) : match.start()]
        if number.low is not None and (_AT_LEAST.search(ahead) or folded.startswith("+", tokens[last].end())):
            number.high = float("inf")
        elif number.low is not None and _AT_MOST.search(ahead):
            number.low = 0.0
        number.before = _beside(folded, tokens, i, -1)
        number.after = _beside(folded, tokens, last, 1)
        found.append(number)
    return found


def _range_end(folded: str, tokens: list[re.Match[str]], i: int) -> int | None:
    """The index of the number that closes a range opened by token `i` (`5 to 9`, `5–9`), or None."""
    for j in (i + 1, i + 2):
        if j < len(tokens) and _NUMBER.fullmatch(tokens[j].group()):
            return j if _RANGE_TO.fullmatch(folded, tokens[i].end(), tokens[j].start()) else None
    return None


def _beside(folded: str, tokens: list[re.Match[str]], i: int, step: int) -> str | None:
    """The stemmed word right before (`step` -1) or after (+1) token `i`: None when a comma or a
    bracket comes between (`_BESIDE`), or it is a number or a function word."""
    j = i + step
    if not 0 <= j < len(tokens):
        return None
    near, far = (tokens[j], tokens[i]) if step < 0 else (tokens[i], tokens[j])
    word = tokens[j].group()
    if not _BESIDE.fullmatch(folded, near.end(), far.start()) or _NUMBER.fullmatch(word) or word in FUNCTION_WORDS:
        return None
    return _stem(word)


def _changed_value(entry: str, description: str) -> tuple[str, str] | None:
    """A number the entry states where the description states another of the same thing: beside
    the same word after it (`7 applications`, `14 applications`), or the same word before it and
    the same after (`Apr 15`, `Apr 14`; `adds 4 rules` does not count what `adds 5 fields` does).
    A number one side also says, or that falls in its range or bound, is no change, and a date is
    no count."""
    entry_numbers, description_numbers = _numbers(entry), _numbers(description)
    for old in entry_numbers:
        if any(old.agrees(other) for other in description_numbers):
            continue
        for new in description_numbers:
            if new.date != old.date or any(new.agrees(other) for other in entry_numbers):
                continue
            if (
                old.after is not None
                and old.after == new.after
                or (old.before is not None and old.before == new.before and old.after == new.after)
            ):
                return old.shown, new.shown
    return None


def _withdrawal(text: str, other_terms: set[str]) -> bool:
    """Whether a clause of `text` says that something the other text speaks of no longer holds."""
    return any(_WITHDRAWN.search(clause) and content_terms(clause) & other_terms for clause in _CLAUSE.split(text))


# What is judged of each text: an entry and a description are a line each, and what follows this
# many characters is no part of a summary; it keeps a megabyte-long description cheap.
MAX_CHARS = 4096


def difference(entry: str, description: str) -> str | None:
    """How `entry` says something other than `description`, in words for a message, or None when
    one is a paraphrase, a shortening or an extension of the other (of each, `MAX_CHARS`)."""
    entry, description = entry[:MAX_CHARS], description[:MAX_CHARS]
    entry_terms, description_terms = content_terms(entry), content_terms(description)
    if len(entry_terms) >= 2 and len(description_terms) >= 2 and not entry_terms & description_terms:
        return "they have no word in common"
    changed = _changed_value(entry, description)
    if changed:
        return f"the entry says {changed[0]} where the description says {changed[1]}"
    for side, text, other, other_terms in (
        ("description", description, entry, entry_terms),
        ("entry", entry, description, description_terms),
    ):
        if _withdrawal(text, other_terms) and not any(said.search(other) for said in (_WITHDRAWN, _RESOLVED, _DENIED)):
            return f"only the {side} says it no longer holds"
    return None
