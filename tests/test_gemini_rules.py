"""The GEM rules, `preview --agent gemini-cli` and `explain-rules --agent gemini-cli` on real trees:
each rule fires where Gemini CLI 0.61.0 sends something other than the file says, and stays quiet
where it does not (the facts themselves are pinned in tests/test_gemini_cli.py and proven by the
recorded fixtures of tests/oracle/gemini-cli/)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import run_cli, run_lint, write_tree


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of the test's own: no user's ~/.gemini/ counts."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def gem(root: Path, *codes: str) -> list[tuple[str, str, int | None]]:
    found = run_lint(root, select=list(codes) or ["GEM"], preview=True)
    return [(d.code, Path(d.path).relative_to(root).as_posix(), d.line) for d in found]


def project(tmp_path: Path, files: dict[str, str], git: bool = True) -> Path:
    root = tmp_path / "p"
    write_tree(root, ({".git/HEAD": "ref: refs/heads/main\n"} if git else {}) | files)
    return root


def test_a_project_without_gemini_cli_gets_no_gem_finding(tmp_path: Path) -> None:
    root = project(tmp_path, {"AGENTS.md": "@missing.md\n", "CLAUDE.md": "x\n"})
    assert gem(root) == []


def test_the_agents_setting_turns_the_rules_on(tmp_path: Path) -> None:
    root = project(tmp_path, {"AGENTS.md": "x\n", "mnemolint.toml": 'agents = ["gemini-cli"]\n'})
    assert gem(root, "GEM008") == [("GEM008", "AGENTS.md", None)]


def test_import_rules_fire_where_the_processor_sends_a_note(tmp_path: Path) -> None:
    files = {
        "GEMINI.md": "@missing.md\n@../out.md\n@a.md\n`@code.md` and mail me@example.com\n@d1.md\n",
        "a.md": "@b.md\n",
        "b.md": "@a.md\n",
        **{f"d{i}.md": f"@d{i + 1}.md\n" for i in range(1, 7)},
    }
    root = project(tmp_path, files)
    (tmp_path / "out.md").write_text("outside\n")
    assert sorted(gem(root, "GEM001", "GEM002", "GEM003", "GEM004")) == [
        ("GEM001", "GEMINI.md", 1),
        ("GEM002", "GEMINI.md", 2),
        ("GEM003", "d5.md", 1),
        ("GEM004", "b.md", 1),
    ]


def test_imports_that_bring_their_file_are_quiet(tmp_path: Path) -> None:
    root = project(
        tmp_path, {"GEMINI.md": "@docs/a.md\n```\n@nothing.md\n```\n", "docs/a.md": "@b.md\n", "docs/b.md": "b"}
    )
    assert gem(root) == []


def test_a_mention_is_told_how_to_stay_text(tmp_path: Path) -> None:
    root = project(tmp_path, {"GEMINI.md": "Ask @maria.\n"})
    [finding] = run_lint(root, select=["GEM001"], preview=True)
    assert "`@maria.`" in finding.message and "backticks" not in finding.message  # `maria.` looks like a path
    write_tree(root, {"GEMINI.md": "Ask @maria first\n"})
    [finding] = run_lint(root, select=["GEM001"], preview=True)
    assert "in backticks" in finding.message


def test_without_git_a_parent_import_is_outside(tmp_path: Path) -> None:
    root = project(tmp_path, {"GEMINI.md": "# top\n", "docs/GEMINI.md": "@../STYLE.md\n", "STYLE.md": "s"}, git=False)
    assert gem(root, "GEM002") == [("GEM002", "docs/GEMINI.md", 1)]
    (root / ".git").mkdir()
    assert gem(root, "GEM002") == []


def test_a_credential_import_is_an_error_and_never_read(tmp_path: Path) -> None:
    root = project(tmp_path, {"GEMINI.md": "@.env\n", ".env": "API_TOKEN=abc123\n"})
    [finding] = run_lint(root, select=["GEM005"], preview=True)
    assert finding.severity == "error" and "abc123" not in finding.message
    result = run_cli("preview", "--agent", "gemini-cli", str(root))
    assert "abc123" not in result.stdout and "@.env: unread" in result.stdout


def test_a_setting_naming_no_file(tmp_path: Path) -> None:
    settings = '{\n  "context": {"fileName": ["AGENTS.md", "CONTXT.md", "GEMINI.md"]}\n}\n'
    root = project(tmp_path, {".gemini/settings.json": settings, "AGENTS.md": "a", "docs/CONTEXT.md": "c"})
    [finding] = run_lint(root, select=["GEM006"], preview=True)
    assert (finding.line, finding.column) == (2, 42) and "`CONTXT.md`" in finding.message
    write_tree(root, {"docs/CONTXT.md": "now it stands somewhere"})
    assert gem(root, "GEM006") == []


def test_a_setting_of_the_users_own_is_not_the_projects_to_fix(tmp_path: Path, home: Path) -> None:
    write_tree(home, {".gemini/settings.json": '{"context": {"fileName": "NOPE.md"}}'})
    root = project(tmp_path, {"GEMINI.md": "x"})
    assert gem(root, "GEM006") == []


def test_a_context_file_below_an_ignored_folder_is_unreached(tmp_path: Path) -> None:
    root = project(
        tmp_path, {".geminiignore": "build/\n", "GEMINI.md": "x", "build/GEMINI.md": "b", "src/GEMINI.md": "s"}
    )
    [finding] = run_lint(root, select=["GEM007"], preview=True)
    assert finding.path.endswith("build/GEMINI.md") and "`build/` in .geminiignore (line 1)" in finding.message
    write_tree(root, {".geminiignore": "", ".gitignore": "build/\n"})
    assert gem(root, "GEM007") == [("GEM007", "build/GEMINI.md", None)]  # the tools honour .gitignore too


def test_an_ignored_file_on_the_way_up_still_loads(tmp_path: Path) -> None:
    root = project(tmp_path, {".geminiignore": "GEMINI.md\n", "GEMINI.md": "@missing.md\n"})
    assert gem(root) == [("GEM001", "GEMINI.md", 1)]


def test_agents_md_beside_no_gemini_file(tmp_path: Path) -> None:
    root = project(
        tmp_path, {".gemini/settings.json": "{}", "AGENTS.md": "a", "sub/AGENTS.md": "b", "sub/GEMINI.md": "g"}
    )
    assert gem(root, "GEM008") == [("GEM008", "AGENTS.md", None)]
    write_tree(root, {".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}'})
    assert gem(root, "GEM008") == []


def test_preview_shows_what_each_file_sends(tmp_path: Path, home: Path) -> None:
    write_tree(home, {".gemini/GEMINI.md": "  mine  \n"})
    root = project(tmp_path, {"GEMINI.md": "top @a.md\n@gone.md\n", "a.md": "A", "sub/GEMINI.md": "later"})
    result = run_cli("preview", "--agent", "gemini-cli", "--output-format", "json", str(root))
    facts = json.loads(result.stdout)
    files = [(Path(entry["path"]).name, entry["kind"], entry["sent"]) for entry in facts["files"]]
    assert files[0] == ("GEMINI.md", "global", "mine")
    assert files[1][:2] == ("GEMINI.md", "project") and files[1][2].startswith("top <!-- Imported from: a.md -->\nA\n")
    assert [found["outcome"] for found in facts["files"][1]["imports"]] == ["imported", "failed"]
    text = run_cli("preview", "--agent", "gemini-cli", str(root)).stdout
    assert "(project, in the first message)" in text and "@gone.md: failed: ENOENT" in text


def test_explain_rules_lists_what_a_read_adds(tmp_path: Path) -> None:
    root = project(tmp_path, {"GEMINI.md": "@a.md\n", "a.md": "A", "sub/GEMINI.md": "s", "sub/x.py": ""})
    result = run_cli(
        "explain-rules", "--agent", "gemini-cli", "--root", str(root), "--output-format", "json", str(root / "sub/x.py")
    )
    [agent] = json.loads(result.stdout)["agents"]
    assert (agent["project_memory"], agent["nested"], agent["imports"]) == (
        ["GEMINI.md"],
        ["sub/GEMINI.md"],
        {"GEMINI.md": ["a.md"]},
    )
    text = run_cli("explain-rules", "--agent", "gemini-cli", "--root", str(root), str(root / "sub/x.py")).stdout
    assert text.startswith("Gemini CLI: what it injects when it reads sub/x.py")


def test_gem_rules_are_bounded_on_a_megabyte(tmp_path: Path) -> None:
    """A megabyte of backtick runs and `@` words, and an import tree that multiplies."""
    files = {"GEMINI.md": "`a" * (1 << 18) + " @x" * (1 << 17) + "\n@l1.md " * 8}
    files.update({f"l{i}.md": f"@l{i + 1}.md " * 8 for i in range(1, 6)})
    root = project(tmp_path, files)
    started = time.perf_counter()
    run_lint(root, select=["GEM"], preview=True)
    assert time.perf_counter() - started < 60
