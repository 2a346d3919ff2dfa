"""Whether two short texts say different things: an index entry against its topic's description.

A paraphrase is not a difference. Word order, punctuation, case, endings and added detail do not
count; what counts is a changed value (the same word next to another number), a withdrawal one
side states of the subject both share and the other neither states nor denies, or no content
word in common at all. CJK and Hangul are compared by character bigrams, since they have no
spaces (or, in Korean, endings that vary). The title rules share the script ranges and the
function words (rules/topic.py).
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


def _valued(text: str) -> tuple[dict[tuple[str, str], set[str]], set[str]]:
    """The numbers of a text, by the word beside them (`apr 15` → ("apr", "<") → 15), and all of them."""
    tokens = _TOKEN.findall(text.casefold())
    slots: dict[tuple[str, str], set[str]] = {}
    numbers = set()
    for i, token in enumerate(tokens):
        if not _NUMBER.fullmatch(token):
            continue
        value = _value(token)
        numbers.add(value)
        numbers.update(_PARTS.split(value))  # `5-6` and `9/10` also say 6 and 9
        for j, side in ((i - 1, "<"), (i + 1, ">")):
            if 0 <= j < len(tokens) and not _NUMBER.fullmatch(tokens[j]) and tokens[j] not in FUNCTION_WORDS:
                slots.setdefault((_stem(tokens[j]), side), set()).add(value)
    return slots, numbers


def _said(number: str, numbers: set[str]) -> bool:
    return any(_same_number(number, other) for other in numbers)


def _changed_value(entry: str, description: str) -> tuple[str, str] | None:
    """A number the entry states beside a word where the description has another number."""
    entry_slots, entry_numbers = _valued(entry)
    description_slots, description_numbers = _valued(description)
    for slot, said in entry_slots.items():
        for old in sorted(number for number in said if not _said(number, description_numbers)):
            for new in sorted(number for number in description_slots.get(slot, ()) if not _said(number, entry_numbers)):
                return old, new
    return None


def _withdrawal(text: str, other_terms: set[str]) -> bool:
    """Whether a clause of `text` says that something the other text speaks of no longer holds."""
    return any(_WITHDRAWN.search(clause) and content_terms(clause) & other_terms for clause in _CLAUSE.split(text))


def difference(entry: str, description: str) -> str | None:
    """How `entry` says something other than `description`, in words for a message, or None when
    one is a paraphrase, a shortening or an extension of the other."""
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
        if _withdrawal(text, other_terms) and not _WITHDRAWN.search(other) and not _DENIED.search(other):
            return f"only the {side} says it no longer holds"
    return None
