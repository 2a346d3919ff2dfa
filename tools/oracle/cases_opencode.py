"""OpenCode oracle cases: which instruction files OpenCode (`opencode-ai`) sends, and in what order.

What each case asks: the project file OpenCode picks (AGENTS.md, else CLAUDE.md, else CONTEXT.md,
each looked for from the session folder up to the git root), the global one (its config folder's
AGENTS.md, else ~/.claude/CLAUDE.md), the files `instructions` of an `opencode.json` names (globs,
`~/`, absolute paths; from which folders a relative one is looked up), the switches that turn the
Claude Code files off, and the AGENTS.md it attaches when the model reads a file below the session
folder. The layout of a case folder is cases_base.py's.
"""

from __future__ import annotations

import json
from pathlib import Path

from cases_base import HOME_TOKEN, CaseWriter, filler, write_tree

GIT = {"git": ""}
NO_CLAUDE = "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1\n"


def _config(*instructions: str) -> str:
    return json.dumps({"instructions": list(instructions)}, indent=2) + "\n"


def _project_cases(cases: CaseWriter) -> None:
    """Which project file wins: the names in order, the first one found anywhere up the tree."""
    layouts: dict[str, tuple[dict[str, str], str, dict[str, str]]] = {
        "oc01a_agents_and_claude": (GIT, "", {"AGENTS.md": "MARK-AGENTS-MD\n", "CLAUDE.md": "MARK-CLAUDE-MD\n"}),
        "oc01b_claude_only": (GIT, "", {"CLAUDE.md": "MARK-CLAUDE-MD\n", "CONTEXT.md": "MARK-CONTEXT-MD\n"}),
        "oc01c_claude_disabled": (
            {**GIT, "env": NO_CLAUDE},
            "",
            {"CLAUDE.md": "MARK-CLAUDE-MD\n", "CONTEXT.md": "MARK-CONTEXT-MD\n"},
        ),
        "oc01d_context_only": (GIT, "", {"CONTEXT.md": "MARK-CONTEXT-MD\n"}),
        "oc01e_empty_agents": (GIT, "", {"AGENTS.md": "", "CLAUDE.md": "MARK-CLAUDE-MD\n"}),
        "oc01f_blank_agents": (GIT, "", {"AGENTS.md": "\n  \n", "CLAUDE.md": "MARK-CLAUDE-MD\n"}),
        "oc02a_parents": (
            GIT,
            "app",
            {
                "AGENTS.md": "MARK-ROOT-AGENTS\n",
                "app/AGENTS.md": "MARK-APP-AGENTS\n",
                "app/CLAUDE.md": "MARK-APP-CLAUDE\n",
                "other/AGENTS.md": "MARK-OTHER-AGENTS\n",
            },
        ),
        "oc02b_parent_agents_shadows_claude": (
            GIT,
            "app",
            {"AGENTS.md": "MARK-ROOT-AGENTS\n", "app/CLAUDE.md": "MARK-APP-CLAUDE\n"},
        ),
        "oc02c_nogit": ({}, "app", {"AGENTS.md": "MARK-ROOT-AGENTS\n", "app/AGENTS.md": "MARK-APP-AGENTS\n"}),
        "oc02d_claude_chain": (
            GIT,
            "app/deep",
            {"CLAUDE.md": "MARK-ROOT-CLAUDE\n", "app/deep/CLAUDE.md": "MARK-DEEP-CLAUDE\n", "app/x.txt": "x\n"},
        ),
    }
    for name, (flags, cwd, files) in layouts.items():
        case = cases.new(name, "opencode", **flags, **({"cwd": cwd + "\n"} if cwd else {}))
        write_tree(case / "project", files)


def _global_cases(cases: CaseWriter) -> None:
    """The global file: ~/.config/opencode/AGENTS.md, else ~/.claude/CLAUDE.md; sent first."""
    both = {".config/opencode/AGENTS.md": "MARK-GLOBAL-AGENTS\n", ".claude/CLAUDE.md": "MARK-HOME-CLAUDE\n"}
    for name, flags, home in [
        ("oc03a_global_agents_and_claude", GIT, both),
        ("oc03b_global_claude_only", GIT, {".claude/CLAUDE.md": "MARK-HOME-CLAUDE\n"}),
        ("oc03c_global_claude_disabled", {**GIT, "env": "OPENCODE_DISABLE_CLAUDE_CODE=1\n"}, both),
        (
            "oc03d_global_agents_empty",
            GIT,
            {".config/opencode/AGENTS.md": "", ".claude/CLAUDE.md": "MARK-HOME-CLAUDE\n"},
        ),
    ]:
        case = cases.new(name, "opencode", **flags)
        write_tree(case / "home", home)
        write_tree(case / "project", {"AGENTS.md": "MARK-AGENTS-MD\n"})


