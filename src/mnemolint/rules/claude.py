"""CLD: what Claude Code really loads of `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`,
`.claude/rules` files and, where it falls back to them, `AGENTS.md` files — their `@path` imports
followed as its loader follows them (parse/imports.py), and the size of each file. The facts are
Claude Code's profile (agents/claude_code.py).

Claude Code drops a broken import without a word: an import that finds no file, that took a
sentence's comma into its path, that sits one level too deep, that closes a cycle or that sits in
code loads nothing, and only these rules say so. An import naming a credential or system file
would send it to the model: mnemolint never reads it and says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents.claude_code import (
    DEFAULT_CHAR_LIMIT,
    DEFAULT_MODEL,
    MAX_BYTES,
    SMALL_WINDOW_CHAR_LIMIT,
    VERSION,
    counted,
)
from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import claude_loads, placed
from mnemolint.kinds.registry import KINDS
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.options import INT, USER_MEMORY, Option
from mnemolint.parse.imports import MAX_DEPTH, TRAILING, Edge, Expansion, Memo, expand, sensitive_target
from mnemolint.parse.textutil import utf16_len
from mnemolint.paths import from_home, inside, repository
from mnemolint.rules.base import TREE, Family, rule

MAX_CHARS = Option(
    "claude-md-max-chars",
    INT,
    DEFAULT_CHAR_LIMIT,
    f"characters of one instruction file above which Claude Code {VERSION} warns, for its default model "
    f"({DEFAULT_MODEL}); {SMALL_WINDOW_CHAR_LIMIT:,} for a model with a 200,000-token context window",
)


# The kinds of file Claude Code loads as instructions: every expansion starts from one of them.
ROOTS = tuple(kind for kind in KINDS if kind.instructions)


def expansions(tree: Tree, options: dict) -> list[Expansion]:
    """Each file Claude Code loads as instructions, with what it imports: computed once per run."""
    home = os.path.expanduser("~") if options.get("user-memory") else None
    return tree.derived(f"claude imports {home}", lambda tree: _expand_all(tree, home))


def _expand_all(tree: Tree, home: str | None) -> list[Expansion]:
    within = repository(tree.root)  # Claude Code's project, for an import that leads out of it
    memo = Memo(tree.options)  # each imported file read and scanned once in the run
    loads = claude_loads(tree.root, {document.path: document for document in tree.documents}, tree.options)
    return [
        expand(document, within, home, memo)
        for document in tree.documents
        if document.kind is not None
        and document.kind.instructions
        and (document.reader.follows_imports or loads(document))
        and document.readable
        and document.size <= MAX_BYTES  # Claude Code skips a larger one whole (NST002 says so)
    ]


def _edges(tree: Tree, options: dict, field: str) -> Iterator[Edge]:
    """The edges of `field` over every expansion, each import once (a file imported by two
    roots has its imports reported once)."""
    seen: set[tuple[str, int, int]] = set()
    for expansion in expansions(tree, options):
        for edge in getattr(expansion, field):
            key = (edge.source, edge.target.line, edge.target.column)
            if key not in seen:
                seen.add(key)
                yield edge


def _shown(path: str, tree: Tree) -> str:
    """`path` relative to the linted root, or to `~` for a file in the home folder outside it."""
    homed = None if inside(path, tree.root) else from_home(path)
    return homed or os.path.relpath(path, tree.root).replace(os.sep, "/")


def _hit(edge: Edge, message: str, severity: str | None = None) -> Hit:
    return Hit(message, path=edge.source, line=edge.target.line, column=edge.target.column, severity=severity)


def _target(edge: Edge) -> str:
    """The file an edge leads to (edges are made only for imports that resolve to a path)."""
    assert edge.target.path is not None
    return edge.target.path


def _stripped(edge: Edge) -> str | None:
    """The path the import probably meant, its trailing punctuation dropped, when that file exists."""
    written, path = edge.target.written, edge.target.path
    stem = written.rstrip(TRAILING)
    if stem == written or not stem or path is None:
        return None
    meant = path[: len(path) - (len(written) - len(stem))]
    return stem if os.path.isfile(meant) else None


@rule(
    "CLD001",
    "import-not-found",
    WARNING,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="An `@path` import that resolves to no file: Claude Code drops it silently.",
    options=(USER_MEMORY,),
)
def import_not_found(tree: Tree, options: dict) -> Iterator[Hit]:
    for edge in _edges(tree, options, "missing"):
        if _stripped(edge) is None:
            written = edge.target.written
            mark = written[len(written.rstrip(TRAILING)) :]
            kept = f" (the `{mark}` after it is part of the path too)" if mark else ""
            yield _hit(
                edge,
                f"`@{written}` resolves to `{_shown(_target(edge), tree)}`, which does not exist{kept} "
                "(the path is relative to this file): Claude Code drops the import silently, so nothing of it "
                "loads.",
            )
    for edge in _edges(tree, options, "outside"):
        yield _hit(
            edge,
            f"`@{edge.target.written}` leads outside the repository: Claude Code imports it only after "
            "external imports are approved for this project, and on a clone it is not there at all; "
            "mnemolint does not read it.",
            severity=INFO,
        )


@rule(
    "CLD002",
    "import-trailing-punctuation",
    WARNING,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="An `@path` import followed by `:` or `,`: the punctuation becomes part of the path.",
    options=(USER_MEMORY,),
)
def import_trailing_punctuation(tree: Tree, options: dict) -> Iterator[Hit]:
    for edge in _edges(tree, options, "missing"):
        meant = _stripped(edge)
        if meant is None:
            continue
        mark = edge.target.written[len(meant) :]
        yield _hit(
            edge,
            f"`@{edge.target.written}` takes the `{mark}` into the path: Claude Code looks for "
            f"`{edge.target.written}`, finds nothing and drops the import silently. `{meant}` exists: "
            f"write `@{meant}` with a space before any punctuation, or on a line of its own.",
        )


@rule(
    "CLD003",
    "import-too-deep",
    WARNING,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary=f"An `@path` import more than {MAX_DEPTH} levels below the file Claude Code starts from: it never loads.",
    options=(USER_MEMORY,),
)
def import_too_deep(tree: Tree, options: dict) -> Iterator[Hit]:
    for expansion in expansions(tree, options):
        for edge, lost in expansion.too_deep:
            chain = " → ".join(_shown(step, tree) for step in (*edge.chain, _target(edge)))
            names = ", ".join(f"`{_shown(path, tree)}`" for path in lost[:5])
            more = f" (+{len(lost) - 5} more)" if len(lost) > 5 else ""
            verb = "loads" if len(lost) == 1 else "load"
            yield _hit(
                edge,
                f"`@{edge.target.written}` would be import level {edge.depth} ({chain}): Claude Code follows "
                f"at most {MAX_DEPTH} nested levels, so {names}{more} never {verb} when it starts from "
                f"`{_shown(expansion.root, tree)}`. Import it from a file nearer the top.",
            )


@rule(
    "CLD004",
    "import-cycle",
    WARNING,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="`@path` imports that lead back to a file already on the chain: the cycle is cut there.",
    options=(USER_MEMORY,),
)
def import_cycle(tree: Tree, options: dict) -> Iterator[Hit]:
    reported: set[frozenset[str]] = set()
    for edge in _edges(tree, options, "cycles"):
        target = os.path.realpath(_target(edge))
        start = next((at for at, step in enumerate(edge.chain) if os.path.realpath(step) == target), 0)
        loop = edge.chain[start:]
        members = frozenset(os.path.realpath(step) for step in loop)
        if members in reported:
            continue
        reported.add(members)
        shown = " → ".join(_shown(step, tree) for step in (*loop, loop[0]))
        yield _hit(
            edge,
            f"`@{edge.target.written}` leads back to a file already loading ({shown}): Claude Code loads "
            "each file once, so this import adds nothing and the cycle ends here. Remove one import of "
            "the cycle.",
        )


@rule(
    "CLD005",
    "import-in-code",
    INFO,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="An `@path` naming a file inside a code span or fence: Claude Code does not import it.",
    options=(USER_MEMORY,),
)
def import_in_code(tree: Tree, options: dict) -> Iterator[Hit]:
    loads_anyway = {expansion.root for expansion in expansions(tree, options)}  # a rule file, a nested CLAUDE.md
    for edge in _edges(tree, options, "in_code"):
        if _target(edge) in loads_anyway:
            continue
        yield _hit(
            edge,
            f"`@{edge.target.written}` is inside code (a code span or block): Claude Code does not import "
            f"`{_shown(_target(edge), tree)}` from there. Write it outside backticks and fences if it "
            "should load.",
        )


@rule(
    "CLD006",
    "claude-md-too-large",
    WARNING,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="An instruction file Claude Code loads that is over {claude-md-max-chars} characters on its own.",
    options=(MAX_CHARS, USER_MEMORY),
)
def claude_md_too_large(tree: Tree, options: dict) -> Iterator[Hit]:
    limit = options["claude-md-max-chars"]
    measured: set[str] = set()
    for expansion in expansions(tree, options):
        for path, _ in expansion.loaded:
            if path in measured:
                continue
            measured.add(path)
            size = utf16_len(counted(expansion.texts[path]))
            if size <= limit:
                continue
            imported = path != expansion.root
            via = f" (imported by `{_shown(expansion.root, tree)}`)" if imported else ""
            nested = not imported and placed(path)[0] != tree.root
            cut = (
                " Loaded when the agent reads a file below it, it is cut at the last line break before the limit."
                if nested
                else ""
            )
            yield Hit(
                f"This file{via} is {size:,} characters as Claude Code counts it (frontmatter and HTML comment "
                f"blocks left out), over {limit:,}: Claude Code {VERSION}'s `/doctor` reports "
                f'"Large {_shown(path, tree)} will impact performance ({size:,} chars > {limit:,})". Its limit is '
                f"the larger of 40,000 and a share of the model's context window: {DEFAULT_CHAR_LIMIT:,} for the "
                f"default model ({DEFAULT_MODEL}), {SMALL_WINDOW_CHAR_LIMIT:,} for a 200,000-token one (set "
                f"`claude-md-max-chars` to yours).{cut} Move detail into files the agent reads on demand, or into "
                "path-scoped `.claude/rules`.",
                path=path,
            )


@rule(
    "CLD007",
    "import-sensitive",
    ERROR,
    reads=TREE,
    needs=ROOTS,
    reads_members=False,
    summary="An `@path` import naming a credential or system file: Claude Code would send it to the model.",
    options=(USER_MEMORY,),
)
def import_sensitive(tree: Tree, options: dict) -> Iterator[Hit]:
    for edge in _edges(tree, options, "sensitive"):
        written = edge.target.written
        approved = " once external imports are approved for the project" if written.startswith(("~/", "/")) else ""
        yield _hit(
            edge,
            f"`@{written}` names {sensitive_target(edge.target)}: Claude Code would read it into every session's "
            f"context{approved}, and the model provider would receive it. mnemolint did not read it. Remove the "
            "import.",
        )


FAMILY = Family(
    "CLD",
    "Claude Code instruction files",
    "claude-code",
    (
        import_not_found,
        import_trailing_punctuation,
        import_too_deep,
        import_cycle,
        import_in_code,
        claude_md_too_large,
        import_sensitive,
    ),
    cites=("Claude Code",),
)
