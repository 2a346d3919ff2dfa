"""Claude Code's reader profile: what the client really does with the files it reads.

Each fact is stated once, as a constant, and `VERIFIED` names for each the oracle cases that show
it on the client version `VERSION` (the cases are in `tools/oracle/cases_claude_instructions.py`,
`cl2…`, and in the shared harness, `cl0…`: each runs the real client offline and captures what it
sends to the model). The rules and `explain-rules` read these facts from here and keep no copy.

This module imports nothing from mnemolint, so any layer may read it.
"""

from __future__ import annotations

VERSION = "2.1.332"  # the Claude Code release every fact below was verified on

# ---------------------------------------------------------------- instruction files (CLAUDE.md, AGENTS.md)
# At the start of a session Claude Code walks every folder from the file system's root (the root
# itself left out) down to the session folder, a git root being no limit; in each it loads
# `CLAUDE.md`, `.claude/CLAUDE.md`, the `.claude/rules` files without `paths`, then
# `CLAUDE.local.md`. A file that is empty or only white space, or over `MAX_BYTES`, loads nothing,
# without a word. When no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` with text loaded
# from the session folder or above, `AGENTS.md` and `.claude/AGENTS.md` of the same folders load
# instead (its AGENTS.md plugin, on by default); when any did, no `AGENTS.md` loads.
#
# When the agent reads a file below the session folder, each folder strictly below the session
# folder down to the file's own loads its `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and
# `.claude/rules` files (those with `paths` when they match), and, in a project that loaded
# `AGENTS.md` at the start, its `AGENTS.md` files where the folder has no `CLAUDE.md` of its own.
# A file read outside the session folder brings none.
#
# `@path` imports load only inside the session folder unless the project approved external
# imports (`hasClaudeMdExternalIncludesApproved` in `~/.claude.json`): a parent folder's
# `CLAUDE.md` loads, its own imports do not; `@~/…` imports need that approval too.
PROJECT_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md")  # per folder, in this order, before its rules
LOCAL_NAME = "CLAUDE.local.md"  # per folder, after its rules
FALLBACK_NAMES = ("AGENTS.md", ".claude/AGENTS.md")  # per folder, in this order
BLOCKS_FALLBACK = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")  # any with text: no AGENTS.md
WALKS_TO_FILESYSTEM_ROOT = True  # not to the git root
NESTED_ON_TOUCH = True  # folders below the session folder load when a file in them is read
MAX_BYTES = 4 * 1024 * 1024  # over it, a file is skipped whole, without a word; at it, it loads
IMPORTS_WITHIN_SESSION = True  # imports outside the session folder need the project's approval
IMPORT_DEPTH = 4  # nested import levels below the file loaded
# An `@path` in a list item is found in the item's raw text, an HTML comment or a code span in it
# included; `\@` is no import; elsewhere a comment or code hides it.
LIST_ITEM_RAW = True
ESCAPED_AT_IS_TEXT = True
# An import of a file with another extension is skipped (a file with none is read).
TEXT_EXTENSIONS = frozenset(
    ".md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx "
    ".jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc "
    ".cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config "
    ".properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua "
    ".r .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for "
    ".cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch".split()
)

# ---------------------------------------------------------------- instruction file size (CLD006)
# The per-file limit is the larger of `CHAR_FLOOR` and `WINDOW_SHARE` of the model's context
# window times its characters per token (4 for the models in `FOUR_CHARS_PER_TOKEN`, else 3);
# `/doctor` then says `Large <path> will impact performance (<N> chars > <limit>)`. Each file
# counts on its own, an imported file too, as the client keeps it (frontmatter and HTML comment
# blocks removed, UTF-16 units). A file loaded at the start is sent whole whatever its length; one
# loaded on a file touch is cut at the last line break before the per-file limit.
CHAR_FLOOR = 40_000
WINDOW_SHARE = 0.05
TOTAL_FLOOR = 120_000  # the files under the per-file limit together: the larger of this and it
DEFAULT_MODEL = "Claude Opus 5.5"  # the default model of this release, with a 1M-token window
DEFAULT_WINDOW = 1_000_000
DEFAULT_CHARS_PER_TOKEN = 3
FOUR_CHARS_PER_TOKEN = (
    "claude-3-opus claude-3-sonnet claude-3-haiku claude-3-5-sonnet claude-3-5-haiku claude-3-7-sonnet "
    "claude-opus-4-0 claude-opus-4-1 claude-opus-4-5 claude-opus-4-6 claude-sonnet-4-0 claude-sonnet-4-5 "
    "claude-sonnet-4-6 claude-haiku-4-5".split()
)
START_FILES_SENT_WHOLE = True
NESTED_CUT_AT_LIMIT = True


