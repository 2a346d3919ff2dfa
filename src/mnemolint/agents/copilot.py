"""GitHub Copilot as the Copilot CLI 1.0.102 really reads it, and as GitHub's documentation says its
other clients (VS Code, the coding agent, code review) read it.

The CLI (`@github/copilot` on npm) runs offline here against a fake model endpoint
(`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL` on 127.0.0.1, in a network namespace with
loopback only): each fact marked "CLI 1.0.102" was seen in what it sent the model, or in its own
`copilot instruction list --json`, on a crafted tree (the case names are those of
`tests/test_copilot.py`'s trees). Facts about the other clients are from the documentation, with
the address and the date read.
"""

from __future__ import annotations

from mnemolint.agents.base import CLIENT, GIT_ROOT, ON_TOUCH, Agent, Instructions, Verified
from mnemolint.agents.cursor import AlsoReadsFallback

VERSION = "1.0.102"
DOCS = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
VSCODE_DOCS = "https://code.visualstudio.com/docs/agent-customization/custom-instructions"  # read 2026-12-02

REPO_FILE = ".github/copilot-instructions.md"  # loaded whole in every session, frontmatter and all (CLI)
INSTRUCTIONS_DIR = ".github/instructions"  # `*.instructions.md` at any depth below it (CLI, docs)
SUFFIX = ".instructions.md"  # any other file there is not read (CLI: `nofm.md` never listed)
# `applyTo`: a string split on the commas outside braces, each part trimmed (`src/**/*.ts, lib/**`),
# a flow or block list, quoted or not (`applyTo: **/*.ts` since CLI 1.0.48); an inline comment is
# dropped; of a repeated key the first wins; `[unclosed` stays the literal pattern (CLI 1.0.102).
# A file whose `applyTo` is `*`, `**` or `**/*` is loaded whole in every session, as one without
# `applyTo`, with an empty one or an empty list (CLI 1.0.102). A file with patterns is not loaded:
# the CLI lists its patterns and path for the model, which reads the file when it works on a
# matching one (CLI 1.0.102).
ALWAYS_PATTERNS = frozenset({"*", "**", "**/*"})
# VS Code applies a file with `applyTo` when a matching file is in the context, and a file without
# `applyTo` only when it is attached by hand (VS Code's custom-instructions page, read 2026-12-02).
# `excludeAgent: "code-review"` or `"coding-agent"` keeps the file from that agent (docs); the CLI
# also leaves out a file with `excludeAgent: "coding-agent"` (CLI 1.0.102).
EXCLUDE_AGENTS = ("code-review", "coding-agent")
KEYS = ("applyTo", "excludeAgent", "description")

# At the start, the CLI loads whole `.github/copilot-instructions.md`, `AGENTS.md`, `CLAUDE.md` and
# `GEMINI.md` of each folder from the git root down to the session folder (`.claude/CLAUDE.md` not;
# nested folders below the session folder not): c2_nested_agents, c3_other_tools. The docs add the
# folders of a file it works on (docs.github.com, CLI custom instructions page, read 2026-12-02).
# `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` are other agents' own files: its fallback here.
NAMES = (REPO_FILE,)
OTHER_AGENTS_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
# The `.github/instructions` of the git root and of the session folder only (c2_nested_agents).
# It reads no Cursor, Windsurf or Cline file (c3_other_tools).

FACTS: dict[str, tuple[str, ...]] = {
    "REPO_FILE": ("c1_apply_to_forms", "c2_nested_agents"),
    "INSTRUCTIONS_DIR": ("c1_apply_to_forms", "c2_nested_agents"),
    "SUFFIX": ("c1_apply_to_forms",),
    "ALWAYS_PATTERNS": ("c1_apply_to_forms",),
    "EXCLUDE_AGENTS": ("c1_apply_to_forms",),
    "NAMES": ("c2_nested_agents",),
    "OTHER_AGENTS_FILES": ("c2_nested_agents", "c3_other_tools"),
    "KEYS": ("c1_apply_to_forms",),
}

AGENT = Agent(
    "copilot",
    "GitHub Copilot",
    None,
    verified=Verified(CLIENT, VERSION, "@github/copilot (npm), run offline: tools/oracle/copilot_cli.py", "2026-12-02"),
    facts=FACTS,
    traces=(REPO_FILE, f"{INSTRUCTIONS_DIR}/"),
    instructions=Instructions(
        NAMES, fallback=OTHER_AGENTS_FILES, walk=GIT_ROOT, below=ON_TOUCH, session=AlsoReadsFallback
    ),
    frontmatter="own lines",  # read loosely (`applyTo: **/*.ts` is its glob): kinds/editor_rules.read_fields
)
