"""Whether two short texts say different things: an index entry against its topic's description.

A paraphrase is not a difference. Word order, punctuation, case, endings and added detail do not
count; what counts is a changed value (the same word next to another number), a withdrawal one
side states and the other does not, or no content word in common at all. CJK and Hangul are
compared by character bigrams, since they have no spaces (or, in Korean, endings that vary).
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\d+(?:[.,:/-]\d+)*|\w+")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_PARTS = re.compile(r"[/-]")
# Han, kana, Hangul: scripts written without spaces between words (or with endings that vary).
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_SUFFIXES = ("ing", "ed", "es", "s")
_STOP = frozenset(
    "a an and are as at be by for from has have in into is it its of on or so than that the their this to "
    "was were will with".split()
)
# Words that say a decision or a fact no longer holds.
_WITHDRAWN = frozenset(
    "withdrawn reverted dropped removed deprecated superseded obsolete abandoned cancelled canceled retired".split()
)
_WITHDRAWN_PHRASES = (
    "no longer",
    "no more",
    "is gone",
    "are gone",
    "撤回",
    "废弃",
    "弃用",
    "不再",
    "已取消",
    "已删除",
    "已移除",
)


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _terms(word: str) -> list[str]:
    """A token's terms: the word stemmed, or the character bigrams of its unspaced runs."""
    runs = list(_UNSPACED.finditer(word))
    if not runs:
        return [_stem(word)]
    terms = [_stem(part) for part in _UNSPACED.split(word) if part]
    for run in runs:
        chars = run.group()
        terms.extend(chars[i : i + 2] for i in range(max(len(chars) - 1, 1)))
    return terms


def content_terms(text: str) -> set[str]:
    """The text's content terms: no stop words, no numbers."""
    return {
        term
        for token in _TOKEN.findall(text.casefold())
        if not _NUMBER.fullmatch(token) and token not in _STOP
        for term in _terms(token)
    }


def _valued(text: str) -> tuple[dict[tuple[str, str], set[str]], set[str]]:
    """The numbers of a text, by the word beside them (`apr 15` → ("apr", "<") → 15), and all of them."""
    tokens = _TOKEN.findall(text.casefold())
    slots: dict[tuple[str, str], set[str]] = {}
    numbers = set()
    for i, token in enumerate(tokens):
        if not _NUMBER.fullmatch(token):
            continue
        numbers.add(token)
        numbers.update(_PARTS.split(token))  # `5-6` and `9/10` also say 6 and 9
        for j, side in ((i - 1, "<"), (i + 1, ">")):
            if 0 <= j < len(tokens) and not _NUMBER.fullmatch(tokens[j]) and tokens[j] not in _STOP:
                slots.setdefault((_stem(tokens[j]), side), set()).add(token)
    return slots, numbers


def _changed_value(entry: str, description: str) -> tuple[str, str] | None:
    """A number the entry states beside a word where the description has another number."""
    entry_slots, entry_numbers = _valued(entry)
    description_slots, description_numbers = _valued(description)
    for slot, said in entry_slots.items():
        for old in sorted(said - description_numbers):
            for new in sorted(description_slots.get(slot, set()) - entry_numbers):
                return old, new
    return None


def _withdrawn(text: str) -> bool:
    folded = text.casefold()
    return bool(_WITHDRAWN & set(_TOKEN.findall(folded))) or any(phrase in folded for phrase in _WITHDRAWN_PHRASES)


def difference(entry: str, description: str) -> str | None:
    """How `entry` says something other than `description`, in words for a message, or None when
    one is a paraphrase, a shortening or an extension of the other."""
    entry_terms, description_terms = content_terms(entry), content_terms(description)
    if len(entry_terms) >= 2 and len(description_terms) >= 2 and not entry_terms & description_terms:
        return "they have no word in common"
    changed = _changed_value(entry, description)
    if changed:
        return f"the entry says {changed[0]} where the description says {changed[1]}"
    if entry_terms & description_terms and _withdrawn(entry) != _withdrawn(description):
        return f"only the {'description' if _withdrawn(description) else 'entry'} says it no longer holds"
    return None
