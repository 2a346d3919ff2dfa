"""What the walk asks of every kind before it knows which it meets, without importing them:
generated from the kind modules by `python tests/test_registry_manifest.py`, which fails while it
differs from them.

`CONTAINERS`: each container type in registry order: its name, module and attribute, its marker
file, its setting, and the names a directory it `located` may have. `ROOT_NAMES`: each file name
a kind in no container may have, with those kinds (module, name) in registry order.
"""

CONTAINERS = (
    ("memory dir", "memory", "MEMORY_DIR", "MEMORY.md", "memory-dirs", ("memory",)),
    ("rules dir", "rules", "RULES_DIR", None, None, ("rules",)),
    ("ai-memory dir", "ai_memory", "AI_MEMORY_DIR", None, None, (".ai-memory",)),
    ("Cursor rules dir", "cursor", "CURSOR_RULES_DIR", None, None, ("rules",)),
    ("Copilot instructions dir", "copilot", "COPILOT_INSTRUCTIONS_DIR", None, None, ("instructions",)),
    ("Windsurf rules dir", "windsurf", "WINDSURF_RULES_DIR", None, None, ("rules",)),
    ("Cline rules dir", "cline", "CLINE_RULES_DIR", None, None, (".clinerules",)),
)
ROOT_NAMES = (
    ("AGENTS.md", (("instructions", "instruction file"),)),
    ("CLAUDE.md", (("instructions", "instruction file"),)),
    ("CLAUDE.local.md", (("instructions", "instruction file"),)),
    ("AGENTS.override.md", (("instructions", "instruction file"),)),
    ("GEMINI.md", (("instructions", "instruction file"),)),
    ("copilot-instructions.md", (("instructions", "instruction file"),)),
    (".gitignore", (("gitignore", "gitignore"),)),
    ("settings.json", (("gemini", "gemini settings"),)),
    (".geminiignore", (("gemini", "geminiignore"),)),
    (".cursorrules", (("cursor", "legacy .cursorrules"),)),
    (".clinerules", (("cline", "Cline .clinerules file"),)),
    ("opencode.json", (("opencode", "opencode config"),)),
    ("opencode.jsonc", (("opencode", "opencode config"),)),
)
