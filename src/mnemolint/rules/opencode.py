"""OPC: what OpenCode really loads of the instruction files and its config's `instructions`.

OpenCode 1.18.33 (agents/opencode.py, proven on the recorded oracle cases) loads one name of
`AGENTS.md`, `CLAUDE.md` and `CONTEXT.md`: the first that stands anywhere from the session folder
up to the git root, and on a read below the session folder the first standing in each folder. An
empty file still wins and is not sent. A relative `instructions` entry of a config file is a glob
tried in the session folder and in each folder up to the git root, never from the config file's
own folder down. These rules judge sessions as OpenCode starts them by default (no environment
switches), and only in a project that uses OpenCode (its `opencode.json`, `.opencode/`, or the
`agents` setting), except OPC001, whose config file is that use.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents import OPENCODE, readers_of
from mnemolint.agents.opencode import (
    CLAUDE_NAME,
    CONFIG_FOLDER,
    PROJECT_NAMES,
    VERSION,
    is_url,
    read_config,
    substituted,
)
from mnemolint.discover.tree import Tree
from mnemolint.kinds.instructions import INSTRUCTION_FILE
from mnemolint.kinds.opencode import OPENCODE_CONFIG, opencode_session
from mnemolint.model import WARNING, Hit
from mnemolint.parse.document import Document
from mnemolint.rules.base import TREE, Family, rule

PREVIEW = (
    "Its facts are proven on 22 cases recorded from the real OpenCode 1.18.33 client, but it has not yet "
    "been measured on held-out repositories, so it stays in preview until it is."
)
TITLE = f"OpenCode {VERSION}"
NO_SWITCHES: dict[str, str] = {}  # the environment the rules judge a session in


def _named(tree: Tree, names: tuple[str, ...]) -> Iterator[Document]:
    """The instruction files called one of `names`, in a project that uses OpenCode (none else)."""
    if not tree.project_at(tree.root).uses(OPENCODE):
        return
    for document in tree.documents:
        if document.kind is INSTRUCTION_FILE and os.path.basename(document.path) in names:
            yield document


def _session_folder(config: str) -> str:
    """The folder a config file serves: its own, or the one above `.opencode/`."""
    folder = os.path.dirname(config)
    return os.path.dirname(folder) if os.path.basename(folder) == CONFIG_FOLDER else folder


def _position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of `offset` in `text`."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


@rule(
    "OPC001",
    "instructions-entry-unmatched",
    WARNING,
    reads=(OPENCODE_CONFIG,),
    summary="An `instructions` entry of an OpenCode config that brings no file with text into a session "
    "started beside the config.",
    preview=PREVIEW,
)
def instructions_entry_unmatched(document: Document, options: dict) -> Iterator[Hit]:
    text = document.text
    if text is None:
        return
    entries = [
        (entry, offset)
        for entry, offset in read_config(text).instructions
        if not is_url(entry) and not substituted(entry) and not entry.startswith("~/") and not os.path.isabs(entry)
    ]
    if not entries:
        return
    folder = _session_folder(document.path)
    walk = opencode_session(folder, {}, options, NO_SWITCHES)
    for entry, offset in entries:
        files = walk.entry_files(entry)
        if any(walk.sends(path) for path in files):
            continue
        if files:
            what = f"it matches only empty files ({', '.join(f'`{_shown(path, folder)}`' for path in files[:3])})"
        else:
            what = "no file matches it"
        line, column = _position(text, offset)
        yield Hit(
            f"{TITLE} loads nothing for the `instructions` entry `{entry}` in a session started in the "
            f"folder this config serves: {what} there or in any folder above it up to the git root. A "
            "relative entry is looked up from the session folder upwards, not from this file: name a "
            "file that exists (relative to the folder the sessions start in), or drop the entry.",
            path=document.path,
            line=line,
            column=column,
        )


def _shown(path: str, base: str) -> str:
    rel = os.path.relpath(path, base).replace(os.sep, "/")
    return "./" if rel == "." else rel


def _claimed(tree: Tree) -> set[str]:
    """The files some `instructions` entry of the project's configs brings for a session beside
    that config: OpenCode loads those whatever their name."""
    return tree.derived("opencode claimed files", _claims)


def _claims(tree: Tree) -> set[str]:
    found: set[str] = set()
    for document in tree.documents:
        if document.kind is OPENCODE_CONFIG and document.text is not None:
            walk = opencode_session(_session_folder(document.path), {}, document.options, NO_SWITCHES)
            for entry, _ in read_config(document.text).instructions:
                found.update(walk.entry_files(entry))
    return found


def _agents(name: str) -> str:
    """The other agents that read a file of this name beside an `AGENTS.md` (those for which it
    is no fallback), as a message says them."""
    others = [
        agent.title
        for agent in readers_of(name)
        if agent is not OPENCODE and agent.instructions is not None and name in agent.instructions.names
    ]
    return " and ".join(others) if others else "no other agent"


@rule(
    "OPC002",
    "instruction-file-shadowed",
    WARNING,
    reads=TREE,
    needs=(INSTRUCTION_FILE,),  # `_named`
    reads_members=False,
    summary="A `CLAUDE.md` that OpenCode never loads: an `AGENTS.md` beside it wins, at the start and on a read below.",
    preview=PREVIEW,
)
def instruction_file_shadowed(tree: Tree, options: dict) -> Iterator[Hit]:
    claimed = _claimed(tree)
    for document in _named(tree, (CLAUDE_NAME,)):  # a CONTEXT.md is no instruction file mnemolint lints
        name = os.path.basename(document.path)
        if document.path in claimed:
            continue
        folder = os.path.dirname(document.path)
        winner = opencode_session(folder, {}, options, NO_SWITCHES).folder_file(folder)
        if winner is None or winner == document.path or not document.text:
            continue
        yield Hit(
            f"{TITLE} never loads this {name}: `{os.path.basename(winner)}` beside it wins, in a session "
            f"started here or below and on a read from a session above (it takes one of "
            f"{', '.join(PROJECT_NAMES)} per folder, the first that stands there). What only this file "
            f"says reaches {_agents(name)}, not OpenCode: move it into `{os.path.basename(winner)}`, or name "
            f"this file in the `instructions` of `opencode.json`.",
            path=document.path,
        )


@rule(
    "OPC003",
    "empty-agents-md-hides",
    WARNING,
    reads=TREE,
    needs=(INSTRUCTION_FILE,),  # `_named`
    reads_members=False,
    summary="An empty `AGENTS.md` that leaves OpenCode sessions without the `CLAUDE.md` or `CONTEXT.md` "
    "on their way: the empty file wins and is not sent.",
    preview=PREVIEW,
)
def empty_agents_md_hides(tree: Tree, options: dict) -> Iterator[Hit]:
    for document in _named(tree, PROJECT_NAMES[:1]):
        if document.text != "":
            continue
        folder = os.path.dirname(document.path)
        walk = opencode_session(folder, {}, options, NO_SWITCHES)
        if any(walk.sends(path) for path in walk.project_files()[1]):
            continue  # another AGENTS.md on the way has text: the session gets that one
        hidden = [
            path for place in walk.up() for name in PROJECT_NAMES[1:] if walk.sends(path := os.path.join(place, name))
        ]
        if not hidden:
            continue
        shown = ", ".join(f"`{_shown(path, folder)}`" for path in hidden[:3])
        yield Hit(
            f"{TITLE} loads no project instructions in a session started here: this empty AGENTS.md "
            f"wins over {shown}, which it would load otherwise, and an empty file is not sent. Delete this "
            "file, or give it the instructions.",
            path=document.path,
        )


FAMILY = Family(
    "OPC",
    "OpenCode instruction files",
    "opencode",
    (instructions_entry_unmatched, instruction_file_shadowed, empty_agents_md_hides),
    cites=("OpenCode",),
)
