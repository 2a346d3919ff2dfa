"""Reader profiles: the agent that loads a file, and what its reader does differently.

One rule set, several readings (as sqlfluff keeps one rule set and many dialects): a rule never
asks for an agent's name, it asks the profile of the file's reader what that reader gets.
What the pinned Claude Code client does in detail (its MEMORY.md cut and warning, its frontmatter
split and second try, where its auto memory lives), each fact with the version and oracle case
showing it, is `agents/claude_code.py`.
"""

from __future__ import annotations


class Reader:
    """An agent's reader. `home` is its per-user and per-project directory (`.wave`, `.claude`),
    which also holds its auto-memory dirs (`<home>/projects/<id>/memory`); `reads_metadata_block`
    says whether a field nested under `metadata:` counts as that field; `strips_index_markup`
    whether it removes the frontmatter and block-level HTML comments of `MEMORY.md` before it
    counts the load caps (`load.py`); `glob_style` how it matches rule globs (`minimatch` or
    `gitignore`, parse/globs.py); `follows_imports` whether it loads the `@path` imports of the
    instruction files it reads (parse/imports.py); `own_frontmatter_reader` whether it reads
    frontmatter with a hand-written line reader that differs from YAML (parse/wave_frontmatter.py)."""

    __slots__ = (
        "name",
        "title",
        "home",
        "reads_metadata_block",
        "strips_index_markup",
        "glob_style",
        "follows_imports",
        "own_frontmatter_reader",
    )

    def __init__(
        self,
        name: str,
        title: str,
        home: str,
        *,
        reads_metadata_block: bool,
        strips_index_markup: bool = False,
        glob_style: str = "",  # a reader of no rule globs (the `.ai-memory` skill)
        follows_imports: bool = False,
        own_frontmatter_reader: bool = False,
    ) -> None:
        self.name = name
        self.title = title
        self.home = home
        self.reads_metadata_block = reads_metadata_block
        self.strips_index_markup = strips_index_markup
        self.glob_style = glob_style
        self.follows_imports = follows_imports
        self.own_frontmatter_reader = own_frontmatter_reader

    def __repr__(self) -> str:
        return f"<Reader {self.name}>"


# Wave's hand-written frontmatter reader takes `metadata:` as a plain string and
# counts MEMORY.md raw (§3); Claude Code strips its frontmatter and block comments first (§B).
# Rule globs: Wave matches with minimatch, Claude Code with gitignore semantics (parse/globs.py).
# Only Claude Code follows `@path` imports (claudemd.ts:459-533; Wave has none).
WAVE = Reader(
    "wave",
    "Wave",
    ".wave",
    reads_metadata_block=False,
    strips_index_markup=False,
    glob_style="minimatch",
    own_frontmatter_reader=True,
)
CLAUDE = Reader(
    "claude-code",
    "Claude Code",
    ".claude",
    reads_metadata_block=True,
    strips_index_markup=True,
    glob_style="gitignore",
    follows_imports=True,
)

# Claude Code's agent memory (`.claude/agent-memory/<agent>/MEMORY.md`) is cut raw, frontmatter and
# comments counted (memdir.ts:283-312): the same agent, another loader.
CLAUDE_AGENT_MEMORY = Reader(
    "claude-code",
    "Claude Code",
    ".claude",
    reads_metadata_block=True,
    strips_index_markup=False,
    glob_style="gitignore",
    follows_imports=True,
)

# Codex reads `AGENTS.md` (and its `AGENTS.override.md`) from the git root down, within a byte
# budget (load.codex_load); it keeps no memory dir or rules dir, so it is no `agents` choice here.
CODEX = Reader(
    "codex", "Codex", ".codex", reads_metadata_block=False, strips_index_markup=False, glob_style="minimatch"
)

READERS = (WAVE, CLAUDE)
AGENT_HOMES = tuple(reader.home for reader in READERS)
BY_NAME = {reader.name: reader for reader in READERS}  # the names the `agents` setting takes
