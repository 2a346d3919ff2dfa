"""Codex CLI as the pinned client really behaves: the one place its facts live.

Verified by running `@openai/codex` 0.171.0 offline on crafted trees (the `cx…` cases of the
shared harness, recorded in tests/oracle/codex/), its reading of the `AGENTS.md` chain read in
`codex-rs/core/src/project_doc.rs` (openai/codex@0bd53e4). Pure names and bytes in, facts out.
"""

from __future__ import annotations

from mnemolint.agents.base import CHAIN_BUDGET, CLIENT, GIT_ROOT, NOT_BELOW, Agent, Instructions, Verified

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

AGENT = Agent(
    "codex",
    "Codex",
    HOME,
    verified=Verified(CLIENT, VERSION, "@openai/codex (npm); codex-rs/core/src/project_doc.rs @0bd53e4", "2026-12-01"),
    facts=FACTS,
    traces=(".codex/", "AGENTS.override.md"),
    instructions=Instructions(
        NAMES, first_only=True, walk=GIT_ROOT, below=NOT_BELOW, max_bytes=MAX_BYTES, cut=CHAIN_BUDGET
    ),
    frontmatter="none",  # an AGENTS.md is sent as it is
)


class Part:
    """What Codex keeps of one file of an `AGENTS.md` chain: `size` its bytes, `kept` the bytes it
    reads (all of them unless the budget ran out), `budget` what was left of the budget when it
    came to this file, `split` whether the cut falls inside a UTF-8 character (Codex then shows
    U+FFFD), `empty` whether the kept text is blank, so that it takes no budget and joins
    nothing; `blank` whether the whole file is, so that cutting it loses nothing."""

    __slots__ = ("path", "size", "kept", "budget", "split", "empty", "blank")

    def __init__(self, path: str, size: int, kept: int, budget: int, split: bool, empty: bool, blank: bool) -> None:
        self.path = path
        self.size = size
        self.kept = kept
        self.budget = budget
        self.split = split
        self.empty = empty
        self.blank = blank

    @property
    def cut(self) -> bool:
        return self.kept < self.size


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
