"""Claude Code's `@path` imports (parse/imports.py) and the CLD rules (rules/claude.py).

The resolver follows claudemd.ts:459-670 (READERS.md B): `@path` in text tokens only (never in a
code span, a fence, an indented block or an HTML comment, but in what an HTML comment block leaves
beside it), relative to the importing file, `#fragment` stripped, `\\ ` for a space, the path
running to white space (so a trailing `:` or `,` is part of it), each file once, 4 nested levels.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import run_lint, write_tree

from mnemolint.parse.document import Document
from mnemolint.parse.imports import IMPORTED, IN_CODE, IN_COMMENT, expand, imports

OPTIONS = {"max-file-bytes": 1 << 21, "yaml-max-depth": 32}


def scan(text: str, folder: str = "/p") -> list[tuple[int, int, str, str | None, str]]:
    return [(i.line, i.column, i.written, i.path, i.where) for i in imports(text, folder)]


def found(root: Path, code: str, **options: object) -> list[tuple[str, int | None, str]]:
    return [
        (os.path.relpath(d.path, root).replace(os.sep, "/"), d.line, d.message)
        for d in run_lint(root, select=[code], **options)
        if d.code == code
    ]


# --- the resolver --------------------------------------------------------------------------------


def test_resolution_cases_pinned(snapshot) -> None:
    text = (
        "---\npaths: src/**\n---\n"  # frontmatter: scanned after it, lines still counted from the file
        "Read @docs/a.md#setup first.\n"  # fragment stripped
        "Then @my\\ notes.md and @./b.md, @/abs/c.md and @~/home.md\n"  # escaped space, ./, trailing comma, /, ~/
        "Inline `@docs/code.md` is code.\n"
        "mail me@example.com or ask @alice\n"  # not after white space; a mention is still scanned
        "\n```\n@fenced.md\n```\n\n"
        "    @indented.md\n\n"
        "<!-- @hidden.md -->\n\n"
        "<!-- note --> @after-comment.md\n\n"
        "- item @list/item.md\n"
        "# Heading @head.md\n"
    )
    assert scan(text) == snapshot


def test_imports_in_text_and_in_code() -> None:
    assert scan("@a.md\n") == [(1, 1, "a.md", "/p/a.md", IMPORTED)]
    assert scan("`@a.md`\n") == [(1, 2, "a.md", "/p/a.md", IN_CODE)]
    assert scan("```\n@a.md\n```\n") == [(2, 1, "a.md", "/p/a.md", IN_CODE)]
    assert scan("<!-- @a.md -->\n") == [(1, 6, "a.md", "/p/a.md", IN_COMMENT)]  # listed, not imported
    assert scan("x@a.md @@b.md @#c @%d\n") == []  # not after a space; `@@`, `#`, `%` are no paths


def test_fragment_and_escaped_space() -> None:
    assert scan("@a\\ b.md#part\n") == [(1, 1, "a b.md", "/p/a b.md", IMPORTED)]


def chain(tmp_path: Path, levels: int) -> Path:
    files = {"CLAUDE.md": "@l1.md\n"}
    for level in range(1, levels + 1):
        files[f"l{level}.md"] = f"@l{level + 1}.md\n" if level < levels else "end\n"
    return write_tree(tmp_path, files)


def test_expansion_follows_four_levels_and_no_more(tmp_path: Path) -> None:
    root = chain(tmp_path, 6)
    expansion = expand(Document(str(root / "CLAUDE.md"), None, OPTIONS), str(root))
    assert [(os.path.basename(path), depth) for path, depth in expansion.loaded] == [
        ("CLAUDE.md", 0),
        ("l1.md", 1),
        ("l2.md", 2),
        ("l3.md", 3),
        ("l4.md", 4),
    ]
    (edge, lost) = expansion.too_deep[0]
    assert os.path.basename(edge.source) == "l4.md"
    assert [os.path.basename(path) for path in lost] == ["l5.md", "l6.md"]


def test_a_file_imported_twice_loads_once_and_is_no_cycle(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"CLAUDE.md": "@a.md\n@b.md\n", "a.md": "@c.md\n", "b.md": "@c.md\n", "c.md": "c\n"})
    expansion = expand(Document(str(root / "CLAUDE.md"), None, OPTIONS), str(root))
    assert [os.path.basename(path) for path, _ in expansion.loaded] == ["CLAUDE.md", "a.md", "c.md", "b.md"]
    assert expansion.cycles == []


def test_an_empty_file_loads_nothing_and_its_imports_are_not_followed(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"CLAUDE.md": "@a.md\n", "a.md": "  \n"})
    expansion = expand(Document(str(root / "CLAUDE.md"), None, OPTIONS), str(root))
    assert [os.path.basename(path) for path, _ in expansion.loaded] == ["CLAUDE.md"]


# --- CLD001 import-not-found --------------------------------------------------------------------


def test_cld001_fires_on_a_missing_file_and_not_on_mentions(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "See @docs/gone.md.\nAsk @alice, or read @types/node docs.\n"})
    assert found(tmp_path, "CLD001") == [
        (
            "CLAUDE.md",
            1,
            "`@docs/gone.md.` resolves to `docs/gone.md.`, which does not exist (the `.` after it is part of the "
            "path too) (the path is relative to this file): Claude Code drops the import silently, so nothing of "
            "it loads.",
        )
    ]


def test_cld001_quiet_when_the_file_exists_relative_to_the_importer(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pkg/CLAUDE.md": "@notes.md\n", "pkg/notes.md": "n\n", "notes.md": "root\n"})
    assert found(tmp_path, "CLD001") == []


def test_cld001_reports_an_import_in_an_imported_file_on_that_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "@a.md\n", "a.md": "x\n@b/missing.md\n"})
    assert [(path, line) for path, line, _ in found(tmp_path, "CLD001")] == [("a.md", 2)]


def test_cld001_an_import_out_of_the_repository_is_info_and_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret-ish\n@missing.md\n", encoding="utf-8")
    repo = write_tree(tmp_path / "repo", {"CLAUDE.md": "@../outside.md\n"})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    diagnostics = [d for d in run_lint(repo, select=["CLD"]) if d.code == "CLD001"]
    assert [(d.severity, d.line) for d in diagnostics] == [("info", 1)]
    assert "outside the repository" in diagnostics[0].message


def test_agents_md_is_scanned_only_where_claude_code_falls_back_to_it(tmp_path: Path) -> None:
    # Claude Code 2.1.332 loads AGENTS.md where no CLAUDE.md loads (oracle cl07b, cl2e): its imports count
    files = {"AGENTS.md": "@gone.md\n", ".wave/rules/a.md": "@gone.md\n", ".claude/rules/b.md": "@gone.md\n"}
    write_tree(tmp_path / "alone", files)
    assert sorted(path for path, _, _ in found(tmp_path / "alone", "CLD001")) == [".claude/rules/b.md", "AGENTS.md"]
    write_tree(tmp_path / "beside", {**files, "CLAUDE.md": "Claude's own.\n"})  # a CLAUDE.md keeps AGENTS.md out
    assert [path for path, _, _ in found(tmp_path / "beside", "CLD001")] == [".claude/rules/b.md"]
    write_tree(tmp_path / "blank", {**files, "CLAUDE.md": "\n  \n"})  # an empty one loads nothing (cl2b)
    assert sorted(path for path, _, _ in found(tmp_path / "blank", "CLD001")) == [".claude/rules/b.md", "AGENTS.md"]


# --- CLD002 import-trailing-punctuation ---------------------------------------------------------


def test_cld002_fires_when_the_file_without_the_punctuation_exists(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "Read @notes.md: it matters.\n", "notes.md": "n\n"})
    assert [line for _, line, _ in found(tmp_path, "CLD002")] == [1]
    assert found(tmp_path, "CLD001") == []


def test_cld002_quiet_for_a_clean_import(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "Read @notes.md : it matters.\n", "notes.md": "n\n"})
    assert found(tmp_path, "CLD002") == []


# --- CLD003 import-too-deep ---------------------------------------------------------------------


def test_cld003_fires_past_four_levels(tmp_path: Path) -> None:
    chain(tmp_path, 5)
    hits = found(tmp_path, "CLD003")
    assert [(path, line) for path, line, _ in hits] == [("l4.md", 1)]
    assert "`l5.md` never loads" in hits[0][2]


def test_cld003_quiet_at_four_levels(tmp_path: Path) -> None:
    chain(tmp_path, 4)
    assert found(tmp_path, "CLD003") == []


# --- CLD004 import-cycle ------------------------------------------------------------------------


def test_cld004_reports_a_cycle_once(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "@a.md\n", "a.md": "@b.md\n", "b.md": "@a.md\n", "CLAUDE.local.md": "@b.md\n"})
    hits = found(tmp_path, "CLD004")
    assert len(hits) == 1
    assert "(b.md → a.md → b.md)" in hits[0][2]  # found first from CLAUDE.local.md, the first root walked


def test_cld004_quiet_without_a_cycle(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "@a.md\n@b.md\n", "a.md": "@b.md\n", "b.md": "b\n"})
    assert found(tmp_path, "CLD004") == []


# --- CLD005 import-in-code ----------------------------------------------------------------------


def test_cld005_fires_in_a_code_span_and_a_fence_naming_a_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "`@a.md`\n\n```\n@a.md\n@app.route\n```\n", "a.md": "a\n"})
    assert [line for _, line, _ in found(tmp_path, "CLD005")] == [1, 4]


def test_cld005_quiet_for_a_file_claude_code_loads_anyway(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"CLAUDE.md": "Style: `@.claude/rules/style.md`\n", ".claude/rules/style.md": "Four spaces.\n"}
    )
    assert found(tmp_path, "CLD005") == []


def test_cld005_quiet_for_code_naming_no_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "```python\n@dataclass\nclass A: ...\n```\n`@Override`\n"})
    assert found(tmp_path, "CLD005") == []


# --- CLD006 claude-md-too-large -----------------------------------------------------------------


def test_cld006_measures_each_file_on_its_own_and_not_the_comments(tmp_path: Path) -> None:
    # Claude Code 2.1.332 judges each file it loads, an imported one too, at 150,000 characters for
    # its default model (oracle cl2q: a nested file is cut there); comments are not counted
    write_tree(tmp_path, {"CLAUDE.md": "@big.md\n" + "y" * 100_000 + "\n", "big.md": "x" * 150_001 + "\n"})
    hits = found(tmp_path, "CLD006")
    assert [path for path, _, _ in hits] == ["big.md"]
    assert "150,002 characters" in hits[0][2] and "imported by `CLAUDE.md`" in hits[0][2]
    assert "Large big.md will impact performance (150,002 chars > 150,000)" in hits[0][2]
    write_tree(tmp_path, {"big.md": "<!--\n" + "x" * 150_001 + "\n-->\nshort\n"})
    assert found(tmp_path, "CLD006") == []


def test_cld006_takes_the_limit_of_another_model(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "z" * 45_000 + "\n", "sub/CLAUDE.md": "w" * 45_000 + "\n"})
    assert found(tmp_path, "CLD006") == []
    hits = found(tmp_path, "CLD006", claude_md_max_chars=40_000)  # a 200,000-token model
    assert [path for path, _, _ in hits] == ["CLAUDE.md", "sub/CLAUDE.md"]
    assert "cut at the last line break" not in hits[0][2] and "cut at the last line break" in hits[1][2]


# --- explain-rules --agent claude-code ----------------------------------------------------------


def test_explain_rules_lists_the_files_each_instruction_file_imports(tmp_path: Path) -> None:
    from conftest import run_cli

    write_tree(
        tmp_path,
        {
            "CLAUDE.md": "@docs/a.md\n",
            "docs/a.md": "a @b.md\n",
            "docs/b.md": "b\n",
            ".claude/rules/style.md": "Style: @../../docs/style.md\n",
            "docs/style.md": "four spaces\n",
            "src/x.ts": "",
        },
    )
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = run_cli("explain-rules", "src/x.ts", "--agent", "claude-code", cwd=tmp_path)
    assert "  Imported with them (@imports):\n    CLAUDE.md → docs/a.md, docs/b.md\n" in done.stdout
    assert "    .claude/rules/style.md → docs/style.md\n" in done.stdout
    wave = run_cli("explain-rules", "src/x.ts", "--agent", "wave", cwd=tmp_path)
    assert "@imports" not in wave.stdout  # Wave follows no import


def test_home_imports_are_checked_only_with_user_memory(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "prefs.md").write_text("mine\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    repo = write_tree(tmp_path / "repo", {"CLAUDE.local.md": "@~/.claude/prefs.md\n@~/.claude/gone.md\n"})
    assert found(repo, "CLD001") == []  # whose home it is decides: not checked
    hits = found(repo, "CLD001", user_memory=True)
    assert [line for _, line, _ in hits] == [2]
    assert hits[0][2].startswith("`@~/.claude/gone.md` resolves to `~/.claude/gone.md`, which does not exist")
