"""The agent seam (agents/base.py, agents/__init__.py): every profile is complete and names real
facts, the registry derives what the core asks, and the generic session walk loads what each
declared order says, on real trees."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest
from conftest import write_tree

from mnemolint import agents
from mnemolint.agents import AGENTS, CLAUDE_CODE, CODEX, OPENCODE, WAVE, by_name, reader_of, readers_of, used_by
from mnemolint.agents.base import CLIENT, DOCS, SOURCE, Agent, Instructions, Session, Verified
from mnemolint.errors import ConfigError
from mnemolint.kinds.instructions import INSTRUCTION_FILE, session
from mnemolint.options import AGENTS as AGENTS_OPTION


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: agent.name)
def test_each_profile_says_how_it_was_verified_and_names_facts_of_its_module(agent: Agent) -> None:
    module = importlib.import_module(_module_of(agent))
    assert module.AGENT is agent
    assert agent.verified is not None and agent.verified.how in (CLIENT, SOURCE, DOCS)
    assert agent.verified.version and agent.verified.source and len(agent.verified.date) == 10
    assert agent.facts, agent.name
    for fact, cases in agent.facts.items():
        assert hasattr(module, fact), (agent.name, fact)
        assert agent.verified.how == CLIENT or not cases, (agent.name, fact)  # cases only from a run client
    assert agent.traces, agent.name  # a project can be seen to use it


def _module_of(agent: Agent) -> str:
    names = (f"mnemolint.agents.{module}" for module in agents._MODULES)
    return next(name for name in names if importlib.import_module(name).AGENT is agent)


def test_verified_refuses_an_unknown_way() -> None:
    with pytest.raises(ValueError, match="how must be"):
        Verified("guess", "1.0", "nowhere", "2026-12-01")


def test_the_registry_derives_the_choices_the_kind_and_the_readers() -> None:
    assert agents.names()[:5] == ("wave", "claude-code", "codex", "gemini-cli", "opencode")
    assert agents.names() == AGENTS_OPTION.choices
    assert by_name("codex") is CODEX
    for name in ("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "AGENTS.override.md"):
        assert INSTRUCTION_FILE.matches(f"sub/{name}")
    assert not INSTRUCTION_FILE.matches("sub/README.md")
    assert reader_of("AGENTS.md") is WAVE and reader_of("CLAUDE.md") is CLAUDE_CODE
    assert reader_of("AGENTS.override.md") is CODEX
    assert readers_of("AGENTS.md")[:3] == (WAVE, CLAUDE_CODE, CODEX)  # Claude Code as its fallback
    assert OPENCODE in readers_of("AGENTS.md")
    assert readers_of("CLAUDE.local.md") == (CLAUDE_CODE,)
    assert agents.memory_reader(os.path.join("/h", ".wave", "projects", "x", "memory")) is WAVE
    assert [reader.name for reader in agents.memory_readers()] == ["wave", "claude-code"]


def test_a_project_uses_the_agents_whose_traces_it_holds_unless_the_setting_says(tmp_path: Path) -> None:
    assert used_by(str(tmp_path)) == ()
    write_tree(tmp_path, {".codex/config.toml": "", "CLAUDE.md": "x\n"})
    assert used_by(str(tmp_path)) == (CLAUDE_CODE, CODEX)
    assert used_by(str(tmp_path), ["codex", "wave"]) == (CODEX, WAVE)
    with pytest.raises(ConfigError, match="names no agent gemini"):
        used_by(str(tmp_path), ["gemini"])


def _walk(agent: Agent, folder: Path) -> Session:
    from mnemolint.options import defaults

    return session(agent, str(folder), {}, defaults())


def _rel(paths: list[str], base: Path) -> list[str]:
    return [os.path.relpath(path, base).replace(os.sep, "/") for path in paths]


def test_codex_walks_from_the_git_root_one_file_a_folder(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "AGENTS.md": "above the repository\n",
            "repo/.git/HEAD": "ref: refs/heads/main\n",
            "repo/AGENTS.md": "root\n",
            "repo/a/AGENTS.override.md": "override\n",
            "repo/a/AGENTS.md": "never read\n",
            "repo/a/b/AGENTS.md": "",  # empty still stands: Codex takes it, it adds nothing
        },
    )
    walk = _walk(CODEX, tmp_path / "repo" / "a" / "b")
    assert _rel(walk.start(), tmp_path) == ["repo/AGENTS.md", "repo/a/AGENTS.override.md", "repo/a/b/AGENTS.md"]
    assert walk.nested(str(tmp_path / "repo" / "a" / "b" / "c" / "x.py")) == []
    (tmp_path / "repo" / ".git" / "HEAD").unlink()
    (tmp_path / "repo" / ".git").rmdir()
    assert _rel(_walk(CODEX, tmp_path / "repo").start(), tmp_path) == ["repo/AGENTS.md"]  # no repository: its folder


def test_wave_takes_agents_md_else_claude_md_in_its_folder_and_below_on_touch(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"CLAUDE.md": "root\n", "a/AGENTS.md": "a\n", "a/CLAUDE.md": "shadowed\n", "a/b/CLAUDE.md": "b\n"},
    )
    walk = _walk(WAVE, tmp_path)
    assert _rel(walk.start(), tmp_path) == ["CLAUDE.md"]
    assert _rel(walk.nested(str(tmp_path / "a" / "b" / "x.ts")), tmp_path) == ["a/AGENTS.md", "a/b/CLAUDE.md"]
    assert walk.nested(str(tmp_path.parent / "elsewhere.ts")) == []


def test_claude_code_falls_back_to_agents_md_only_where_no_claude_md_loads(tmp_path: Path) -> None:
    write_tree(tmp_path, {"project/AGENTS.md": "a\n", "project/CLAUDE.md": "   \n", "project/sub/CLAUDE.md": "s\n"})
    walk = _walk(CLAUDE_CODE, tmp_path / "project")
    assert walk.falls_back is True  # a blank CLAUDE.md loads nothing
    assert _rel(walk.start(), tmp_path) == ["project/AGENTS.md"]
    assert _rel(walk.nested(str(tmp_path / "project" / "sub" / "x")), tmp_path) == ["project/sub/CLAUDE.md"]


def test_a_new_agent_is_one_profile_whose_walk_needs_no_code(tmp_path: Path) -> None:
    """What a plug-in agent declares is enough for the core's walk: names, where the chain starts,
    and whether folders below load on a touch."""
    from mnemolint.agents.base import GIT_ROOT, ON_TOUCH

    made_up = Agent(
        "example",
        "Example",
        ".example",
        verified=Verified(DOCS, "1.0", "https://example.invalid/docs", "2026-12-01"),
        instructions=Instructions(("EXAMPLE.md", ".example/EXAMPLE.md"), walk=GIT_ROOT, below=ON_TOUCH),
    )
    write_tree(
        tmp_path,
        {
            ".git/HEAD": "x\n",
            "EXAMPLE.md": "root\n",
            ".example/EXAMPLE.md": "root, its own folder\n",
            "app/EXAMPLE.md": "app\n",
            "app/lib/EXAMPLE.md": "\n",  # blank: loads nothing
        },
    )
    walk = _walk(made_up, tmp_path / "app")
    assert _rel(walk.start(), tmp_path) == ["EXAMPLE.md", ".example/EXAMPLE.md", "app/EXAMPLE.md"]
    assert walk.nested(str(tmp_path / "app" / "lib" / "x.go")) == []


def test_preview_reads_claude_codes_agent_memory_raw_and_in_its_own_words(tmp_path: Path) -> None:
    """Claude Code cuts its agent memory raw (a commented block counts), as MEM101 counts it, and
    its client has one truncation warning, in KB: the default reader and `--agent claude-code`
    both show that, where a project's auto memory of the same text is not cut at all."""
    from mnemolint import api

    commented = "<!--\n" + "".join(f"old entry {n}\n" for n in range(60)) + "-->\n"
    entries = "".join(f"- [T{n}](t{n}.md) — topic {n}\n" for n in range(150))
    write_tree(
        tmp_path,
        {
            ".claude/agent-memory/reviewer/MEMORY.md": commented + entries,
            ".claude/projects/p/memory/MEMORY.md": commented + entries,
        },
    )
    agent_memory = str(tmp_path / ".claude" / "agent-memory" / "reviewer")
    for asked in (None, "claude-code"):
        facts = api.preview(agent_memory, agent=asked)
        assert facts["agent"] == "claude-code" and facts["total"]["lines"] == 212
        assert "212 lines (limit: 200)" in facts["warning"] and "under ~200 chars" in facts["warning"]
    assert api.preview(str(tmp_path / ".claude" / "projects" / "p" / "memory"))["warning"] is None


def test_explain_rules_and_preview_take_any_registered_agent(tmp_path: Path) -> None:
    """`--agent codex` on both commands: what its session in the folder loads, from its profile
    (one file a folder from the git root; no rules dirs, so no rules sections)."""
    from conftest import git, run_cli

    repo = write_tree(tmp_path / "repo", {"AGENTS.md": "root rules\n", "sub/AGENTS.override.md": "override\n"})
    git("init", "-q", cwd=repo)
    explained = run_cli("explain-rules", "x.py", "--agent", "codex", cwd=repo / "sub")
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.splitlines() == [
        "Codex: what it injects when it reads x.py",
        "  Project memory, always loaded:",
        "    ../AGENTS.md",
        "    AGENTS.override.md",
    ]
    shown = run_cli("preview", str(repo / "sub"), "--agent", "codex")
    assert "AGENTS.override.md: 9 bytes, read whole" in shown.stdout and "Codex loads 20 bytes" in shown.stdout
