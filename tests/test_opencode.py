"""OpenCode (agents/opencode.py, kinds/opencode.py, rules/opencode.py): its config reader, the files a
session loads on real trees, `preview --agent opencode` and `explain-rules --agent opencode` as a
user runs them, and the OPC rules firing and staying quiet. What OpenCode itself loads is proven
by the recorded oracle cases (tests/oracle/opencode/, replayed in tests/test_oracle_replay.py)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from conftest import codes, git, only, run_cli, run_lint, write_tree

from mnemolint.agents import OPENCODE, used_by
from mnemolint.agents.opencode import read_config
from mnemolint.kinds.opencode import loads, opencode_session
from mnemolint.options import defaults


def _session(folder: Path, env: dict[str, str] | None = None):
    return opencode_session(str(folder), {}, defaults(), env or {})


def _rel(paths: list[str], base: Path) -> list[str]:
    return [os.path.relpath(path, base).replace(os.sep, "/") for path in paths]


# ------------------------------------------------------------------ the config reader
@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ('{"instructions": ["a.md", "docs/*.md"]}', ["a.md", "docs/*.md"]),
        ('{\n  // rules\n  "instructions": ["a.md", /* b */ "c.md",],\n}', ["a.md", "c.md"]),
        ('{"instructions": ["old.md"], "instructions": ["new.md"]}', ["new.md"]),  # the last key wins
        ('{"agent": {"instructions": ["nested.md"]}}', []),
        ('{"instructions": ["a\\"b, ]c.md"]}', ['a"b, ]c.md']),
        ('{"model": "x"}', []),
    ],
)
def test_the_config_reader_takes_what_opencode_takes(text: str, entries: list[str]) -> None:
    config = read_config(text)
    assert config.error is None
    assert [entry for entry, _ in config.instructions] == entries
    assert all(text[offset] == '"' for _, offset in config.instructions)  # where each entry is written


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"instructions": "a.md"}', "not a list of strings"),
        ('{"instructions": [1]}', "not a list of strings"),
        ('{"instructions": ["a.md"', "not JSON"),
        ('{"instructions": ' + "[" * 300, "nested more than"),
    ],
)
def test_a_config_it_cannot_read_says_why(text: str, why: str) -> None:
    config = read_config(text)
    assert config.instructions == [] and why in (config.error or "")


@pytest.mark.parametrize(
    "unit", ['"instructions": /*', '"instructions": "\\', '"instructions": ,', '{"instructions": ["a", ', '"\n']
)
def test_the_config_reader_is_linear_on_a_megabyte(unit: str) -> None:
    text = (unit * ((1 << 20) // len(unit) + 1))[: 1 << 20]
    started = time.perf_counter()
    read_config(text)
    assert time.perf_counter() - started < 10


# ------------------------------------------------------------------ the session walk
def test_the_first_name_found_up_to_the_git_root_wins_and_every_copy_of_it_loads(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"AGENTS.md": "root\n", "app/CLAUDE.md": "app claude\n", "app/sub/AGENTS.md": "sub\n", "app/sub/x.txt": ""},
    )
    git("init", "-q", cwd=tmp_path)
    walk = _session(tmp_path / "app" / "sub")
    assert walk.project_files()[0] == "AGENTS.md"
    assert _rel(walk.start(), tmp_path) == ["app/sub/AGENTS.md", "AGENTS.md"]  # nearest first
    assert _rel(_session(tmp_path / "app").start(), tmp_path) == ["AGENTS.md"]  # app/CLAUDE.md loses


def test_claude_md_loads_where_no_agents_md_stands_unless_the_environment_turns_it_off(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "claude\n", "CONTEXT.md": "context\n"})
    git("init", "-q", cwd=tmp_path)
    assert _rel(_session(tmp_path).start(), tmp_path) == ["CLAUDE.md"]
    off = _session(tmp_path, {"OPENCODE_DISABLE_CLAUDE_CODE_PROMPT": "1"})
    assert _rel(off.start(), tmp_path) == ["CONTEXT.md"]


def test_an_empty_agents_md_wins_and_loads_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "", "CLAUDE.md": "claude\n"})
    git("init", "-q", cwd=tmp_path)
    walk = _session(tmp_path)
    assert walk.start() == []
    facts = loads(walk)
    assert [(f["origin"], f["sent"], f["why"]) for f in facts["files"]] == [("project", False, "empty")]
    assert [entry["name"] for entry in facts["not_loaded"]] == ["CLAUDE.md"]


def test_instructions_entries_are_globbed_from_the_session_folder_up(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "opencode.json": '{"instructions": ["rules.md", "docs/**/*.md", "gone.md", "https://x.invalid/r.md"]}',
            "rules.md": "root rules\n",
            "app/rules.md": "app rules\n",
            "docs/a.md": "a\n",
            "docs/deep/b.md": "b\n",
            "docs/c.txt": "c\n",
            "app/x.txt": "",
        },
    )
    git("init", "-q", cwd=tmp_path)
    walk = _session(tmp_path / "app")
    assert _rel(walk.start(), tmp_path) == ["app/rules.md", "rules.md", "docs/a.md", "docs/deep/b.md"]
    assert walk.urls() == ["https://x.invalid/r.md"]
    facts = loads(walk)
    assert [entry["entry"] for entry in facts["entries"] if not entry["files"]] == ["gone.md", "https://x.invalid/r.md"]


def test_a_read_below_attaches_each_folders_first_name_nearest_first(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "AGENTS.md": "root\n",
            "lib/AGENTS.md": "lib\n",
            "lib/CLAUDE.md": "lib claude\n",
            "lib/deep/CLAUDE.md": "deep\n",
            "lib/deep/x.ts": "",
        },
    )
    git("init", "-q", cwd=tmp_path)
    walk = _session(tmp_path)
    assert _rel(walk.nested(str(tmp_path / "lib" / "deep" / "x.ts")), tmp_path) == [
        "lib/deep/CLAUDE.md",
        "lib/AGENTS.md",
    ]
    assert walk.nested(str(tmp_path / "elsewhere.ts")) == []


def test_a_project_uses_opencode_where_its_config_stands(tmp_path: Path) -> None:
    assert OPENCODE not in used_by(str(tmp_path))
    write_tree(tmp_path, {"opencode.json": "{}\n"})
    assert OPENCODE in used_by(str(tmp_path))


# ------------------------------------------------------------------ the commands
def test_preview_says_what_a_session_loads_and_leaves(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "AGENTS.md": "Run the tests.\n",
            "CLAUDE.md": "Claude only.\n",
            "opencode.json": '{"instructions": ["docs/*.md", "gone.md"]}\n',
            "docs/style.md": "Style.\n",
            "docs/empty.md": "",
        },
    )
    git("init", "-q", cwd=tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CONFIG_HOME": ""}
    done = run_cli("preview", "--agent", "opencode", ".", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "OpenCode 1.18.33 loads, for a session in ., each file whole, in this order:",
        "  AGENTS.md (project): 15 bytes",
        "  docs/empty.md (instructions `docs/*.md`): not sent: empty",
        "  docs/style.md (instructions `docs/*.md`): 7 bytes",
        "Not loaded by OpenCode:",
        "  CLAUDE.md: AGENTS.md wins: OpenCode loads only the first of AGENTS.md, CLAUDE.md, CONTEXT.md it finds "
        "on its way",
        "`instructions` entries that bring no file here:",
        "  `gone.md` (opencode.json)",
    ]
    as_json = json.loads(
        run_cli("preview", "--agent", "opencode", "--output-format", "json", ".", cwd=tmp_path, env=env).stdout
    )
    assert [(f["path"], f["sent"]) for f in as_json["files"]] == [
        ("AGENTS.md", True),
        ("docs/empty.md", False),
        ("docs/style.md", True),
    ]


def test_preview_of_a_folder_opencode_loads_nothing_in(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    done = run_cli("preview", "--agent", "opencode", ".", cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert done.returncode == 0 and done.stdout == "OpenCode 1.18.33 loads no instruction file for a session in ..\n"


def test_explain_rules_lists_what_opencode_attaches_on_a_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "root\n", "lib/CLAUDE.md": "lib\n", "lib/x.ts": ""})
    git("init", "-q", cwd=tmp_path)
    done = run_cli(
        "explain-rules",
        "--agent",
        "opencode",
        "--output-format",
        "json",
        "lib/x.ts",
        cwd=tmp_path,
        env={"HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    (agent,) = json.loads(done.stdout)["agents"]
    assert (agent["agent"], agent["project_memory"], agent["nested"]) == ("opencode", ["AGENTS.md"], ["lib/CLAUDE.md"])


# ------------------------------------------------------------------ the rules
def test_opc001_fires_on_an_entry_that_brings_nothing_and_not_on_one_that_does(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "opencode.json": '{\n  "instructions": [\n    "docs/*.md",\n    "missing.md",\n    "empty.md",\n'
            '    "https://x.invalid/a.md",\n    "{env:RULES}",\n    "~/mine.md"\n  ]\n}\n',
            "docs/a.md": "a\n",
            "empty.md": "",
        },
    )
    git("init", "-q", cwd=tmp_path)
    found = only(run_lint(tmp_path, select=["OPC001"], preview=True), "OPC001")
    assert [(d.line, "`missing.md`" in d.message or "`empty.md`" in d.message) for d in found] == [(4, True), (5, True)]
    assert "matches only empty files" in found[1].message


def test_opc001_looks_up_from_the_folder_of_a_dot_opencode_config(tmp_path: Path) -> None:
    write_tree(tmp_path, {".opencode/opencode.json": '{"instructions": ["team.md"]}', "team.md": "team\n"})
    git("init", "-q", cwd=tmp_path)
    assert codes(run_lint(tmp_path, select=["OPC001"], preview=True)) == []


def test_opc002_fires_on_a_claude_md_beside_an_agents_md_in_a_project_using_opencode(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "shared\n", "CLAUDE.md": "claude\n", "sub/CLAUDE.md": "sub\n"})
    git("init", "-q", cwd=tmp_path)
    assert codes(run_lint(tmp_path, select=["OPC002"], preview=True)) == []  # no trace of OpenCode
    write_tree(tmp_path, {"opencode.json": "{}\n"})
    found = run_lint(tmp_path, select=["OPC002"], preview=True)
    assert [os.path.relpath(d.path, tmp_path) for d in found] == ["CLAUDE.md"]  # sub/ has no AGENTS.md
    assert "Claude Code" in found[0].message
    write_tree(tmp_path, {"opencode.json": '{"instructions": ["CLAUDE.md"]}\n'})  # named: it loads
    assert codes(run_lint(tmp_path, select=["OPC002"], preview=True)) == []


def test_opc003_fires_on_an_empty_agents_md_that_hides_a_claude_md(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "", "CLAUDE.md": "claude\n", "opencode.json": "{}\n"})
    git("init", "-q", cwd=tmp_path)
    assert codes(run_lint(tmp_path, select=["OPC003"], preview=True)) == ["OPC003"]
    write_tree(tmp_path, {"AGENTS.md": "now with text\n"})
    assert codes(run_lint(tmp_path, select=["OPC003"], preview=True)) == []


def test_the_opc_rules_are_preview_only(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "", "CLAUDE.md": "claude\n", "opencode.json": '{"instructions": ["x.md"]}'})
    git("init", "-q", cwd=tmp_path)
    assert not [code for code in codes(run_lint(tmp_path, preview=False)) if code.startswith("OPC")]
    assert {"OPC001", "OPC002", "OPC003"} <= set(codes(run_lint(tmp_path)))  # with preview


def test_explain_rules_shows_each_agent_the_project_uses_reading_one_agents_md(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"AGENTS.md": "shared\n", "opencode.json": "{}\n", ".claude/settings.json": "{}\n", "x.ts": ""}
    )
    git("init", "-q", cwd=tmp_path)
    done = run_cli("explain-rules", "--output-format", "json", "x.ts", cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    shown = {agent["agent"]: agent["project_memory"] for agent in json.loads(done.stdout)["agents"]}
    assert shown == {"claude-code": ["AGENTS.md"], "opencode": ["AGENTS.md"]}


def test_a_finding_about_an_agents_md_names_the_agents_it_affects(tmp_path: Path) -> None:
    write_tree(tmp_path, {"AGENTS.md": "", "CLAUDE.md": "claude\n", "opencode.json": "{}\n"})
    git("init", "-q", cwd=tmp_path)
    done = run_cli("check", "--preview", "--no-cache", "--output-format", "json", ".", cwd=tmp_path)
    agents = {(f["path"], f["code"]): f.get("agents") for f in json.loads(done.stdout)}
    assert agents[("AGENTS.md", "OPC003")] == ["opencode"]  # Claude Code reads the CLAUDE.md beside it
    assert agents[("CLAUDE.md", "OPC002")] == ["claude-code"]  # OpenCode takes the AGENTS.md beside it
    sarif = json.loads(
        run_cli("check", "--preview", "--no-cache", "--output-format", "sarif", ".", cwd=tmp_path).stdout
    )
    results = sarif["runs"][0]["results"]
    assert any(result.get("properties", {}).get("agents") == ["opencode"] for result in results)


def test_a_glob_lists_a_bounded_number_of_entries_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemolint.agents import opencode

    write_tree(tmp_path, {f"docs/d{i:02d}/n{j}.md": "x\n" for i in range(20) for j in range(5)})
    write_tree(tmp_path, {"opencode.json": '{"instructions": ["**/*.md"]}'})
    git("init", "-q", cwd=tmp_path)
    monkeypatch.setattr(opencode, "GLOB_MAX_ENTRIES", 30)
    facts = loads(_session(tmp_path))
    assert facts["partial"] == ["**/*.md"] and 0 < len(facts["files"]) < 100
    monkeypatch.setattr(opencode, "GLOB_MAX_ENTRIES", 10_000)
    assert len(loads(_session(tmp_path))["files"]) == 100
