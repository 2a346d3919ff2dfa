"""GEM: what Gemini CLI really loads of a project's context files (`GEMINI.md`, or the names its
`context.fileName` setting gives) and their `@path` imports, as its own import processor expands
them (the facts are agents/gemini_cli.py's, recorded from the client; kinds/gemini.py applies them).

Gemini CLI does not drop a broken import silently: it sends a note in its place, and the `@path`
text is gone from what the model reads. An `@word` that was meant as a mention, an import that
leads out of the project, one five levels down, a cycle: each is sent as something other than what
the file says, and only these rules say so. A session here is one started at the linted root,
which is what a project's own files can be judged by.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents import gemini_cli as gemini
from mnemolint.discover.tree import Tree
from mnemolint.kinds.gemini import SETTINGS_REL, GeminiSession, Loaded
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.parse.document import Document
from mnemolint.paths import dangerous_link, inside, sensitive_place
from mnemolint.rules.base import TREE, Family, rule

CLIENT = f"Gemini CLI {gemini.VERSION}"
PREVIEW = "measured on the 19 recorded Gemini CLI 0.61.0 cases only, not yet on held-out repositories"
AGENTS_MD = "AGENTS.md"
TRAILING = ".,:;!?)"  # punctuation a sentence puts after a path, which the path then takes in


class Context:
    """What a Gemini CLI session at the linted root loads, and the project's context files it never
    does: computed once per run for the GEM rules."""

    __slots__ = ("session", "loaded", "unreached")

    def __init__(self, tree: Tree) -> None:
        self.session = GeminiSession(tree.root, tree.options)
        start = self.session.start()
        seen = {entry.path for entry in start}
        self.loaded: list[Loaded] = [entry for entry in start if inside(entry.path, tree.root)]
        self.unreached: list[tuple[str, str]] = []  # (path, why)
        for path in context_files(tree, self.session.names):
            if path in seen:
                continue
            for entry in self.session.touch(os.path.dirname(path)):
                if entry.path not in seen:
                    seen.add(entry.path)
                    self.loaded.append(entry)
            if path not in seen:
                why = self.session.ignored(os.path.dirname(path))
                self.unreached.append((path, why or "no read below the session folder reaches it"))

    def imports(self, tree: Tree, outcomes: tuple[str, ...]) -> Iterator[gemini.Import]:
        """The imports met in the loaded files, of these outcomes, each place once."""
        seen: set[tuple[str, int, int]] = set()
        for entry in self.loaded:
            for found in entry.expanded.imports if entry.expanded is not None else ():
                key = (found.file, found.line, found.column)
                if found.outcome in outcomes and key not in seen and inside(found.file, tree.root):
                    seen.add(key)
                    yield found


def context_files(tree: Tree, names: list[str]) -> list[str]:
    """The project's files named as Gemini CLI's context files, in the walk's order."""
    suffixes = tuple("/" + name.replace(os.sep, "/") for name in names)
    return [path for path in tree.files if path.replace(os.sep, "/").endswith(suffixes)]


def _context(tree: Tree) -> Context | None:
    """The session's facts, when the project uses Gemini CLI (its traces, or the `agents` setting)."""
    if not tree.project_at(tree.root).uses(gemini.AGENT):
        return None
    return tree.derived("gemini context", Context)


def _met(tree: Tree, *outcomes: str) -> Iterator[gemini.Import]:
    """The imports of these outcomes in the files a session loads (none where Gemini CLI is not used)."""
    context = _context(tree)
    return context.imports(tree, outcomes) if context else iter(())


def _shown(path: str, tree: Tree) -> str:
    return os.path.relpath(path, tree.root).replace(os.sep, "/")


def _hit(found: gemini.Import, message: str) -> Hit:
    return Hit(message, path=found.file, line=found.line, column=found.column)


def _chain(found: gemini.Import, tree: Tree) -> str:
    return " → ".join(_shown(step, tree) for step in (*found.chain, found.target))


