"""Which rules are on by default: the ones measured right often enough on repositories nobody
tuned them on.

A rule is on by default when, read finding by finding on the held-out repositories
(docs/precision.md), at least `MIN_JUDGED` of its findings could be judged and at least
`MIN_PRECISION` of those were right. Every other rule is in the preview tier (`--preview`), and
its page says what was measured. A new rule has no figure, so it starts in preview; a rule leaves
preview only when a measurement is added here. The counts are the judgements of
`tests/corpus/judgements-heldout.tsv` (42 repositories, main `29988f6`) and
`tests/corpus/judgements-heldout3.tsv` (26 repositories collected later, main `939f15d`) taken
together; tests/test_precision_tiers.py keeps them equal.
"""

from __future__ import annotations

MIN_PRECISION = 0.95
MIN_JUDGED = 5
REPOSITORIES = 68  # held-out repositories read, both corpora

# code: (right, wrong) among the findings read and judged (debatable ones are left out).
HELD_OUT: dict[str, tuple[int, int]] = {
    "CDX001": (30, 0),
    "CIT002": (1, 0),
    "CLD001": (2, 0),
    "FM001": (2, 2),
    "MEM101": (2, 0),
    "MEM102": (1, 0),
    "MEM103": (33, 0),
    "MEM104": (11, 0),
    "MEM105": (3, 28),
    "MEM107": (1, 0),
    "MEM108": (19, 3),
    "MEM109": (0, 1),
    "MEM201": (13, 18),
    "MEM202": (16, 14),
    "MEM203": (4, 27),
    "MEM204": (1, 0),
    "MEM205": (7, 24),
    "MEM206": (2, 0),
    "MEM209": (0, 3),
    "MEM212": (0, 2),
    "NST001": (12, 0),
    "SEC001": (7, 7),
    "TXT004": (15, 10),
    "WAV002": (7, 0),
    "WAV005": (6, 0),
    "WAV007": (1, 0),
    "WAV014": (1, 0),
}


def preview_reason(code: str) -> str | None:
    """Why the rule `code` is in preview, as its page says it; None when it is on by default."""
    right, wrong = HELD_OUT.get(code, (0, 0))
    judged = right + wrong
    where = f"on {REPOSITORIES} public repositories before any rule was tuned on them"
    if judged < MIN_JUDGED:
        found = "no finding" if not judged else f"{judged} finding{'s' if judged > 1 else ''}"
        return (
            f"Read finding by finding {where}, it had {found} that could be judged, fewer than the "
            f"{MIN_JUDGED} a rule needs before it is on by default."
        )
    if right / judged < MIN_PRECISION:
        return (
            f"Read finding by finding {where}, {right} of its {judged} judged findings were right "
            f"({right / judged:.0%}); a rule is on by default from {MIN_PRECISION:.0%}."
        )
    return None


def sarif_precision(code: str, declared: str) -> str:
    """SARIF's `precision` of the rule `code` (what code scanning shows): its measured class where at
    least `MIN_JUDGED` findings were judged (very-high from `MIN_PRECISION`, high from 80 %, medium
    from 50 %, else low), else what its family `declared` from how it decides."""
    right, wrong = HELD_OUT.get(code, (0, 0))
    if right + wrong < MIN_JUDGED:
        return declared
    share = right / (right + wrong)
    return next(name for floor, name in _CLASSES if share >= floor)


_CLASSES = ((MIN_PRECISION, "very-high"), (0.8, "high"), (0.5, "medium"), (0.0, "low"))
