"""GIT0xx: the `.gitignore` lines that keep personal `.ai-memory` logs out of git and the shared
files in it (the `.ai-memory` skill's version control: `.ai-memory/*/` ignored, `project_memory.md` and
`handoff.md` committed).

Ignore status is git's, from every `.gitignore` between the top of the work tree (or the project,
outside one) and the file (`kinds/gitignore.py`); what git already tracks is `git ls-files`,
asked only inside a work tree. The fixes edit the project's `.gitignore` (created when absent)
and are offered only when the edited file, evaluated again, gives the seed's outcome.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint import clock
from mnemolint.kinds.ai_memory import AI_MEMORY_DIR, DATED, DIR_NAME, SHARED_NAMES, AiMemoryDir, project_dirs
from mnemolint.kinds.gitignore import GITIGNORE, NAME, Ignores, Verdict, not_read
from mnemolint.model import ERROR, SAFE, WARNING, Edit, Fix, Hit
from mnemolint.options import NOW
from mnemolint.parse.textutil import dominant_eol, plural, quote
from mnemolint.paths import upwards
from mnemolint.rules.base import TREE, Family, rule

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.discover.tree import Tree

# The lines the `.ai-memory` skill asks for ("`.gitignore` 建议添加"), relative to the project root.
SEED_LINES = (f"{DIR_NAME}/*/", *(f"!{DIR_NAME}/{name}" for name in SHARED_NAMES))
_LOG_NAMES = ("daily.md", "topics.md")


class _Project:
    """An `.ai-memory/` in a project, and the ignore rules that govern it."""

    __slots__ = ("container", "ignores", "gitignore")

    def __init__(self, container: AiMemoryDir, tree: Tree, options: dict) -> None:
        self.container = container
        top = container.project
        if container.git_top:  # the same directory by the name the walk used
            top = next((d for d in upwards(container.project) if os.path.realpath(d) == container.git_top), top)
        texts = {document.path: document.text for document in tree.documents if document.kind is GITIGNORE}
        self.ignores = Ignores(top, texts, options)
        self.gitignore = os.path.join(container.project, NAME)

    def logs(self, today: str) -> list[str]:
        """The personal files: those in its dated folders, and the seed's names in each (in today's
        folder when it has none yet, since the skill creates it on the first write)."""
        container = self.container
        names = container.dated or [today]
        found = {os.path.join(container.path, name, log) for name in names for log in _LOG_NAMES}
        found |= {os.path.join(container.path, name, f"session_memory_{name}-0000.jsonl") for name in names}
        found |= {document.path for document in container.documents if document.rel.partition("/")[0] in names}
        return sorted(found)

    def shared(self) -> list[str]:
        return [os.path.join(self.container.path, name) for name in SHARED_NAMES]

    def appended(self, lines: list[str]) -> tuple[Edit, str]:
        """The edit that appends `lines` to the project's `.gitignore`, and the text it makes."""
        text = self.ignores.text(self.gitignore) or ""
        eol = dominant_eol(text.split("\n")) if text else "\n"
        addition = ("" if not text or text.endswith("\n") else eol) + "".join(line + eol for line in lines)
        return Edit(len(text), len(text), addition), text + addition

    def outcome(self, ignores: Ignores, today: str) -> bool:
        """Whether `ignores` give the seed's outcome: every log ignored, every shared file not."""
        return all(ignores.check(path).ignored for path in self.logs(today)) and not any(
            ignores.check(path).ignored for path in self.shared()
        )


# Why a `.gitignore` that is no regular file ignores nothing, for git and for mnemolint alike.
_UNREAD = {
    True: "which git does not read (it opens a `.gitignore` without following links, since git 2.32) and "
    "mnemolint did not read either",
    False: "not a file: git would wait on it, and mnemolint did not read it",
}
_REGULAR = f"Replace it with a regular file holding `{SEED_LINES[0]}` with the two `!` lines after it."


def _projects(tree: Tree, options: dict) -> list[_Project]:
    """The tree's projects with an `.ai-memory`, each with its ignore rules: read once a run, for
    GIT001 and GIT002 alike."""
    return tree.derived(
        "gitignore projects", lambda tree: [_Project(each, tree, options) for each in project_dirs(tree.containers)]
    )


def _today(options: dict) -> str:
    return f"{clock.now(options['now']).date():%Y%m%d}"


def _shown(project: _Project, path: str) -> str:
    return os.path.relpath(path, project.container.project).replace(os.sep, "/")


def _line_of(verdict: Verdict) -> str:
    source = verdict.source
    return f"`{quote(source.pattern, 60)}` (line {source.line})" if source else ""