@rule(
    "GEM001",
    "import-not-found",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="An `@path` Gemini CLI takes for an import finds no file: a failure note replaces the text.",
    preview=PREVIEW,
)
def import_not_found(tree: Tree, options: dict) -> Iterator[Hit]:
    for found in _met(tree, gemini.FAILED):
        what = "is a folder" if os.path.isdir(found.target) else "does not exist"
        stem = found.written.rstrip(TRAILING)
        meant = found.target[: len(found.target) - (len(found.written) - len(stem))]
        if stem != found.written and stem and os.path.isfile(meant):
            mark = found.written[len(stem) :]
            hint = f" `{stem}` exists: the `{mark}` after it is part of the path; put a space before it."
        elif "/" in found.written or "." in found.written:
            hint = ""
        else:
            hint = (
                f" If `@{found.written}` is a mention, write it in backticks or without the `@` at the start of a word."
            )
        yield _hit(
            found,
            f"`@{found.written}` reads as an import of `{_shown(found.target, tree)}`, which {what}: {CLIENT} "
            f"sends a note that the import failed in its place, so the model gets neither the file nor the "
            f"text `@{found.written}`.{hint}",
        )


@rule(
    "GEM002",
    "import-outside-project",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="An `@path` import that leads outside the project, or an URL: Gemini CLI refuses it.",
    preview=PREVIEW,
)
def import_outside_project(tree: Tree, options: dict) -> Iterator[Hit]:
    for found in _met(tree, gemini.OUTSIDE):
        top = found.chain[0] if found.chain else found.file
        root = gemini.git_root(os.path.dirname(top)) or os.path.dirname(top)
        shown = _shown(root, tree)
        if gemini.URL.match(found.written):
            where = "is an URL, which it never imports"
        elif os.path.exists(os.path.join(root, ".git")):
            where = f"leads outside the git repository at `{shown}` (links followed)"
        else:
            where = (
                f"leads outside `{shown}`, the folder of `{_shown(top, tree)}` (with no git repository above it, "
                "the only folder imports may come from)"
            )
        yield _hit(
            found,
            f"`@{found.written}` {where}: {CLIENT} refuses the import as a path traversal and sends a note in its "
            "place. Import a file inside that folder instead.",
        )


@rule(
    "GEM003",
    "import-too-deep",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary=f"An `@path` import more than {gemini.IMPORT_DEPTH} levels down: Gemini CLI sends it as text.",
    preview=PREVIEW,
)
def import_too_deep(tree: Tree, options: dict) -> Iterator[Hit]:
    for found in _met(tree, gemini.UNEXPANDED):
        yield _hit(
            found,
            f"`@{found.written}` would be import level {found.depth} ({_chain(found, tree)}): {CLIENT} expands "
            f"{gemini.IMPORT_DEPTH} levels, so it sends this line as the text `@{found.written}`, without the file. "
            "Import it from a file nearer the top.",
        )


@rule(
    "GEM004",
    "import-cycle",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="An `@path` import of a file already on its chain of imports: Gemini CLI sends a note instead.",
    preview=PREVIEW,
)
def import_cycle(tree: Tree, options: dict) -> Iterator[Hit]:
    for found in _met(tree, gemini.REPEATED):
        loop = found.chain[found.chain.index(found.target) :] if found.target in found.chain else found.chain
        shown = " → ".join(_shown(step, tree) for step in (*loop, found.target))
        yield _hit(
            found,
            f"`@{found.written}` leads back to a file already being imported ({shown}): {CLIENT} does not read it "
            "again and sends a note that it was processed already. Remove one import of the cycle.",
        )


