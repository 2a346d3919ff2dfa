"""`check --fix` and `--diff`: apply the findings' fixes until none applies, then write each file once.

Fixes are text edits with an applicability (ruff's model). Each round lints with the text fixed
so far standing in for the files, and applies every enabled fix whose edits overlap none already
taken (an overlapping one waits for the next round, on the new text); the rounds stop when one
changes nothing. Only then is each changed file written, once, through `writer.publish`. If a
file changed on disk since it was read, everything is computed again from what is on disk
instead of clobbering it. What could not be fixed, and why, is reported as findings.
"""

from __future__ import annotations

import os
import sys
from bisect import bisect_left, insort
from collections.abc import Callable

from mnemolint.config import Settings
from mnemolint.engine import Result, lint
from mnemolint.fix import writer
from mnemolint.model import ERROR, UNSAFE, Diagnostic, Edit, Hit, severity_rank

MAX_ROUNDS = 10  # the rules' fixes settle in two or three; more means fixes that fight
MAX_ATTEMPTS = 3  # computations started over because a file changed on disk meanwhile

Fixes = list[tuple[Diagnostic, tuple[Edit, ...]]]
# What a round applies: the edits by the file they change (with its text, None when it does not
# exist yet), and `(finding, file, reason)` for each that cannot be made. `_plan` takes the
# findings' own fixes; `add_suppressions.plan` writes a suppression comment for each instead.
Planner = Callable[[Result, bool], tuple[dict[str, tuple[str | None, Fixes]], list[tuple]]]


class Outcome:
    """What a fix run did. `diagnostics`: the findings that remain, plus one finding per file that
    could not be written and per reason a fix could not be made; `changes`: each changed file's
    text before (None: it did not exist) and after; `fixed`: the findings fixed."""

    __slots__ = ("result", "diagnostics", "fixed", "changes")

    def __init__(
        self,
        result: Result,
        diagnostics: list[Diagnostic],
        fixed: list[Diagnostic],
        changes: dict[str, tuple[str | None, str]],
    ) -> None:
        self.result = result
        self.diagnostics = diagnostics
        self.fixed = fixed
        self.changes = changes


class _Computed:
    """Every fix applied in memory: the fixed texts and what they were before, and the fixes that
    could not be made on `result` (None until a round has planned on it)."""

    def __init__(self, result: Result, plan: Planner) -> None:
        self.result = result
        self.plan = plan
        self.texts: dict[str, str] = {}
        self.originals: dict[str, str | None] = {}
        self.fixed: dict[str, list[Diagnostic]] = {}
        self.unavailable: list[tuple] | None = None

    def changes(self, paths: list[str]) -> dict[str, tuple[str | None, str]]:
        return {path: (self.originals[path], self.texts[path]) for path in paths}

    def unfixable(self, result: Result, unsafe: bool) -> list[Diagnostic]:
        """The findings about fixes that cannot be made on `result`; planned again only when the
        last round did not plan on that very result (it generates every index line anew)."""
        unavailable = self.unavailable
        if result is not self.result or unavailable is None:
            unavailable = self.plan(result, unsafe)[1]
        return _unfixable(unavailable)


def fix(
    paths: list[str], settings: Settings, *, unsafe: bool = False, write: bool = True, plan: Planner | None = None
) -> Outcome:
    """Fix what the findings on `paths` allow (unsafe fixes too when asked), and write it unless
    `write` is False (`--diff`, `index --check`); `plan` makes the edits instead of the fixes."""
    fixed: list[Diagnostic] = []
    changes: dict[str, tuple[str | None, str]] = {}
    notes: list[Diagnostic] = []
    refused: set[str] = set()
    for _ in range(MAX_ATTEMPTS):
        computed = _compute(paths, settings, unsafe, plan or _plan)
        if not write:
            return _dry_run(computed, paths, settings, unsafe)
        conflicts, unwritten = [], set(computed.texts)
        for path in sorted(computed.texts.keys() - refused):
            original = computed.originals[path]
            expected = None if original is None else original.encode("utf-8")
            try:
                writer.publish(path, computed.texts[path], expected, computed.result.tree.root)
            except writer.Changed as changed:
                conflicts.append((path, str(changed)))
            except writer.NotWritten as error:
                refused.add(path)
                notes.append(_note(computed.fixed[path][0], path, f"Not fixed: {error}.", ERROR))
            else:
                unwritten.discard(path)
                fixed.extend(computed.fixed[path])
                changes.update(computed.changes([path]))
        if not conflicts:
            break
    else:
        for path, reason in conflicts:
            message = f"Not fixed: {reason}, on each of {MAX_ATTEMPTS} attempts; run --fix again."
            notes.append(_note(computed.fixed[path][0], path, message, ERROR))
    # The last round linted what was written; only a file left as it was needs another look.
    result = lint(paths, settings) if unwritten else computed.result
    notes.extend(computed.unfixable(result, unsafe))
    return Outcome(result, sorted(result.diagnostics + notes, key=Diagnostic.sort_key), fixed, changes)