@rule(
    "GIT001",
    "ai-memory-logs-not-ignored",
    WARNING,
    reads=TREE,
    needs=(AI_MEMORY_DIR,),  # `project_dirs`
    reads_members=False,
    summary="Dated `.ai-memory` logs (daily.md, topics.md, session files) are not ignored by git.",
    fix=SAFE,
    options=(NOW,),
)
def logs_not_ignored(tree: Tree, options: dict) -> Iterator[Hit]:
    today = ""  # asked of the clock only when there is a project: most runs never import datetime
    for project in _projects(tree, options):
        today = today or _today(options)
        open_logs = [
            (path, verdict) for path in project.logs(today) if not (verdict := project.ignores.check(path)).ignored
        ]
        if not open_logs:
            continue
        folders = sorted({os.path.dirname(path) for path, _ in open_logs})
        if not project.container.dated:  # only the folder the skill will create: named by its pattern
            folders = [os.path.join(project.container.path, "YYYYMMDD")]
        shown = ", ".join(f"`{_shown(project, folder)}/`" for folder in folders[:3])
        more = f" and {plural(len(folders) - 3, 'more folder')}" if len(folders) > 3 else ""
        source = next((verdict.source for _, verdict in open_logs if verdict.source), None)
        because = f" `{quote(source.pattern, 60)}` re-includes them." if source else ""
        held = {line.strip() for line in (project.ignores.text(project.gitignore) or "").split("\n")}
        missing = [line for line in SEED_LINES if line not in held]
        fix = None
        unread = not_read(project.gitignore)
        advice = f"Add `{SEED_LINES[0]}` with the two `!` lines after it."
        if unread:  # no fix writes there: the writer never writes through a link nor into a FIFO
            advice = f"The project's `{NAME}` is {unread}, {_UNREAD[unread == 'a symlink']}. {_REGULAR}"
        elif missing:
            edit, text = project.appended(missing)
            if project.outcome(project.ignores.with_text(project.gitignore, text), today):
                fix = Fix(SAFE, f"Append {', '.join(missing)} to {NAME}", (edit,), path=project.gitignore)
        yield Hit(
            f"{shown}{more} not ignored: their logs would be committed, and dated .ai-memory logs hold personal "
            f"context, not for the team (the `.ai-memory` skill's version-control rules).{because} {advice}",
            path=source.path if source else project.gitignore,
            line=source.line if source else None,
            fix=fix,
        )


@rule(
    "GIT002",
    "shared-memory-ignored",
    WARNING,
    reads=TREE,
    needs=(AI_MEMORY_DIR,),  # `project_dirs`
    reads_members=False,
    summary="`.ai-memory/project_memory.md` or `handoff.md` is ignored by git, so the team never gets it.",
    fix=SAFE,
    options=(NOW,),
)
def shared_memory_ignored(tree: Tree, options: dict) -> Iterator[Hit]:
    for project in _projects(tree, options):
        ignored = [(path, verdict) for path in project.shared() if (verdict := project.ignores.check(path)).ignored]
        if not ignored:
            continue
        fix = _share_fix(project, [path for path, _ in ignored], ignored[0][1], _today(options))
        for path, verdict in ignored:
            source = verdict.source
            yield Hit(
                f"`{_shown(project, path)}` is ignored by {_line_of(verdict)}: it must be committed so every machine "
                "and IDE restores from it (the `.ai-memory` skill's version-control rules). Ignore "
                "`.ai-memory/*/` instead of the "
                "whole directory: git never re-includes a file inside an ignored directory.",
                path=source.path if source else project.gitignore,
                line=source.line if source else None,
                fix=fix,
            )


def _share_fix(project: _Project, paths: list[str], verdict: Verdict, today: str) -> Fix | None:
    """Append `!` lines when they are enough; else, when the line responsible is in the project's
    `.gitignore`, keep it as a comment and put the seed's lines in its place."""
    lines = ["!" + _shown(project, path) for path in paths]
    edit, text = project.appended(lines)
    if project.outcome(project.ignores.with_text(project.gitignore, text), today):
        return Fix(SAFE, f"Append {', '.join(lines)} to {NAME}", (edit,), path=project.gitignore)
    source = verdict.source
    current = project.ignores.text(project.gitignore)
    if source is None or source.path != project.gitignore or current is None:
        return None
    pieces = current.split("\n")
    start = sum(len(piece) + 1 for piece in pieces[: source.line - 1])
    written = pieces[source.line - 1]
    eol = "\r" if written.endswith("\r") else ""  # the line's own ending, kept on each new line
    body = written[: len(written) - len(eol)]
    replacement = (eol + "\n").join((f"# {body}", *SEED_LINES)) + eol
    new = current[:start] + replacement + current[start + len(written) :]
    if not project.outcome(project.ignores.with_text(project.gitignore, new), today):
        return None
    return Fix(
        SAFE,
        f"Comment out `{body}` and ignore `{SEED_LINES[0]}` with the shared files re-included",
        (Edit(start, start + len(written), replacement),),
        path=project.gitignore,
    )


@rule(
    "GIT003",
    "personal-log-tracked",
    ERROR,
    reads=TREE,
    needs=(AI_MEMORY_DIR,),  # `project_dirs`
    reads_members=False,
    summary="A dated `.ai-memory` log is already tracked by git (`git ls-files`).",
)
def personal_log_tracked(tree: Tree, options: dict) -> Iterator[Hit]:
    import shlex

    for container in project_dirs(tree.containers):
        for rel in container.tracked:
            folder = rel.partition("/")[0]
            if "/" not in rel or not DATED.fullmatch(folder):
                continue
            path = os.path.join(container.path, *rel.split("/"))
            command = f"git rm --cached -- {shlex.quote(f'{DIR_NAME}/{rel}')}"
            yield Hit(
                f"This dated log is tracked by git: its personal context goes to everyone who clones the project "
                f"(the `.ai-memory` skill's version-control rules). Run `{command}` in the project root, then "
                f"ignore `{SEED_LINES[0]}`.",
                path=path,
            )


FAMILY = Family(
    "GIT",
    "`.gitignore` of `.ai-memory`",
    "version-control",
    (logs_not_ignored, shared_memory_ignored, personal_log_tracked),
)
