"""Which rules run: ruff-style selectors (`ALL`, a family `MEM`, a prefix `MEM1`, a code).

For each code the most specific matching selector decides; on a tie `ignore` wins. A preview rule
(`Rule.preview`) runs only in preview mode (`--preview`, `preview = true`), however it is selected,
as in ruff: `--select MEM209` without it selects nothing, and says so (`unpreviewed`).
"""

from __future__ import annotations

from collections.abc import Iterable

from mnemolint.errors import ConfigError

ALL = "ALL"


def matches(selector: str, code: str) -> bool:
    """Whether `selector` (`ALL`, a family, a prefix or a code) takes in `code`: the one definition,
    for the command line, the config, per-file ignores, severities and suppression comments."""
    return selector == ALL or code.startswith(selector)


def specificity(selector: str) -> int:
    """How specific a matching selector is: the most specific one decides (`ALL` least)."""
    return 0 if selector == ALL else len(selector)


def _specificity(selectors: Iterable[str], code: str) -> int:
    """The specificity of the most specific of `selectors` matching `code`, -1 for none (`matches`
    and `specificity` inlined: every run asks it three times for each of ~160 codes)."""
    best = -1
    for selector in selectors:
        if selector == ALL:
            found = 0
        elif code.startswith(selector):
            found = len(selector)
        else:
            continue
        if found > best:
            best = found
    return best


def check_selectors(selectors: Iterable[str], codes: Iterable[str], where: str) -> None:
    """Refuse a selector that matches no rule: a typo must not silently select nothing."""
    known = list(codes)
    for selector in selectors:
        if not selector.strip():  # `""` is a prefix of every code: it would select (or ignore) them all
            raise ConfigError(f"{where}: empty rule selector")
        if selector != ALL and not any(matches(selector, code) for code in known):
            raise ConfigError(f"{where}: unknown rule selector `{selector}`")


def selected(codes: Iterable[str], select: list[str], extend_select: list[str], ignore: list[str]) -> set[str]:
    chosen = set()
    for code in codes:
        keep = max(_specificity(select, code), _specificity(extend_select, code))
        if keep >= 0 and keep > _specificity(ignore, code):
            chosen.add(code)
    return chosen


def in_preview(chosen: set[str], preview_codes: Iterable[str], preview: bool) -> set[str]:
    """The chosen codes that run: all of them in preview mode, else those not in preview."""
    return chosen if preview else chosen - set(preview_codes)


def unpreviewed(selectors: Iterable[str], preview_codes: Iterable[str], preview: bool) -> list[str]:
    """The selectors naming a preview rule by its exact code, which select nothing without
    preview mode (ruff warns the same way); a prefix or `ALL` takes what is on by default."""
    if preview:
        return []
    waiting = set(preview_codes)
    return list(dict.fromkeys(selector for selector in selectors if selector in waiting))