def char_limit(window: int, chars_per_token: int) -> int:
    """The per-file character limit for a model with a `window`-token context."""
    return max(CHAR_FLOOR, round(window * WINDOW_SHARE * chars_per_token))


DEFAULT_CHAR_LIMIT = char_limit(DEFAULT_WINDOW, DEFAULT_CHARS_PER_TOKEN)  # 150,000
SMALL_WINDOW_CHAR_LIMIT = char_limit(200_000, 4)  # a 200,000-token model: the floor, 40,000


def imports_text_file(path: str) -> bool:
    """Whether Claude Code reads an import of `path`: a file with no extension, or a text one
    (the extension compared in lower case, as the client does)."""
    stem, dot, extension = path.rpartition("/")[2].rpartition(".")
    return not (dot and stem) or f".{extension}".lower() in TEXT_EXTENSIONS


# Each fact and the oracle cases that show it on `VERSION` (tests/test_claude_code_profile.py
# checks that each names a constant above and each case exists).
VERIFIED = {
    "PROJECT_NAMES": ("cl08_nested", "cl07c_agents_and_dot_claude_md"),
    "LOCAL_NAME": ("cl2c_local_claude_agents", "cl2n_nested_read_deep"),
    "FALLBACK_NAMES": (
        "cl07b_agents_only",
        "cl07d_dot_agents_only",
        "cl2d_agents_and_dot_agents",
        "cl2e_agents_imports_rules",
    ),
    "BLOCKS_FALLBACK": (
        "cl07a_claude_and_agents",
        "cl07c_agents_and_dot_claude_md",
        "cl07f_agents_in_parent",
        "cl2c_local_claude_agents",
        "cl2b_blank_claude_agents",
    ),
    "WALKS_TO_FILESYSTEM_ROOT": (
        "cl07h_claude_parent_agents_cwd",
        "cl07g_agents_in_parent_only",
        "cl2k_above_git_root",
    ),
    "NESTED_ON_TOUCH": (
        "cl08_nested",
        "cl2n_nested_read_deep",
        "cl2o_read_outside_cwd",
        "cl2g_agents_nested_read",
        "cl2h_claude_nested_agents_read",
        "cl2i_agents_nested_claude_read",
    ),
    "MAX_BYTES": ("cl04b_huge_claude_md", "cl2p_size_4mib_exact", "cl2f_huge_claude_agents"),
    "IMPORTS_WITHIN_SESSION": ("cl2l_parent_imports", "cl2m_parent_imports_approved", "cl03c_home_import_approved"),
    "IMPORT_DEPTH": ("cl03_imports",),
    "LIST_ITEM_RAW": ("cl03b_imports_comments", "cl2a_imports_by_token"),
    "ESCAPED_AT_IS_TEXT": ("cl2a_imports_by_token",),
    "TEXT_EXTENSIONS": ("cl2a_imports_by_token",),
    "CHAR_FLOOR": ("cl04_big_claude_md",),
    "DEFAULT_CHAR_LIMIT": ("cl2q_nested_big",),
    "START_FILES_SENT_WHOLE": ("cl04_big_claude_md", "cl2q_nested_big"),
    "NESTED_CUT_AT_LIMIT": ("cl2q_nested_big",),
}
