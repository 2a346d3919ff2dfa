"""What every run asks of all the agents, without importing them: generated from the agent
modules by `python tests/test_registry_manifest.py`, which fails while it differs from them.

`NAMES`: the names the `agents` setting takes, in registry order. `HOMES`: the homes of the
agents that keep memory or rules dirs. `MEMORY_HOMES`: each agent keeping memory dirs, by module,
with its home. `INSTRUCTION_NAMES`: every file name an agent reads as instructions. `TRACES`:
each agent a project can be seen to use, by title, with the traces that show it.
"""

NAMES = ("wave", "claude-code", "codex", "gemini-cli", "opencode", "cursor", "copilot", "windsurf", "cline")
HOMES = (".wave", ".claude")
MEMORY_HOMES = (("wave", ".wave"), ("claude_code", ".claude"))
INSTRUCTION_NAMES = (
    "AGENTS.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.override.md",
    "GEMINI.md",
    "copilot-instructions.md",
)
TRACES = (
    ("Wave", (".wave/",)),
    ("Claude Code", (".claude/", "CLAUDE.md")),
    ("Codex", (".codex/", "AGENTS.override.md")),
    ("Gemini CLI", (".gemini/", "GEMINI.md", ".geminiignore")),
    ("OpenCode", ("opencode.json", "opencode.jsonc", ".opencode/")),
    ("Cursor", (".cursor/rules/", ".cursorrules")),
    ("GitHub Copilot", (".github/copilot-instructions.md", ".github/instructions/")),
    ("Windsurf", (".windsurf/rules/", ".windsurfrules")),
    ("Cline", (".clinerules",)),
)
