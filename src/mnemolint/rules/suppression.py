"""SUP: the suppression comments themselves (ruff's RUF100): a `mnemolint-disable…` comment that
silences nothing is a stale exemption, and its safe fix removes exactly the dead part.

The rule reads `SUPPRESSIONS`: the engine gives it each document's comments after every other
finding was filtered, with the marks that silenced one (`base.Audit`). A code is judged only
when every rule it names ran (a code of a rule this run did not select, or a preview rule
without `--preview`, may be needed by another run); a code that names no rule is always judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.model import SAFE, WARNING, Edit, Fix, Hit
from mnemolint.parse import suppress
from mnemolint.rules.base import SUPPRESSIONS, Audit, Family, rule
from mnemolint.selection import ALL, matches

_OWN = "SUP001"  # a comment naming this rule exists to silence its report: never judged itself


@rule(
    "SUP001",
    "unused-suppression",
    WARNING,
    reads=SUPPRESSIONS,
    summary="A `mnemolint-disable` comment names a code that silenced no finding, or no rule at all.",
    fix=SAFE,
)
def unused_suppression(audit: Audit, options: dict) -> Iterator[Hit]:
    marks = audit.document.suppressions
    if marks is None:
        return
    ends = marks.ends()
    ended: dict[int, list[suppress.Mark]] = {}  # each `enable` → the ranges it ends
    for mark, closer in ends.items():
        ended.setdefault(closer, []).append(mark)
    for index, (line, start, end, action, selectors) in enumerate(marks.comments):
        if action == suppress.ENABLE:
            continue
        dead = [selector for selector in dict.fromkeys(selectors) if _dead(audit, index, selector)]
        if not dead:
            continue
        # The `enable` comments ending the dead ranges lose the same codes (or go, with the range).
        closers: dict[int, set[str]] = {}
        for selector in dead:
            closer = ends.get((index, selector), -1)
            if closer >= 0:
                closers.setdefault(closer, set()).add(selector)
        removals = {index: set(dead), **_closer_removals(marks, ended, index, closers)}
        removals = {comment: codes for comment, codes in removals.items() if codes}
        yield Hit(
            _message(audit, action, dead),
            line=line,
            column=start + 1,
            end_line=line,
            end_column=end + 1,
            fix=Fix(SAFE, _fix_message(dead, len(dead) == len(set(selectors))), _edits(audit, removals)),
        )


def _dead(audit: Audit, comment: int, selector: str) -> bool:
    """Whether `selector` of `comment` silenced nothing though every rule it names ran."""
    if (comment, selector) in audit.used or (selector != ALL and matches(selector, _OWN)):
        return False
    return all(code in audit.ran for code in audit.names(selector))


def _closer_removals(
    marks: suppress.Suppressions, ended: dict[int, list[suppress.Mark]], opener: int, closers: dict[int, set[str]]
) -> dict[int, set[str]]:
    """What goes of each `enable` that ends a dead range: the codes it names, or, when it names
    none (it ends every open range), the whole comment only if every range it ends is dead."""
    removals = {}
    for closer, selectors in closers.items():
        named = marks.comments[closer][4]
        if named != (ALL,):
            removals[closer] = {selector for selector in selectors if selector in named}
        elif all(mark[0] == opener and mark[1] in selectors for mark in ended[closer]):
            removals[closer] = {ALL}
    return removals


def _message(audit: Audit, action: str, dead: list[str]) -> str:
    if dead == [ALL]:
        return f"Unused suppression: this `mnemolint-{action}` names no code and silenced no finding."
    unknown = [selector for selector in dead if not audit.names(selector)]
    unused = [selector for selector in dead if selector not in unknown]
    parts = []
    if unused:
        parts.append(f"{_codes(unused)} silenced no finding")
    if unknown:
        parts.append(f"{_codes(unknown)} {'names' if len(unknown) == 1 else 'name'} no rule")
    return f"Unused suppression in this `mnemolint-{action}`: {' and '.join(parts)}."


def _codes(selectors: list[str]) -> str:
    return ", ".join(f"`{selector}`" for selector in selectors)


def _fix_message(dead: list[str], whole: bool) -> str:
    return "Remove the unused suppression comment" if whole else f"Remove {_codes(dead)} from the comment"


def _edits(audit: Audit, removals: dict[int, set[str]]) -> tuple[Edit, ...]:
    """One edit per line touched: the line without the dead codes (a comment left with none goes
    whole, with the space that set it apart), or without the line when nothing else was on it."""
    document = audit.document
    comments = audit.document.suppressions.comments  # type: ignore[union-attr]
    by_line: dict[int, list[int]] = {}
    for comment in removals:
        by_line.setdefault(comments[comment][0], []).append(comment)
    edits = []
    for line, on_line in sorted(by_line.items()):
        text = document.lines[line - 1]
        body = text[:-1] if text.endswith("\r") else text
        cuts = sorted(span for comment in on_line for span in _cuts(body, comments[comment], removals[comment]))
        kept, position = [], 0
        for start, end in cuts:
            kept.append(body[max(position, 0) : start])
            position = max(position, end)
        new = "".join(kept) + body[position:]
        offset = document.line_offset(line)
        if not new.strip():
            start, end = document.line_span(line)
            edits.append(Edit(start, end, ""))
        else:
            first, last = cuts[0][0], max(end for _, end in cuts)
            edits.append(Edit(offset + first, offset + last, new[first : len(new) - (len(body) - last)]))
    return tuple(edits)


def _cuts(body: str, comment: suppress.Comment, dead: set[str]) -> list[tuple[int, int]]:
    """The spans of `body` (a line without its ending) to remove for the `dead` codes of `comment`."""
    _, start, end, _, selectors = comment
    if set(selectors) <= dead:
        if not body[end:].strip():  # at the end of the line: the space before it goes too
            return [(len(body[:start].rstrip()), len(body))]
        after = end + len(body[end:]) - len(body[end:].lstrip())
        return [(start, after if start == 0 or body[start - 1].isspace() else end)]
    codes = [(start + first, start + last) for first, last in suppress.codes_in(body[start:end])]
    keep = [number for number, selector in enumerate(selectors) if selector not in dead]
    cuts = []
    if keep[0] > 0:  # the codes before the first one kept, with the separator after them
        cuts.append((codes[0][0], codes[keep[0]][0]))
    cuts += [
        (codes[number - 1][1], codes[number][1])  # a code after one kept: with the separator before it
        for number in range(keep[0] + 1, len(codes))
        if number not in keep
    ]
    return cuts


FAMILY = Family(
    "SUP",
    "suppression comments",
    "suppression",
    (unused_suppression,),
    cites=("ruff", "markdownlint"),
)
