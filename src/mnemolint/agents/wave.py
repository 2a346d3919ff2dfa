"""Wave (netease-lcap/wave-agent) as its source reads: the one place its facts live.

Read in its source, not run: `packages/agent-sdk/src/` at the commits each fact names (the
memory loader `utils/memoryEntrypoint.ts` and `constants/memory.ts` at 0ff7440, its frontmatter
reader `utils/frontmatterYaml.ts` at 7d12a65, nested memory `utils/nestedMemory.ts` at 220a382,
the rules `managers/MemoryRuleManager.ts` and `services/MemoryRuleService.ts` at 469391b).
Pure names and text in, facts out.
"""

from __future__ import annotations

from mnemolint.agents.base import (
    ON_TOUCH,
    SESSION,
    SOURCE,
    STDERR_EXIT,
    STOPS_SCAN,
    Agent,
    Cut,
    Instructions,
    Memory,
    RulesDirs,
    Verified,
)
from mnemolint.parse.textutil import js_trim, utf16_prefix_index

SOURCE_AT = "netease-lcap/wave-agent@0ff744098da3e28d405d0e4fb62758e1a7480240"

# The workdir's `AGENTS.md`, else its `CLAUDE.md`; the same, one file a folder, for each folder
# below the workdir down to a file the agent reads (nestedMemory.ts).
NAMES = ("AGENTS.md",)
FALLBACK_NAMES = ("CLAUDE.md",)
# Rules: user dirs before project ones, `.claude/rules` before `.wave/rules`, a later rule with
# the same id (its path in its rules dir) replacing an earlier one (MemoryRuleManager.ts:42-58);
# globs matched with minimatch `{dot: true}` relative to the workdir (MemoryRuleService.ts:66).
RULES_FOLDERS = (".claude/rules", ".wave/rules")
GLOB_STYLE = "minimatch"
# MEMORY.md: trimmed, its first 200 lines, then cut at the last newline at or before 25,000
# UTF-16 units, counted raw: frontmatter and comments count (memoryEntrypoint.ts:42-99).
INDEX_MAX_LINES = 200
INDEX_MAX_CHARS = 25_000
WARNING_ADVICE = "Keep index entries to one line under ~150 chars; move detail into topic files."
QUOTE_MAX_CHARS = 80  # the first dropped line with text, its first 80 UTF-16 units
# Its linked worktrees: `.wave/worktrees/<name>/`, each a checkout of the project, whose files its
# path rules match by their checkout-relative path.
WORKTREES = ".wave/worktrees"
# Its frontmatter reader is a hand-written line reader: strings and string lists only, a
# `metadata:` block one string (frontmatterYaml.ts).
FRONTMATTER = "own lines"

FACTS: dict[str, tuple[str, ...]] = {
    name: ()
    for name in (
        "NAMES",
        "FALLBACK_NAMES",
        "RULES_FOLDERS",
        "GLOB_STYLE",
        "WORKTREES",
        "INDEX_MAX_LINES",
        "INDEX_MAX_CHARS",
        "WARNING_ADVICE",
        "QUOTE_MAX_CHARS",
        "FRONTMATTER",
    )
}


def frontmatter_fields(text: str) -> tuple[dict, str]:
    """The fields and body Wave takes from a file, with its own line reader (no fields when it finds
    no block: a BOM hides it)."""
    from mnemolint.parse.wave_frontmatter import split

    fields, body = split(text)
    return fields or {}, body


def _scan(text: str, max_depth: int) -> dict:
    """The fields Wave's memory scan takes from a file: its own line reader over the whole file
    (W-IDX memoryIndex.ts:38-85)."""
    from mnemolint.parse.wave_frontmatter import read

    return read(text) or {}


def index_warning(cut: Cut) -> tuple[str, str]:
    """The line Wave quotes when it cuts `MEMORY.md` (the first dropped line with text, trimmed)
    and its own warning text, which names the loss in characters (memoryEntrypoint.ts:73-99)."""
    quoted = js_trim(next((line for line in cut.dropped if js_trim(line)), ""))
    lines, reason = cut.lines, cut.reason(f"{cut.chars} characters", str(cut.max_chars))
    if cut.loaded_lines <= 1:
        what = f"everything after the first {cut.kept_units} characters of line 1 was cut off"
    else:
        snippet = quoted[: utf16_prefix_index(quoted, QUOTE_MAX_CHARS)]
        shown = f' ("{snippet}")' if snippet else ""
        what = (
            f"{lines - cut.loaded_lines} of {lines} lines were cut off, starting at line {cut.loaded_lines + 1}{shown}"
        )
    return quoted, f"> WARNING: MEMORY.md is {reason}. Only part of it was loaded: {what}. {WARNING_ADVICE}"


AGENT = Agent(
    "wave",
    "Wave",
    ".wave",
    verified=Verified(SOURCE, "W-IDX", SOURCE_AT, "2026-12-01"),
    facts=FACTS,
    traces=(".wave/",),
    instructions=Instructions(NAMES, fallback=FALLBACK_NAMES, first_only=True, walk=SESSION, below=ON_TOUCH),
    rules=RulesDirs(RULES_FOLDERS, GLOB_STYLE, STOPS_SCAN, entered=False, replaces=True),
    memory=Memory("MEMORY.md", INDEX_MAX_LINES, INDEX_MAX_CHARS, index_warning, _scan, scans_every_md=True),
    writes="`~/.wave/projects/<project>/memory/`",
    hook_reply=STDERR_EXIT,
    frontmatter=FRONTMATTER,
    fields=lambda text, max_depth: frontmatter_fields(text),
    reads_metadata_block=False,
)
