"""CIT: a memory that cites code (`src/app.py:120`, the `.ai-memory` skill's `[文件路径:行号]`) and what that
code is now: the file gone (CIT001), the line past its end (CIT002), the file changed long after
the memory was written (CIT003).

The agent reads a citation as a fact about the code ("the check is at `api/auth.py:35`") and goes
there; the staleness note of Wave and Claude Code warns that "file:line citations may be outdated" because
nothing else checks them. These rules do, against the project the memory belongs to: the folder
an agent session works in (project.py), which is the nearest folder at or above the memory that
holds `.git`, else the linted root. A citation is tried relative to the project, then relative to
the memory's own folder (a nested `AGENTS.md` cites its own subtree). A bare `name.ext:12` is the
file of that name at the project's top or beside the memory, else the project's one file of that
name anywhere; none, or several, and it is not judged.

Precision first: a missing file is reported only where the project could hold it, that is when
the folder the citation names holds other files of the project of the same type (`src/old.py`
where `src/` still holds `.py` files). A memory copied without its code, or one citing another
repository, names folders the project does not have, or has with no such file: nothing is said;
and a citation the memory ties to another codebase (a code host's URL or `owner/repo` on its line,
`upstream`, `in the react repo`, under a heading or a frontmatter saying so) is not resolved
against this project at all, not even a bare name the project happens to have.
Every fact about a cited file (is it there, how many lines, when it changed) is asked of the
`Project`, once per file; a text with no citation costs one fast pass (`citations.may_cite`),
and no git runs unless one is found.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.discover.tree import Tree
from mnemolint.kinds import ai_memory, instructions, memory, rules
from mnemolint.model import INFO, WARNING, Hit
from mnemolint.options import INT, Option
from mnemolint.parse import citations
from mnemolint.parse.document import CITES
from mnemolint.parse.textutil import quote
from mnemolint.paths import inside, repository
from mnemolint.rules.base import MARKED, TREE, Family, rule

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.parse.citations import Citation
    from mnemolint.parse.document import Document
    from mnemolint.project import Project

# The files whose citations an agent takes as facts: what it loads as memory or instructions. Not
# the dated `.ai-memory` logs (a log records what was true that day, and is distilled and removed
# after 30 days), the session JSON lines, nor the user profile (it belongs to no project).
CITING = (
    memory.INDEX,
    memory.TOPIC,
    rules.RULE_FILE,
    instructions.INSTRUCTION_FILE,
    ai_memory.PROJECT_MEMORY,
    ai_memory.HANDOFF,
)

MAX_AGE = Option(
    "citation-max-age-days",
    INT,
    30,
    "days a cited file may go on changing after the memory citing it was last written before CIT003 "
    "reports the citation as stale (30: the `.ai-memory` skill's age for distilling dated notes)",
)
_DAY = 86_400


class Cited:
    """A citation of one memory, resolved: `rel` is the cited file relative to `project` (None
    when it is not there), `judged` whether the project could hold it at all."""

    __slots__ = ("document", "citation", "project", "rel", "judged")

    def __init__(self, document: Document, citation: Citation, project: Project, rel: str | None, judged: bool):
        self.document = document
        self.citation = citation
        self.project = project
        self.rel = rel
        self.judged = judged

    def hit(self, message: str) -> Hit:
        return Hit(message, path=self.document.path, line=self.citation.row, column=self.citation.column)

    @property
    def written(self) -> str:
        return quote(self.citation.written)


def resolved(tree: Tree) -> list[Cited]:
    """Every citation of the memories in focus, resolved: computed once per run."""
    return tree.derived("citations", _resolve_all)


def _resolve_all(tree: Tree) -> list[Cited]:
    found: list[Cited] = []
    for document in tree.documents:
        if document.kind not in CITING or not tree.in_focus(document.path):
            continue
        if not document.holds(CITES):  # known from the cache for an unchanged file, without reading it
            continue
        cites = citations.find(document.lines)
        if cites:
            project = tree.project_at(_project_folder(tree, document.path))
            found.extend(_resolve(tree, document, citation, project) for citation in cites)
    return found


def _project_folder(tree: Tree, path: str) -> str:
    """The folder an agent session that reads this memory works in: the nearest one holding
    `.git` (a repository or a linked worktree), else the linted root (else the memory's folder)."""
    folder = os.path.dirname(path)
    found = repository(folder)
    if os.path.exists(os.path.join(found, ".git")):
        return found
    return tree.root if inside(path, tree.root) else folder


def _resolve(tree: Tree, document: Document, citation: Citation, project: Project) -> Cited:
    """Where the citation leads: relative to the project, then to the memory's own folder, and for
    a bare name the project's only file of that name; nowhere, and not judged, when the memory
    says it cites another codebase (`Citation.foreign`)."""
    if citation.foreign:
        return Cited(document, citation, project, None, False)
    kept = _kept(tree, project)
    bare = "/" not in citation.path
    judged = False
    own = os.path.relpath(os.path.dirname(document.path), project.path).replace(os.sep, "/")
    for base in ("", own) if own != "." and not own.startswith("../") else ("",):
        rel = os.path.normpath(os.path.join(base, citation.path)).replace(os.sep, "/")
        if project.has(rel):
            return Cited(document, citation, project, rel, True)
        judged = judged or (not bare and _place(rel) in kept)
    if bare:  # never reported missing: it may name a file of another project
        found = tree.derived(f"citation names {project.path}", lambda tree: _names(project)).get(citation.path, ())
        only = found[0] if len(found) == 1 else None
        return Cited(document, citation, project, only, only is not None)
    return Cited(document, citation, project, None, judged)


def _names(project: Project) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for rel in project.files():
        names.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
    return names


def _kept(tree: Tree, project: Project) -> set[tuple[str, str]]:
    """Each (folder, extension) of the project's files, relative to it: where it keeps files of
    which type (`("src", ".py")`)."""

    def make(tree: Tree) -> set[tuple[str, str]]:
        return {_place(rel) for rel in project.files()}

    return tree.derived(f"citation places {project.path}", make)


def _place(rel: str) -> tuple[str, str]:
    folder, _, name = rel.rpartition("/")
    return folder, os.path.splitext(name)[1]


@rule(
    "CIT001",
    "citation-missing-file",
    WARNING,
    reads=TREE,
    reads_members=MARKED,
    summary="A memory cites `path/file.ext:123` and that file is not in the project.",
)
def citation_missing_file(tree: Tree, options: dict) -> Iterator[Hit]:
    reported: set[tuple[str, str]] = set()
    for cited in resolved(tree):
        key = (cited.document.path, cited.citation.path)
        if cited.rel is None and cited.judged and key not in reported:
            reported.add(key)
            yield cited.hit(
                f"`{cited.written}` cites `{quote(cited.citation.path)}`, which is not in the project: it was moved, "
                "renamed or deleted since this was written, and an agent that trusts the memory looks for code "
                "that is gone. Point the citation at where the code is now, or drop it."
            )


@rule(
    "CIT002",
    "citation-line-out-of-range",
    WARNING,
    reads=TREE,
    reads_members=MARKED,
    summary="A memory cites a line (or a range) past the end of the cited file.",
)
def citation_line_out_of_range(tree: Tree, options: dict) -> Iterator[Hit]:
    for cited in resolved(tree):
        last = cited.citation.last
        if cited.rel is None or last is None:
            continue
        lines = cited.project.line_count(cited.rel)
        if lines is not None and last > lines:
            line = cited.citation.line or 0
            what = f"line {last:,}" if cited.citation.end is None else f"lines {line:,}-{last:,}"
            yield cited.hit(
                f"`{cited.written}` cites {what}, but `{quote(cited.rel)}` has {lines:,} line"
                f"{'' if lines == 1 else 's'}: the code moved since this was written, and the agent reads the wrong "
                "lines. Cite where the code is now (a function or heading name outlives a line number)."
            )


@rule(
    "CIT003",
    "stale-citation",
    INFO,
    reads=TREE,
    reads_members=MARKED,
    summary="A memory cites a file that changed more than {citation-max-age-days} days after the memory "
    "was last written.",
    options=(MAX_AGE,),
)
def stale_citation(tree: Tree, options: dict) -> Iterator[Hit]:
    limit = options[MAX_AGE.name] * _DAY
    first: dict[tuple[str, str], Cited] = {}
    for cited in resolved(tree):
        if cited.rel is not None:
            first.setdefault((cited.document.path, cited.rel), cited)
    by_project: dict[str, list[Cited]] = {}
    for cited in first.values():
        by_project.setdefault(cited.project.path, []).append(cited)
    for group in by_project.values():
        project = group[0].project
        memories = {cited.document.path: project.relative(cited.document.path) for cited in group}
        wanted = sorted({cited.rel for cited in group if cited.rel} | {rel for rel in memories.values() if rel})
        dates = project.last_changes(wanted)
        for cited in group:
            written, changed = dates.get(memories[cited.document.path] or ""), dates.get(cited.rel or "")
            if written is None or changed is None or changed - written <= limit:
                continue
            yield cited.hit(
                f"`{cited.written}`: `{quote(cited.rel or '')}` last changed on {_day(changed)}, "
                f"{int((changed - written) // _DAY):,} days after this memory was last written ({_day(written)}; "
                f"`{MAX_AGE.name}`: {options[MAX_AGE.name]:,}): what it says about that code may no longer hold. "
                "Check the citation against the code and update the memory (saving it again clears this)."
            )


def _day(seconds: float) -> str:
    import datetime as _dt  # only when a finding is worded: not on every run's import path

    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).date().isoformat()


FAMILY = Family(
    "CIT",
    "citations",
    "citations",
    (citation_missing_file, citation_line_out_of_range, stale_citation),
    precision={"CIT001": "high", "CIT002": "high", "CIT003": "medium"},
    cites=("memoryAge.ts", "Wave"),
)