@rule(
    "GEM005",
    "import-sensitive",
    ERROR,
    reads=TREE,
    reads_members=False,
    summary="An `@path` import naming a credential or system file: Gemini CLI would send it to the model.",
    preview=PREVIEW,
)
def import_sensitive(tree: Tree, options: dict) -> Iterator[Hit]:
    for found in _met(tree, gemini.UNREAD):
        why = sensitive_place(found.target) or dangerous_link(found.target)
        if why:
            yield _hit(
                found,
                f"`@{found.written}` names {why}: {CLIENT} reads it into every session started here, and the "
                "model provider receives it. mnemolint did not read it. Remove the import.",
            )


@rule(
    "GEM006",
    "context-file-name-missing",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="`context.fileName` names a file that stands in no folder of the project: nothing loads by it.",
    preview=PREVIEW,
)
def context_file_name_missing(tree: Tree, options: dict) -> Iterator[Hit]:
    context = _context(tree)
    if context is None or context.session.setting is None:
        return
    settings, names = context.session.setting
    if not inside(settings, tree.root):
        return  # the user's own settings: judged with their home, not the project
    own = os.path.join(os.path.expanduser("~"), gemini.HOME_DIR)
    text = Document(settings, None, tree.options).text or ""
    for name in dict.fromkeys(name.strip() for name in names):
        known = os.path.normpath(name) if name else ""
        if known in ("", gemini.DEFAULT_NAME):  # it is among the names anyway: none there is no loss
            continue
        if context_files(tree, [known]) or os.path.isfile(os.path.join(own, known)):
            continue
        at = text.find(f'"{name}')
        line = text.count("\n", 0, at) + 1 if at >= 0 else None
        column = at - (text.rfind("\n", 0, at) + 1) + 2 if at >= 0 else None
        yield Hit(
            f"`context.fileName` names `{name}`, which stands in no folder of the project nor in "
            f"`~/.gemini/`: {CLIENT} loads nothing under that name. Fix the name, or remove it.",
            path=settings,
            line=line,
            column=column,
        )


@rule(
    "GEM007",
    "context-file-unreached",
    WARNING,
    reads=TREE,
    reads_members=False,
    summary="A context file below a folder Gemini CLI's tools refuse: a session at the root never loads it.",
    preview=PREVIEW,
)
def context_file_unreached(tree: Tree, options: dict) -> Iterator[Hit]:
    context = _context(tree)
    for path, why in context.unreached if context else ():
        yield Hit(
            f"{CLIENT} adds `{_shown(path, tree)}` only when a tool reads a file below its folder, and its tools "
            f"refuse that folder ({why}): a session started at the project's root never loads it. Un-ignore the "
            "folder for Gemini CLI, or move the instructions to a folder its tools read.",
            path=path,
        )


@rule(
    "GEM008",
    "agents-md-not-read",
    INFO,
    reads=TREE,
    reads_members=False,
    summary="An `AGENTS.md` with no Gemini CLI context file beside it: Gemini CLI does not read it.",
    preview=PREVIEW,
)
def agents_md_not_read(tree: Tree, options: dict) -> Iterator[Hit]:
    context = _context(tree)
    if context is None or AGENTS_MD in context.session.names:
        return
    for path in context_files(tree, [AGENTS_MD]):
        folder = os.path.dirname(path)
        if not any(os.path.isfile(os.path.join(folder, name)) for name in context.session.names):
            yield Hit(
                f"{CLIENT} reads `{gemini.DEFAULT_NAME}` in each folder, and `{AGENTS_MD}` only when "
                f"`context.fileName` names it: this file never reaches Gemini CLI. Add "
                f'`"context": {{"fileName": ["{AGENTS_MD}", "{gemini.DEFAULT_NAME}"]}}` to `{SETTINGS_REL}`.',
                path=path,
            )


FAMILY = Family(
    "GEM",
    "Gemini CLI context files",
    "gemini-cli",
    (
        import_not_found,
        import_outside_project,
        import_too_deep,
        import_cycle,
        import_sensitive,
        context_file_name_missing,
        context_file_unreached,
        agents_md_not_read,
    ),
    cites=("Gemini CLI",),
)
