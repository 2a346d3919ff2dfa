"""`mnemolint explain-rules`: what each agent injects when it reads one file, and why, on real
trees (seed 000, path rules and nested memory; READERS.md §2, §4 and B)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import git, run_cli, write_tree

RULE = "---\npaths:\n  - {pattern}\n---\n{body}\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project both agents use, with always-on, conditional, shadowed and nested files."""
    root = tmp_path / "project"
    write_tree(
        root,
        {
            "AGENTS.md": "Project memory for Wave.\n",
            "CLAUDE.md": "@AGENTS.md\n",
            ".wave/rules/style.md": "Two-space indentation.\n",
            ".wave/rules/api.md": RULE.format(pattern='"src/api/**"', body="API errors are typed."),
            ".wave/rules/ui.md": RULE.format(pattern='"src/ui/**"', body="Function components."),
            ".wave/rules/flow.md": "---\npaths: [src/**]\n---\nA flow list.\n",
            ".wave/rules/shared.md": "Wave's copy wins.\n",
            ".claude/rules/shared.md": "Claude Code's copy.\n",
            ".claude/rules/ts.md": RULE.format(pattern='"*.TS"', body="Strict TypeScript."),
            "src/AGENTS.md": "Nested for Wave.\n",
            "src/api/CLAUDE.md": "Nested for Claude Code.\n",
            "src/api/.claude/rules/local.md": RULE.format(pattern='"*.ts"', body="Local to the API."),
            "src/api/user.ts": "export {};\n",
        },
    )
    return root


