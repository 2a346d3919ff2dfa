"""Claude Code's instruction files as the real client 2.1.332 loads them (agents/claude_code.py):
the folders walked, the AGENTS.md fallback, the 4 MiB skip, imports in list items, imports
outside the session folder and sensitive targets; and the import scan bounded on hostile input.

Each fact is pinned by the oracle case named beside it (tools/oracle/cases_claude_instructions.py,
or the shared harness's cl0… cases), which ran the real client offline.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from conftest import run_lint, write_tree
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemolint.agents import claude_code
from mnemolint.parse import imports as imports_module
from mnemolint.parse.document import Document
from mnemolint.parse.imports import IMPORTED, IN_CODE, IN_COMMENT, imports, strip_comments

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tools" / "oracle" / "cases_claude_instructions.py"


def scan(text: str) -> list[tuple[str, str]]:
    return [(found.written, found.where) for found in imports(text, "/p")]


def explain(root: Path, target: str, cwd: Path | None = None) -> dict:
    """`explain-rules --agent claude-code --output-format json` for a session in `root`."""
    result = subprocess.run(
        [sys.executable, "-m", "mnemolint", "explain-rules", str(root / target), "--agent", "claude-code"]
        + ["--root", str(root), "--output-format", "json"],
        capture_output=True,
        text=True,
        cwd=cwd or root,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    agent = json.loads(result.stdout)["agents"][0]
    brought = [path for paths in agent["imports"].values() for path in paths]
    return {"memory": agent["project_memory"], "nested": agent["nested"], "imports": brought}


# --- which tokens an @path loads from (cl03b, cl2a) -----------------------------------------------


def test_a_list_items_comment_and_code_span_import_but_a_paragraphs_do_not() -> None:
    text = (
        "- item <!-- @li.md -->\n\n6. note: <!-- @ol.md -->\n\n- see `cat @code.md now`\n\n"
        "A paragraph <!-- @para.md --> line.\n\nA paragraph `see @span.md now`.\n\n> quote <!-- @quote.md -->\n"
    )
    assert scan(text) == [
        ("li.md", IMPORTED),
        ("ol.md", IMPORTED),
        ("code.md", IMPORTED),
        ("para.md", IN_COMMENT),
        ("span.md", IN_CODE),
        ("quote.md", IN_COMMENT),
    ]


def test_an_escaped_at_and_an_html_block_import_nothing() -> None:
    assert scan("Para \\@escaped.md and @kept.md\n\n<div>\n@div.md\n</div>\n") == [("kept.md", IMPORTED)]
    assert scan("Then @my\\ notes.md\n") == [("my notes.md", IMPORTED)]  # `\ ` is a space, not an escape


def test_an_import_of_a_non_text_file_is_skipped(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "See @pic.png and @notes.md and @Makefile\n", "notes.md": "n\n"})
    (tmp_path / "pic.png").write_text("not loaded\n")
    (tmp_path / "Makefile").write_text("all:\n")
    assert explain(tmp_path, "CLAUDE.md")["imports"] == ["notes.md", "Makefile"]
    assert claude_code.imports_text_file("a/B.MD") and not claude_code.imports_text_file("x.png")


# --- the folders walked (cl07h, cl08, cl2k) and the AGENTS.md fallback (cl07b-g, cl2b-i) ----------


def test_a_session_gets_every_parents_claude_md_above_the_git_root(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "parent\n", "app/CLAUDE.md": "app\n", "app/.claude/CLAUDE.md": "dot\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path / "app")], check=True)
    found = explain(tmp_path / "app", "x.ts")
    assert found["memory"][-3:] == ["../CLAUDE.md", "CLAUDE.md", ".claude/CLAUDE.md"]


def test_agents_md_loads_only_where_no_claude_md_with_text_loads(tmp_path: Path) -> None:
    agents = {"AGENTS.md": "agents\n", ".claude/AGENTS.md": "dot agents\n"}
    write_tree(tmp_path / "alone", agents)
    assert explain(tmp_path / "alone", "x.ts")["memory"][-2:] == ["AGENTS.md", ".claude/AGENTS.md"]
    write_tree(tmp_path / "local", {**agents, "CLAUDE.local.md": "mine\n"})
    assert explain(tmp_path / "local", "x.ts")["memory"][-1:] == ["CLAUDE.local.md"]
    write_tree(tmp_path / "blank", {**agents, "CLAUDE.md": "\n  \n"})  # empty: loads nothing (cl2b)
    assert "CLAUDE.md" not in explain(tmp_path / "blank", "x.ts")["memory"]
    assert "AGENTS.md" in explain(tmp_path / "blank", "x.ts")["memory"]
    write_tree(tmp_path / "parent", {"AGENTS.md": "up\n", "app/x.txt": "x\n"})  # cl07g
    assert explain(tmp_path / "parent" / "app", "x.txt")["memory"][-1:] == ["../AGENTS.md"]


def test_a_claude_md_over_4_mib_is_skipped_and_agents_md_loads_instead(tmp_path: Path) -> None:
    write_tree(tmp_path / "exact", {"CLAUDE.md": "x" * (claude_code.MAX_BYTES - 1) + "\n"})  # cl2p: loads
    assert explain(tmp_path / "exact", "a.ts")["memory"][-1:] == ["CLAUDE.md"]
    write_tree(tmp_path / "huge", {"CLAUDE.md": "x" * claude_code.MAX_BYTES + "\n", "AGENTS.md": "a\n"})  # cl2f
    assert explain(tmp_path / "huge", "a.ts")["memory"][-1:] == ["AGENTS.md"]
    hits = [d for d in run_lint(tmp_path / "huge", select=["NST002"]) if d.path.endswith("CLAUDE.md")]
    assert (
        len(hits) == 1 and "over the 4,194,304 Claude Code 2.1.332 reads: it skips this file whole" in hits[0].message
    )
    within = [d for d in run_lint(tmp_path / "exact", select=["NST002"])]
    assert len(within) == 1 and "Claude Code loads it (it reads up to 4,194,304 bytes)" in within[0].message


def test_nested_files_load_on_a_touch_below_the_session_folder_only(tmp_path: Path) -> None:
    files = {
        "CLAUDE.md": "root\n",
        "a/CLAUDE.md": "a\n",
        "a/AGENTS.md": "a agents\n",  # a Claude project: never loads (cl2n, cl2h)
        "a/b/CLAUDE.local.md": "local\n",
        "other/CLAUDE.md": "other\n",
    }
    write_tree(tmp_path, files)
    assert explain(tmp_path, "a/b/c/x.ts")["nested"] == ["a/CLAUDE.md", "a/b/CLAUDE.local.md"]
    assert explain(tmp_path / "a", "../other/x.ts")["nested"] == []  # read outside the session folder (cl2o)


def test_nested_agents_md_load_where_their_folder_has_no_claude_md(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"AGENTS.md": "r\n", "sub/CLAUDE.md": "s\n", "sub/AGENTS.md": "s\n", "sub/deep/AGENTS.md": "d\n"}
    )
    assert explain(tmp_path, "sub/deep/x.ts")["nested"] == ["sub/CLAUDE.md", "sub/deep/AGENTS.md"]  # cl2i


def test_imports_outside_the_session_folder_do_not_load(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "CLAUDE.md": "@p.md\n",
            "p.md": "p\n",
            "q.md": "q\n",
            "app/CLAUDE.md": "@../q.md\n@r.md\n",
            "app/r.md": "r\n",
        },
    )
    found = explain(tmp_path / "app", "x.ts")  # cl2l: only r.md loads
    assert found["memory"][-2:] == ["../CLAUDE.md", "CLAUDE.md"] and found["imports"] == ["r.md"]


# --- sensitive import targets (issue 20, homeimport) -----------------------------------------------


def test_an_import_of_a_credential_file_is_reported_and_never_read(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n")
    monkeypatch.setenv("HOME", str(home))
    repo = write_tree(tmp_path / "r", {"CLAUDE.md": "# P\n@~/.ssh/id_rsa\n@.git/config\n@/etc/shadow\n"})
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text("[remote]\n")
    opened: list[str] = []
    load = Document._load

    def spy(self: Document) -> None:
        opened.append(self.path)
        load(self)

    monkeypatch.setattr(Document, "_load", spy)
    for user_memory in (False, True):
        hits = [d for d in run_lint(repo, select=["CLD"], user_memory=user_memory) if d.code == "CLD007"]
        assert [d.line for d in hits] == [2, 3, 4]
    assert not any("id_rsa" in path or path.endswith(".git/config") or "shadow" in path for path in opened)


# --- bounded: each imported file read and scanned once (issue 20, importamp, importsq) -------------


def count_scans(monkeypatch) -> dict[int, int]:
    """How often the import scan parses each text, by its length."""
    counts: dict[int, int] = {}
    runs = imports_module.runs

    def counting(text: str):  # type: ignore[no-untyped-def]
        counts[len(text)] = counts.get(len(text), 0) + 1
        return runs(text)

    monkeypatch.setattr(imports_module, "runs", counting)
    return counts


def test_a_big_file_behind_many_too_deep_imports_is_scanned_once(tmp_path: Path, monkeypatch) -> None:
    files = {f"d/l{i}.md": f"@l{i + 1}.md\n" for i in range(1, 4)}
    files["d/l4.md"] = "\n".join(f"@e{k}.md" for k in range(20)) + "\n"
    files.update({f"d/e{k}.md": "@big.md\n" for k in range(20)})
    files["d/big.md"] = ("@x.md\n" + "![" * 32768)[:65536]  # markdown-it parses it in seconds, once
    files[".claude/rules/r.md"] = "@../../d/l1.md\n"
    counts = count_scans(monkeypatch)
    started = time.perf_counter()
    hits = [d for d in run_lint(write_tree(tmp_path, files), select=["CLD"]) if d.code == "CLD003"]
    assert time.perf_counter() - started < 30  # 20 parses of it before (of 256 KB: 81.6 s, 300 s loaded)
    assert len(hits) == 20 and counts[65536] == 1


def test_rule_files_sharing_one_import_read_it_once(tmp_path: Path, monkeypatch) -> None:
    count = 200
    files = {"shared/common.md": "\n".join(f"@s{j}.md" for j in range(count)) + "\n"}
    files.update({f"shared/s{j}.md": f"shared {j} @x{j}.md\n" for j in range(count)})
    files.update({f".claude/rules/r{i}.md": "rule\n@../../shared/common.md\n" for i in range(count)})
    counts = count_scans(monkeypatch)
    started = time.perf_counter()
    run_lint(write_tree(tmp_path, files), select=["CLD"])
    assert time.perf_counter() - started < 30  # N=200: 64 s before
    assert sum(counts.values()) <= 2 * count + 2  # each rule file and each shared file once


# --- bounded: one linear HTML comment scan (issue 20, comment-redos) -------------------------------


def test_nst001_on_a_megabyte_of_comment_openers_is_linear(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "# a\n", "CLAUDE.md": "see AGENTS.md\n" + "<!--" * 250_000 + "\n"})
    started = time.perf_counter()
    run_lint(tmp_path, select=["NST001"], max_file_bytes=4 << 20)
    assert time.perf_counter() - started < 20  # 62 KB took 10.9 s before; this is 1 MB


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<!->@ a\n", max_size=40))
def test_strip_comments_removes_what_the_lazy_comment_pattern_removes(text: str) -> None:
    assert strip_comments(text)[0] == re.sub(r"<!--[\s\S]*?-->", "", text)


def test_strip_comments_on_a_megabyte_is_fast() -> None:
    text = "<!-- -->" + "<!--" * 250_000
    started = time.perf_counter()
    strip_comments(text)
    assert time.perf_counter() - started < 2


# --- the profile and its oracle cases --------------------------------------------------------------


def test_each_verified_fact_is_a_constant_and_names_existing_cases(tmp_path: Path) -> None:
    sys.path.insert(0, str(CASES.parent))
    try:
        import cases_claude_instructions
    finally:
        sys.path.remove(str(CASES.parent))
    written = set(cases_claude_instructions.write_cases(str(tmp_path)))
    assert all(name.startswith("cl2") for name in written)
    for fact, cases in claude_code.VERIFIED.items():
        assert hasattr(claude_code, fact), fact
        for case in cases:
            # the memory cases (`cl3…`) are checked by tests/test_claude_code_memory.py
            assert case in written or re.fullmatch(r"cl(?:0\d|3\d)[a-z]?_\w+", case), (fact, case)
    assert {case for cases in claude_code.VERIFIED.values() for case in cases if case.startswith("cl2")} == written
    for name in written:
        folder = tmp_path / name
        assert (folder / "client").read_text() == "claude\n" and (folder / "project").is_dir()
        markers: list[str] = []
        for path in (folder / "project").rglob("*"):
            if path.is_file() and ".git" not in path.parts:
                markers += re.findall(r"MARK-[A-Z0-9-]+", path.read_text())
        assert markers and len(markers) == len(set(markers)), name  # in a case, each marker names one place
    assert claude_code.DEFAULT_CHAR_LIMIT == 150_000 and claude_code.SMALL_WINDOW_CHAR_LIMIT == 40_000


def test_nothing_is_read_through_a_sensitive_link_above_the_root(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app/x.txt": "x\n"})
    os.symlink("/etc/passwd", tmp_path / "CLAUDE.md")
    assert "../CLAUDE.md" not in explain(tmp_path / "app", "x.txt")["memory"]