def _instructions_cases(cases: CaseWriter) -> None:
    """`instructions` in the config files: globs, `~/`, absolute paths, lookup, merge, dedupe."""
    case = cases.new("oc04a_instructions", "opencode", **GIT)
    write_tree(
        case / "project",
        {
            "AGENTS.md": "MARK-AGENTS-MD\n",
            "opencode.json": _config(
                "docs/*.md", "missing.md", "~/home-rules.md", f"{HOME_TOKEN}/abs/*.md", "AGENTS.md", "docs/a.md"
            ),
            "docs/a.md": "MARK-DOC-A\n",
            "docs/sub/c.md": "MARK-DOC-SUB-C\n",
            "docs/empty.md": "",
        },
    )
    write_tree(case / "home", {"home-rules.md": "MARK-HOME-RULES\n", "abs/one.md": "MARK-ABS-ONE\n"})

    # the session in app/: a relative entry is looked for in app/ and in every folder up to the git root
    case = cases.new("oc04b_instructions_lookup", "opencode", cwd="app\n", **GIT)
    write_tree(
        case / "project",
        {
            "opencode.json": _config("rules.md", "team/*.md", "app-only.md"),
            "rules.md": "MARK-ROOT-RULES\n",
            "app/rules.md": "MARK-APP-RULES\n",
            "team/t.md": "MARK-TEAM-T\n",
            "app/app-only.md": "MARK-APP-ONLY\n",
            "app/AGENTS.md": "MARK-APP-AGENTS\n",
        },
    )

    # the global config's entries, a .opencode/ config and a nearer opencode.jsonc: all merged
    case = cases.new("oc04c_instructions_merged", "opencode", cwd="app\n", **GIT)
    write_tree(
        case / "project",
        {
            "opencode.json": _config("root.md"),
            "app/opencode.jsonc": '{\n  // the app\'s own\n  "instructions": ["app.md",],\n}\n',
            ".opencode/opencode.json": _config("dot.md"),
            "root.md": "MARK-ROOT-MD\n",
            "app/app.md": "MARK-APP-MD\n",
            "dot.md": "MARK-DOT-MD\n",
            "global.md": "MARK-GLOBAL-ENTRY\n",
        },
    )
    write_tree(case / "home", {".config/opencode/opencode.json": _config("global.md")})

    # OPENCODE_DISABLE_PROJECT_CONFIG: no project file, no project config, no relative entry
    case = cases.new("oc04e_project_config_disabled", "opencode", env="OPENCODE_DISABLE_PROJECT_CONFIG=1\n", **GIT)
    write_tree(
        case / "project",
        {"AGENTS.md": "MARK-AGENTS-MD\n", "opencode.json": _config("rules.md"), "rules.md": "MARK-RULES\n"},
    )
    write_tree(case / "home", {".config/opencode/AGENTS.md": "MARK-GLOBAL-AGENTS\n"})

    # OPENCODE_DISABLE_CLAUDE_CODE_PROMPT does not stop an `instructions` entry naming CLAUDE.md
    case = cases.new("oc04d_instructions_claude_md", "opencode", env=NO_CLAUDE, **GIT)
    write_tree(case / "project", {"opencode.json": _config("CLAUDE.md"), "CLAUDE.md": "MARK-CLAUDE-MD\n"})


def _nested_cases(cases: CaseWriter) -> None:
    """Reading a file below the session folder attaches the AGENTS.md (or CLAUDE.md) of each folder
    between it and the session folder, nearest first."""
    files = {
        "AGENTS.md": "MARK-ROOT-AGENTS\n",
        "lib/AGENTS.md": "MARK-LIB-AGENTS\n",
        "lib/CLAUDE.md": "MARK-LIB-CLAUDE\n",
        "lib/deep/CLAUDE.md": "MARK-DEEP-CLAUDE\n",
        "lib/deep/x.ts": "export const x = 1; // MARK-FILE-X\n",
        "lib/y.ts": "export const y = 2; // MARK-FILE-Y\n",
    }
    write_tree(cases.new("oc05a_nested_read", "opencode", reads="lib/deep/x.ts\n", **GIT) / "project", files)
    write_tree(cases.new("oc05b_nested_twice", "opencode", reads="lib/y.ts\nlib/deep/x.ts\n", **GIT) / "project", files)


def _size_cases(cases: CaseWriter) -> None:
    """No cap: a 300,000-byte AGENTS.md (and the CLAUDE.md beside it, not sent) goes whole."""
    files = {"AGENTS.md": filler("BIG", 300_000), "CLAUDE.md": "MARK-CLAUDE-MD\n"}
    write_tree(cases.new("oc06_big_agents", "opencode", **GIT) / "project", files)


def write_cases(out: Path | str) -> list[str]:
    """Write the OpenCode cases under `out`; return their names."""
    cases = CaseWriter(out)
    for group in (_project_cases, _global_cases, _instructions_cases, _nested_cases, _size_cases):
        group(cases)
    return cases.names