def explain(project: Path, *args: str) -> str:
    result = run_cli("explain-rules", *args, cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def test_both_agents_one_section_each(project: Path, snapshot) -> None:
    assert explain(project, "src/api/user.ts") == snapshot


def test_all_adds_the_rules_that_do_not_apply_and_why(project: Path, snapshot) -> None:
    assert explain(project, "src/api/user.ts", "--agent", "wave", "--all") == snapshot


def test_json_gives_the_same_facts_as_data(project: Path, snapshot) -> None:
    data = json.loads(explain(project, "src/api/user.ts", "--output-format", "json"))
    data["project"] = os.path.basename(data["project"])
    assert data == snapshot
    wave, claude = data["agents"]
    assert [entry["rule"] for entry in wave["applying"]] == ["api.md"]
    assert wave["replaced"][0]["why"] == "replaced by .wave/rules/shared.md"
    assert [entry["path"] for entry in claude["applying"]] == [".claude/rules/ts.md", "src/api/.claude/rules/local.md"]


def test_each_agent_reads_the_same_glob_its_own_way(project: Path) -> None:
    """`*.TS`: Claude Code matches with gitignore semantics, at any depth and case-insensitively;
    Wave would match it at the root only, case-sensitively — it never reads `.claude/rules` here
    as applying to `src/api/user.ts`."""
    wave = explain(project, "src/api/user.ts", "--agent", "wave", "--all")
    assert ".claude/rules/ts.md — no pattern matched (`*.TS`)" in wave
    claude = explain(project, "src/api/user.ts", "--agent", "claude-code")
    assert ".claude/rules/ts.md — `*.TS` matched" in claude


def test_a_file_outside_the_base_matches_no_conditional_rule(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.ts"
    outside.write_text("x\n")
    text = explain(project, str(outside), "--root", str(project), "--agent", "claude-code", "--all")
    assert ".claude/rules/ts.md — outside the base" in text


def test_a_linked_worktree_path_is_matched_as_its_checkout_path(project: Path) -> None:
    """Seed 000, path rules 6: `src/**`-style patterns still match inside `.wave/worktrees/<name>/`."""
    write_tree(project, {".wave/worktrees/feature/src/api/user.ts": "export {};\n"})
    text = explain(project, ".wave/worktrees/feature/src/api/user.ts", "--agent", "wave")
    assert ".wave/rules/api.md — `src/api/**` matched" in text


def test_a_dangling_link_costs_each_agent_different_rules(project: Path) -> None:
    """Wave stops scanning the directory at the link (the names after it are lost); Claude Code
    drops every rule of that directory level."""
    os.symlink(project / "missing.md", project / ".wave" / "rules" / "m-link.md")
    os.symlink(project / "missing.md", project / ".claude" / "rules" / "a-link.md")
    wave = explain(project, "src/api/user.ts", "--agent", "wave")
    lost = wave.split("Never loaded (a dangling link):\n", 1)[1]
    assert ".wave/rules/style.md — after the dangling link `m-link.md`" in lost
    assert ".wave/rules/shared.md" in lost and ".wave/rules/api.md" not in lost
    claude = explain(project, "src/api/user.ts", "--agent", "claude-code")
    assert ".claude/rules/ts.md — the dangling link `a-link.md` drops its directory" in claude
    assert ".claude/rules/shared.md — the dangling link" in claude


def test_user_rules_come_first_and_are_marked(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_tree(home, {".wave/rules/mine.md": "My own habits.\n"})
    result = run_cli(
        "explain-rules", "src/api/user.ts", "--agent", "wave", "--user-rules", cwd=project, env={"HOME": str(home)}
    )
    assert result.returncode == 0, result.stderr
    assert f"{home}/.wave/rules/mine.md [user]" in result.stdout
    without = run_cli("explain-rules", "src/api/user.ts", "--agent", "wave", cwd=project, env={"HOME": str(home)})
    assert "mine.md" not in without.stdout


def test_the_project_is_the_git_work_tree_when_run_from_outside(project: Path, tmp_path: Path) -> None:
    git("init", "-q", cwd=project)
    result = run_cli("explain-rules", str(project / "src" / "api" / "user.ts"), "--agent", "wave", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ".wave/rules/api.md — `src/api/**` matched" in result.stdout


def test_a_bad_root_is_a_usage_error(project: Path) -> None:
    result = run_cli("explain-rules", "src/api/user.ts", "--root", "nowhere", cwd=project)
    assert result.returncode == 2
    assert "not a directory" in result.stderr


def test_a_file_in_a_linked_git_worktree_is_matched_by_its_checkout_path(project: Path, tmp_path: Path) -> None:
    """`git worktree add` elsewhere: `src/api/user.ts` there is `src/api/user.ts` of the checkout."""
    for command in (
        ["init", "-q"],
        ["add", "-A"],
        ["commit", "-qm", "x"],
        ["worktree", "add", "-q", str(tmp_path / "wt")],
    ):
        git(*command, cwd=project)
    file = tmp_path / "wt" / "src" / "api" / "user.ts"
    text = explain(project, str(file), "--root", str(project), "--agent", "wave")
    assert ".wave/rules/api.md — `src/api/**` matched" in text


def test_claude_code_takes_files_back_out_the_gitignore_way(tmp_path: Path) -> None:
    """`src/**` is `src` (trailing `/**` dropped): the folder matches, and a later `!src/gen/**`
    cannot take a file below it back out; `src/**/*.ts` beside `!src/gen/**` can."""
    write_tree(
        tmp_path,
        {
            ".claude/rules/folder.md": RULE.format(pattern='"src/**"\n  - "!src/gen/**"', body="F."),
            ".claude/rules/files.md": RULE.format(pattern='"src/**/*.ts"\n  - "!src/gen/**"', body="T."),
            "src/gen/a.ts": "x\n",
        },
    )
    text = explain(tmp_path, "src/gen/a.ts", "--agent", "claude-code", "--all")
    assert ".claude/rules/folder.md — `src/**` matched" in text
    assert ".claude/rules/files.md — no pattern matched" in text


def test_an_agent_asked_for_reads_what_its_loader_scans_whatever_the_agents_setting(tmp_path: Path) -> None:
    """`agents = ["wave"]` decides which findings a check makes; `--agent claude-code` still shows
    what Claude Code would load, since the user asked about that agent."""
    write_tree(
        tmp_path,
        {"mnemolint.toml": 'agents = ["wave"]\n', ".claude/rules/a.md": "Always.\n", "src/x.ts": "x\n"},
    )
    assert ".claude/rules/a.md" in explain(tmp_path, "src/x.ts", "--agent", "claude-code")


def test_claude_code_names_the_auto_memory_it_keeps_for_the_project(tmp_path: Path, monkeypatch, capsys) -> None:
    """The folder under ~/.claude/projects/ (the project key, every other character `-`), when
    there is one, or why Claude Code does not load it."""
    from mnemolint.agents.claude_code import auto_memory_dir
    from mnemolint.cli import main

    home, project = tmp_path / "home", tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)

    def shown() -> list[str]:
        main(["explain-rules", "--agent", "claude-code", "--root", str(project), str(project / "src" / "a.ts")])
        return [line for line in capsys.readouterr().out.splitlines() if line.startswith("  Auto memory")]

    assert shown() == []  # none kept yet: nothing to name
    memory = Path(auto_memory_dir(str(project)))
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    expected = "~/" + memory.relative_to(home).as_posix()
    assert shown() == [f"  Auto memory (its MEMORY.md loads in every session): {expected}"]
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
    [line] = shown()
    assert line.endswith("off: `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` turns it off")