def _dry_run(computed: _Computed, paths: list[str], settings: Settings, unsafe: bool) -> Outcome:
    """What `--fix` would do, less the files its writer would refuse (reported as it would), with
    the findings that would remain counted as `--fix` counts them."""
    root = computed.result.tree.root
    notes, fixed, writable = [], [], []
    for path in sorted(computed.texts):
        try:
            writer.preflight(path, root)
        except writer.NotWritten as error:
            notes.append(_note(computed.fixed[path][0], path, f"Not fixed: {error}.", ERROR))
        else:
            writable.append(path)
            fixed.extend(computed.fixed[path])
    result = computed.result
    if len(writable) < len(computed.texts):  # a refused file keeps its findings
        result = lint(paths, settings, {path: computed.texts[path] for path in writable})
    notes.extend(computed.unfixable(result, unsafe))
    diagnostics = sorted(result.diagnostics + notes, key=Diagnostic.sort_key)
    return Outcome(result, diagnostics, fixed, computed.changes(writable))


def _compute(paths: list[str], settings: Settings, unsafe: bool, plan: Planner) -> _Computed:
    """Lint and apply fixes in memory, round after round, until a round changes nothing."""
    computed = _Computed(lint(paths, settings), plan)
    for _ in range(MAX_ROUNDS):
        if not _apply_round(computed, unsafe):
            return computed
        computed.result, computed.unavailable = lint(paths, settings, computed.texts), None
    print(f"mnemolint: fixes still changed files after {MAX_ROUNDS} rounds; stopped there", file=sys.stderr)
    return computed


def _apply_round(computed: _Computed, unsafe: bool) -> bool:
    targets, computed.unavailable = computed.plan(computed.result, unsafe)
    changed = False
    for path, (text, fixes) in targets.items():
        new, applied = apply_edits(text or "", [edits for _, edits in fixes])
        if new == (text or ""):
            continue
        computed.originals.setdefault(path, text)
        computed.texts[path] = new
        computed.fixed.setdefault(path, []).extend(fixes[number][0] for number in applied)
        changed = True
    return changed


def _plan(result: Result, unsafe: bool) -> tuple[dict[str, tuple[str | None, Fixes]], list[tuple]]:
    """The enabled fixes by the file they edit (with its text, None when it does not exist yet),
    and `(finding, file, reason)` for each fix that cannot be made."""
    documents = {document.path: document for document in result.tree.documents}
    targets: dict[str, tuple[str | None, Fixes]] = {}
    unavailable = []
    for diagnostic in result.diagnostics:
        fix = diagnostic.fix
        if fix is None or (fix.applicability == UNSAFE and not unsafe):
            continue
        path = fix.path or diagnostic.path
        document = documents.get(path)
        if document is None and os.path.lexists(path):
            edits: tuple[Edit, ...] | str = "the file exists but was not linted (excluded?), so it is not rewritten"
        elif document is not None and (document.text is None or document.decode_error):
            edits = "the file is not readable UTF-8 text (see TXT002, NST002), so it is not rewritten"
        else:
            edits = fix.compute()
            if not isinstance(edits, str) and writes_secret(edits, document.text if document is not None else None):
                edits = "it would write credential-shaped text that the file does not hold (see SEC001)"
        if isinstance(edits, str):
            unavailable.append((diagnostic, path, edits))
        elif edits:
            text = document.text if document is not None else None
            targets.setdefault(path, (text, []))[1].append((diagnostic, edits))
    return targets, unavailable


def writes_secret(edits: tuple[Edit, ...], text: str | None) -> bool:
    """Whether `edits` insert a credential-shaped span that `text` does not already hold: what a
    fix writes is printed by `--diff` masked, so it must never be a secret of its own."""
    from mnemolint.redact import find_secrets

    return any(
        edit.content[secret.start : secret.end] not in (text or "")
        for edit in edits
        for secret in find_secrets(edit.content)
    )


