"""Which rules run: ruff-style selectors (`ALL`, a family `MEM`, a prefix `MEM1`, a code).

For each code the most specific matching selector decides; on a tie `ignore` wins.
"""

from __future__ import annotations

from collections.abc import Iterable

from mnemolint.config import ConfigError


def _specificity(selectors: Iterable[str], code: str) -> int:
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def check_selectors(selectors: Iterable[str], codes: Iterable[str], where: str) -> None:
    """Refuse a selector that matches no rule: a typo must not silently select nothing."""
    known = list(codes)
    for selector in selectors:
        if not selector.strip():  # `""` is a prefix of every code: it would select (or ignore) them all
            raise ConfigError(f"{where}: empty rule selector")
        if selector != "ALL" and not any(code.startswith(selector) for code in known):
            raise ConfigError(f"{where}: unknown rule selector `{selector}`")


def selected(codes: Iterable[str], select: list[str], extend_select: list[str], ignore: list[str]) -> set[str]:
    chosen = set()
    for code in codes:
        keep = max(_specificity(select, code), _specificity(extend_select, code))
        if keep >= 0 and keep > _specificity(ignore, code):
            chosen.add(code)
    return chosen
