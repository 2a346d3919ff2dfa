"""Codex CLI as the pinned client really behaves: the one place its facts live.

Verified by running `@openai/codex` 0.171.0 offline on crafted trees (the `cx…` cases of the
shared harness, recorded in tests/oracle/codex/), its reading of the `AGENTS.md` chain read in
`codex-rs/core/src/project_doc.rs` (openai/codex@0bd53e4). Pure names and bytes in, facts out.
"""

from __future__ import annotations

from mnemolint.agents.base import CHAIN_BUDGET, CLIENT, GIT_ROOT, NOT_BELOW, Agent, Instructions, Part, Verified

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

VERSION = "0.171.0"

# One file a folder, from the nearest folder holding `.git` (a directory or a file) down to the
# session folder (only that folder outside a repository): `AGENTS.override.md` where there is one,
# else `AGENTS.md` (`discover_project_doc_paths`).
NAMES = ("AGENTS.override.md", "AGENTS.md")
# The files share `project_doc_max_bytes`, root first; each is read up to what is left, decoded
# lossily (a cut inside a UTF-8 character shows U+FFFD); a blank one takes no budget and joins
# nothing; the kept texts are joined with a blank line (`read_project_docs`).
MAX_BYTES = 32_768
JOINED_WITH = "\n\n"
BLANK_TAKES_NO_BUDGET = True
# Its home, for `~/.codex/config.toml` (where a team raises `project_doc_max_bytes`).
HOME = ".codex"
MAX_BYTES_SETTING = "project_doc_max_bytes"

FACTS: dict[str, tuple[str, ...]] = {
    "NAMES": ("cx06b_override", "cx06d_empty_override"),
    "MAX_BYTES": ("cx06a_chain_40k", "cx06f_root_over_budget"),
    "JOINED_WITH": ("cx06a_chain_40k",),
    "BLANK_TAKES_NO_BUDGET": ("cx06c_empty_root", "cx06g_blank_root"),
    "HOME": (),
    "MAX_BYTES_SETTING": (),
}


def load(files: list[tuple[str, bytes]], max_bytes: int) -> tuple[list[Part], str]:
    """Codex's reading of the chain `files` (root first, one file per folder) within `max_bytes`:
    each file's part and the text Codex loads."""
    remaining = max_bytes
    parts: list[Part] = []
    texts: list[str] = []
    for path, data in files:
        kept = data[: max(remaining, 0)]
        text = kept.decode("utf-8", "replace")
        split = len(kept) < len(data) and _splits_character(data, len(kept))
        empty = not text.strip()
        blank = empty and not data.decode("utf-8", "replace").strip()
        parts.append(Part(path, len(data), len(kept), max(remaining, 0), split, empty, blank))
        if not empty:
            texts.append(text)
            remaining -= len(kept)
    return parts, JOINED_WITH.join(texts)


def _splits_character(data: bytes, at: int) -> bool:
    """Whether a cut at byte `at` falls inside a UTF-8 sequence (the next byte is a continuation)."""
    return 0 < at < len(data) and 0x80 <= data[at] < 0xC0


def describe(facts: dict, shown: Callable[[str], str], visible: Callable[[str], str]) -> str:
    """What `preview --agent codex` prints of its facts (mnemolint/preview.instructions): each file of
    the chain with what Codex reads of it, and the text it loads."""
    import os

    where = shown(facts["directory"])
    unread = facts["unread"]
    if not facts["files"] and not unread:
        return f"No AGENTS.md on Codex's way from the git root to {where}: Codex loads no project doc there.\n"
    lines = [f"Codex's AGENTS.md chain for a session in {where} ({MAX_BYTES_SETTING} {facts['max_bytes']:,}):"]
    # One file a folder, root first: a deeper path comes later in the chain.
    for entry in sorted([*facts["files"], *unread], key=lambda entry: entry["path"].count(os.sep)):
        if "reason" in entry:  # what Codex would take from it is neither shown nor counted below
            lines.append(f"  {shown(entry['path'])}: not read: {entry['reason']}")
            continue
        if not entry["cut"]:
            state = "read whole"
        elif entry["read"] == 0:
            state = "never read"
        else:
            split = ", inside a UTF-8 character (shown as U+FFFD)" if entry["split"] else ""
            state = f"cut after {entry['read']:,} bytes{split}"
        lines.append(f"  {shown(entry['path'])}: {entry['bytes']:,} bytes, {state}")
    if unread:
        lines.append("Codex also loads what the files not read here hold; mnemolint shows none of it.")
        if not facts["files"]:
            return "\n".join(lines) + "\n"
    read = " of the files read here" if unread else ""
    lines.append(f"Codex loads {facts['loaded_bytes']:,} bytes{read}, the files joined with a blank line:")
    lines.append("")
    lines.extend(visible(line) for line in facts["loaded"].split("\n"))
    return "\n".join(lines) + "\n"


AGENT = Agent(
    "codex",
    "Codex",
    HOME,
    verified=Verified(CLIENT, VERSION, "@openai/codex (npm); codex-rs/core/src/project_doc.rs @0bd53e4", "2026-12-01"),
    facts=FACTS,
    traces=(".codex/", "AGENTS.override.md"),
    instructions=Instructions(
        NAMES,
        first_only=True,
        walk=GIT_ROOT,
        below=NOT_BELOW,
        max_bytes=MAX_BYTES,
        cut=CHAIN_BUDGET,
        load=load,
        describe=describe,
        max_bytes_option="codex-max-bytes",
    ),
    frontmatter="none",  # an AGENTS.md is sent as it is
)