def apply_edits(text: str, fixes: list[tuple[Edit, ...]]) -> tuple[str, list[int]]:
    """Apply each fix, in order of position, whose edits overlap none already taken; a fix identical
    to one taken counts as applied too. Returns the new text and the numbers of the fixes applied.

    Edits that only touch (a deletion ending where another starts, insertions at one point) do not
    overlap; insertions at one point keep the order of their fixes.
    """
    taken: list[Edit] = []  # sorted by (start, end), hence by end too: they never overlap
    seen: set[tuple] = set()
    applied = []
    for number in sorted(range(len(fixes)), key=lambda n: min(edit.start for edit in fixes[n])):
        edits = fixes[number]
        key = tuple((edit.start, edit.end, edit.content) for edit in edits)
        if key not in seen:
            if any(_overlaps(taken, edit) for edit in edits):
                continue
            for edit in edits:
                insort(taken, edit, key=_span)
            seen.add(key)
        applied.append(number)
    pieces, position = [], 0
    for edit in taken:
        pieces += [text[position : edit.start], edit.content]
        position = edit.end
    pieces.append(text[position:])
    return "".join(pieces), applied


def _span(edit: Edit) -> tuple[int, int]:
    return edit.start, edit.end


def _overlaps(taken: list[Edit], edit: Edit) -> bool:
    """Whether `edit` shares a character with a taken edit, or inserts inside one."""
    before = bisect_left(taken, edit.end, key=lambda other: other.start)  # those starting before its end
    return before > 0 and taken[before - 1].end > edit.start


def _unfixable(unavailable: list[tuple]) -> list[Diagnostic]:
    """One finding per file, reason and rule for the fixes that cannot be made, naming their
    findings (under their own rule's code): the topics that do not fit the index's budget are
    listed in one."""
    groups: dict[tuple[str, str, str], list[Diagnostic]] = {}
    for diagnostic, path, reason in unavailable:
        groups.setdefault((path, reason, diagnostic.code), []).append(diagnostic)
    notes = []
    for (path, reason, _), found in groups.items():
        where = ", ".join(_where(diagnostic, path) for diagnostic in found)
        worst = max((diagnostic.severity for diagnostic in found), key=severity_rank)
        notes.append(_note(found[0], path, f"Not fixed by --fix ({where}): {reason}.", worst))
    return notes


def _where(diagnostic: Diagnostic, path: str) -> str:
    if diagnostic.path == path:
        return f"line {diagnostic.line}" if diagnostic.line else f"`{os.path.basename(path)}`"
    return f"`{os.path.relpath(diagnostic.path, os.path.dirname(path)).replace(os.sep, '/')}`"


def _note(finding: Diagnostic, path: str, message: str, severity: str) -> Diagnostic:
    """A finding about the fix of `finding`, under its code, on the file the fix was to change."""
    return Diagnostic(finding.code, finding.name, severity, path, Hit(message))


def unified_diff(changes: dict[str, tuple[str | None, str]]) -> str:
    """`git diff`-style text of `changes`, paths relative to the current directory.

    The diff is made of the real lines; each line is then printed from the redacted text
    (`redact.redact` keeps lines), so a change next to a credential shows without showing it, and
    with its control characters escaped (tabs and line endings kept, so a plain file's diff still
    applies). It still shows exactly what lands: no fix writes credential-shaped text the file does
    not already hold (`generate.entry` leaves it out of every line it makes, and `_plan` refuses
    any other fix that would), so a `***` on an added line stands for text the file has already,
    masked on the line it comes from too.
    """
    import difflib

    from mnemolint.redact import redact
    from mnemolint.report import display_path

    out = []
    for path in sorted(changes):
        before, after = changes[path]
        name = display_path(path)
        source = "/dev/null" if before is None else f"a/{name}"
        shown = {"-": _lines(redact(before or "")), "+": _lines(redact(after))}
        at = {"-": 0, "+": 0}  # the next line of each side
        lines = difflib.unified_diff(_lines(before or ""), _lines(after), source, f"b/{name}")
        out += [next(lines, ""), next(lines, "")]  # the `---` and `+++` lines
        for line in lines:
            if line.startswith("@@"):
                for side, start in zip("-+", line.split()[1:3], strict=False):
                    at[side] = max(int(start[1:].partition(",")[0]) - 1, 0)
            else:
                sides = "-+" if line[0] == " " else line[0]
                line = line[0] + _printable(shown[sides[0]][at[sides[0]]])
                for side in sides:
                    at[side] += 1
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _printable(line: str) -> str:
    """A file's line for the terminal: control characters escaped but its tabs and its ending."""
    from mnemolint.parse.textutil import visible

    body = line.rstrip("\n")
    body = body[:-1] if body.endswith("\r") else body
    return visible(body, keep="\t") + line[len(body) :]


def _lines(text: str) -> list[str]:
    """Lines split on \\n only (a CR stays in its line), each with its ending."""
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
