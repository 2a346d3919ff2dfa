"""`explain-rules FILE --agent cursor|copilot|windsurf|cline` and `preview DIR --agent …`, run as a
user runs them (the CLI in a subprocess) on one tree holding every kind of rule of the four tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

TREE = {
    "AGENTS.md": "Shared instructions.\n",
    "src/ui/button.tsx": "x\n",
    "lib/c.py": "x\n",
    ".cursorrules": "Legacy rules.\n",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nA\n",
    ".cursor/rules/tsx.mdc": "---\nglobs: *.tsx\nalwaysApply: false\n---\nB\n",
    ".cursor/rules/python.mdc": "---\nglobs: lib/**/*.py\n---\nC\n",
    ".cursor/rules/migrations.mdc": "---\ndescription: When writing migrations\n---\nD\n",
    ".cursor/rules/manual.mdc": "---\ndescription:\nglobs:\nalwaysApply: false\n---\nE\n",
    "src/.cursor/rules/nested.mdc": "---\nglobs: ui/**\n---\nF\n",
    ".github/copilot-instructions.md": "Repository-wide.\n",
    ".github/instructions/tsx.instructions.md": '---\napplyTo: "**/*.tsx"\n---\nG\n',
    ".github/instructions/all.instructions.md": "H\n",
    ".github/instructions/coding.instructions.md": '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\nI\n',
    ".windsurf/rules/on.md": "---\ntrigger: always_on\n---\n" + "w" * 7_000 + "\n",
    ".windsurf/rules/tsx.md": "---\ntrigger: glob\nglobs: *.tsx\n---\nJ\n",
    ".windsurf/rules/db.md": "---\ntrigger: model_decision\ndescription: database work\n---\nK\n",
    ".clinerules/src.md": '---\npaths:\n  - "src/**"\n---\nL\n',
    ".clinerules/off.md": "---\npaths: []\n---\nM\n",
    ".clinerules/every.md": "N\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, TREE)


def explained(project: Path, agent: str, target: str = "src/ui/button.tsx") -> dict:
    result = run_cli("explain-rules", target, "--agent", agent, "--all", "--output-format", "json", cwd=project)
    assert result.returncode == 0, result.stderr
    (found,) = json.loads(result.stdout)["agents"]
    return {
        key: [entry["path"] for entry in value] if key != "project_memory" else value
        for key, value in found.items()
        if isinstance(value, list)
    }


def test_cursor_files_each_rule_by_its_kind(project: Path) -> None:
    found = explained(project, "cursor")
    assert found["project_memory"] == ["AGENTS.md"]
    assert found["always"] == [".cursor/rules/always.mdc", ".cursorrules"]
    assert found["applying"] == [".cursor/rules/tsx.mdc", "src/.cursor/rules/nested.mdc"]  # nested: from its folder
    assert found["requested"] == [".cursor/rules/manual.mdc", ".cursor/rules/migrations.mdc"]
    assert found["not_applying"] == [".cursor/rules/python.mdc"]


def test_copilot_follows_the_cli(project: Path) -> None:
    found = explained(project, "copilot")
    assert found["project_memory"] == [".github/copilot-instructions.md", "AGENTS.md"]
    assert found["always"] == [".github/instructions/all.instructions.md"]
    assert found["applying"] == [".github/instructions/tsx.instructions.md"]
    assert found["not_applying"] == [".github/instructions/coding.instructions.md"]  # excludeAgent: coding-agent


def test_windsurf_and_cline(project: Path) -> None:
    windsurf = explained(project, "windsurf")
    assert windsurf["always"] == [".windsurf/rules/on.md"] and windsurf["applying"] == [".windsurf/rules/tsx.md"]
    assert windsurf["requested"] == [".windsurf/rules/db.md"]
    cline = explained(project, "cline", "lib/c.py")
    assert cline["always"] == [".clinerules/every.md"] and cline["applying"] == []
    assert cline["not_applying"] == [".clinerules/off.md", ".clinerules/src.md"]


def test_explain_text_names_the_pattern_and_the_request(project: Path) -> None:
    printed = run_cli("explain-rules", "src/ui/button.tsx", "--agent", "cursor", cwd=project).stdout
    assert ".cursor/rules/tsx.mdc — `*.tsx` matched" in printed
    assert "Read on request" in printed and "agent-requested, by its description: When writing migrations" in printed


def test_default_explain_rules_agents_are_the_ones_the_project_uses(project: Path) -> None:
    """Without `--agent`, explain-rules answers for each agent whose traces the project holds."""
    from mnemolint.agents import used_by

    agents = json.loads(run_cli("explain-rules", "src/ui/button.tsx", "--output-format", "json", cwd=project).stdout)
    expected = [agent.name for agent in used_by(str(project))]
    assert [found["agent"] for found in agents["agents"]] == expected == ["cursor", "copilot", "windsurf"]


def test_preview_windsurf_says_what_its_limit_cuts(project: Path) -> None:
    printed = run_cli("preview", ".", "--agent", "windsurf", cwd=project).stdout
    assert ".windsurf/rules/on.md: always, 7,001 characters, 6,000 kept: the rest is cut" in printed
    assert "AGENTS.md: loaded at the start" in printed


@pytest.mark.parametrize("agent", ["cursor", "copilot", "windsurf", "cline"])
def test_preview_lists_every_rule_file_of_the_tool(project: Path, agent: str) -> None:
    result = run_cli("preview", ".", "--agent", agent, "--output-format", "json", cwd=project)
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    prefix = {"cursor": ".cursor", "copilot": ".github", "windsurf": ".windsurf", "cline": ".clinerules"}[agent]
    expected = sorted(rel for rel in TREE if rel.startswith(prefix) and not rel.endswith("copilot-instructions.md"))
    assert sorted(entry["path"] for entry in facts["files"]) == sorted(
        rel for rel in expected if not rel.startswith("src/")
    )  # `.cursorrules` among Cursor's: the legacy file at the root


def test_preview_of_a_folder_without_rules(tmp_path: Path) -> None:
    printed = run_cli("preview", ".", "--agent", "cline", cwd=tmp_path).stdout
    assert printed == "Cline finds no instruction or rule file for a session in ..\n"
