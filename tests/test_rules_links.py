"""LNK001-LNK006: dangerous symlinks, from the links the walk recorded, on real links in tmp_path.

Each rule fires where it should and not where it should not; a link that fails a check is never
read through, and `--fix --unsafe-fixes` never writes through it nor re-points its index line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import git, only, run_cli, run_lint, write_tree

from mnemolint.model import INFO
from mnemolint.paths import sensitive_place

INDEX = "- [Passwords](passwd.md) — users\n- [Zero](zero.md) — zeros\n"


def findings(root: Path, *args: str) -> set[tuple[str, str]]:
    result = run_cli("check", "--output-format", "json", *args, cwd=root)
    assert "Traceback" not in result.stderr, result.stderr
    return {(item["path"], item["code"]) for item in json.loads(result.stdout)}


def test_the_reported_memory_dir_is_no_longer_all_clear(tmp_path: Path) -> None:
    """The issue's case: `passwd.md -> /etc/passwd` and `zero.md -> /dev/zero` passed clean."""
    root = write_tree(tmp_path, {"memory/MEMORY.md": INDEX})
    os.symlink("/etc/passwd", root / "memory" / "passwd.md")
    os.symlink("/dev/zero", root / "memory" / "zero.md")
    found = findings(root)
    for name in ("passwd.md", "zero.md"):
        assert {(f"memory/{name}", code) for code in ("LNK001", "LNK005", "LNK006")} <= found
    # Nothing behind them was read: /etc/passwd's lines are not topics, /dev/zero did not block.
    assert not [path for path, code in found if code.startswith("MEM2")]


def test_fix_never_writes_through_the_link_nor_repoints_its_line(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"notes.md": "---\nname: N\n---\nkept\n"})
    root = write_tree(tmp_path / "repo", {"memory/MEMORY.md": "- [Notes](notes.md) — a different description\n"})
    os.symlink(outside / "notes.md", root / "memory" / "notes.md")
    before = (root / "memory" / "MEMORY.md").read_bytes()
    result = run_cli("check", "--fix", "--unsafe-fixes", cwd=root)
    assert result.returncode == 1 and "LNK001" in result.stdout
    assert (root / "memory" / "MEMORY.md").read_bytes() == before
    assert os.readlink(root / "memory" / "notes.md") == str(outside / "notes.md")
    assert (outside / "notes.md").read_text(encoding="utf-8") == "---\nname: N\n---\nkept\n"


def test_lnk001_any_link_in_a_memory_dir_and_a_memory_dir_that_is_a_link(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"memory/MEMORY.md": "# M\n", "docs/a.md": "a\n", "elsewhere/MEMORY.md": "# M\n"})
    os.symlink("../docs/a.md", root / "memory" / "a.md")  # inside the repository: still a redirected write
    os.symlink("../docs", root / "memory" / "docs")
    os.symlink("missing.md", root / "memory" / "gone.md")
    os.symlink("../docs/a.md", root / "docs" / "b.md")  # not in a memory dir: not LNK001's
    (root / ".claude" / "projects" / "demo").mkdir(parents=True)
    os.symlink("../../../elsewhere", root / ".claude" / "projects" / "demo" / "memory")
    lnk001 = {path for path, code in findings(root) if code == "LNK001"}
    # docs/b.md is in no memory dir; reached through the linked folder, as memory/docs/b.md, it is.
    expected = {"memory/a.md", "memory/docs", "memory/docs/b.md", "memory/gone.md", ".claude/projects/demo/memory"}
    assert lnk001 == expected
    [message] = [d.message for d in only(run_lint(root), "LNK001") if d.path.endswith("memory/docs")]
    assert "a write to `docs/…` lands in `docs`" in message


def test_lnk002_is_judged_against_the_repository_not_the_linted_path(tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "outside", {"team.md": "t\n"})
    root = write_tree(tmp_path / "repo", {".ai-memory/project_memory.md": "# P\n", "shared/x.md": "x\n"})
    git("init", "-q", cwd=root)
    os.symlink(outside / "team.md", root / ".ai-memory" / "team.md")
    os.symlink("../shared/x.md", root / ".ai-memory" / "x.md")  # out of `.ai-memory/`, inside the repository
    found = findings(root, "--select", "LNK002", ".ai-memory")
    assert found == {(".ai-memory/team.md", "LNK002")}


def test_lnk002_leaves_dangling_links_and_loops_to_their_rules(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {".ai-memory/project_memory.md": "# P\n"})
    os.symlink(tmp_path / "nowhere", root / ".ai-memory" / "gone")
    os.symlink("loop", root / ".ai-memory" / "loop")
    assert findings(root, "--select", "LNK002,LNK003,LNK004") == {
        (".ai-memory/gone", "LNK003"),
        (".ai-memory/loop", "LNK004"),
    }


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    """A project with a Wave rules dir, where links to outside folders are a feature (seed 000)."""
    return write_tree(tmp_path / "repo", {".wave/rules/a.md": "a\n", ".wave/rules/c.md": "c\n"})


def test_lnk002_is_info_where_sharing_by_link_is_a_feature(rules_dir: Path, tmp_path: Path) -> None:
    os.symlink(write_tree(tmp_path / "team", {"r.md": "r\n"}), rules_dir / ".wave" / "rules" / "shared")
    [finding] = run_lint(rules_dir, select=["LNK002"])
    assert finding.severity == INFO
    assert "but only on machines where that path exists" in finding.message
    # followed all the same: the agents load what it shares, so its rules are linted
    assert [d.path for d in run_lint(rules_dir, select=["WAV007"])] == []
    os.symlink(
        write_tree(tmp_path / "empty", {"e.md": "---\npaths:\n  - x/**\n---\n"}), rules_dir / ".wave" / "rules" / "e"
    )
    assert [os.path.basename(d.path) for d in run_lint(rules_dir, select=["WAV007"])] == ["e.md"]


def test_a_configured_severity_still_wins_over_the_findings_own(rules_dir: Path, tmp_path: Path) -> None:
    os.symlink(write_tree(tmp_path / "team", {"r.md": "r\n"}), rules_dir / ".wave" / "rules" / "shared")
    write_tree(rules_dir, {"mnemolint.toml": '[severity]\nLNK002 = "error"\n'})
    assert [finding.severity for finding in run_lint(rules_dir, select=["LNK002"])] == ["error"]


def test_lnk003_says_what_a_dangling_link_costs_in_its_container(rules_dir: Path) -> None:
    os.symlink("gone.md", rules_dir / ".wave" / "rules" / "b.md")
    [finding] = run_lint(rules_dir, select=["LNK003"])
    assert finding.message.endswith("Wave stops scanning this folder here, so it never loads `c.md`.")


def test_lnk003_names_what_each_agent_loses_in_a_claude_rules_dir(tmp_path: Path) -> None:
    """Wave loses the entries after the link by name; Claude Code the whole folder level."""
    root = write_tree(tmp_path / "repo", {".wave/.keep": "", ".claude/rules/a.md": "a\n", ".claude/rules/c.md": "c\n"})
    os.symlink("gone.md", root / ".claude" / "rules" / "b.md")
    [finding] = run_lint(root, select=["LNK003"])
    assert finding.message.endswith(
        "Claude Code loads no rule of this folder at all, so it never loads `a.md`, `c.md`; "
        "Wave stops scanning this folder here, so it never loads `c.md`."
    )


def test_lnk003_follows_a_chain_to_its_end(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"memory/MEMORY.md": "# M\n"})
    os.symlink("b.md", root / "memory" / "a.md")
    os.symlink("c.md", root / "memory" / "b.md")
    assert {path for path, code in findings(root) if code == "LNK003"} == {"memory/a.md", "memory/b.md"}


def test_lnk005_only_for_absolute_targets(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"AGENTS.md": "a\n", ".ai-memory/a.md": "a\n"})
    os.symlink("a.md", root / ".ai-memory" / "relative.md")
    os.symlink(root / ".ai-memory" / "a.md", root / ".ai-memory" / "absolute.md")
    os.symlink(root / "AGENTS.md", root / "CLAUDE.md")  # itself an instruction file
    assert findings(root, "--select", "LNK005") == {(".ai-memory/absolute.md", "LNK005"), ("CLAUDE.md", "LNK005")}


def test_lnk006_resolves_the_whole_chain_and_never_reads_behind_it(tmp_path: Path) -> None:
    leaked = "---\nname: LEAKED-CONTENT\ndescription: LEAKED-CONTENT\n---\n"
    root = write_tree(tmp_path, {"memory/MEMORY.md": "# M\n", "keys/id_ed25519": leaked, ".env": leaked})
    os.symlink("../keys/id_ed25519", root / "memory" / "step.md")  # a chain: key.md -> step.md -> the key
    os.symlink("step.md", root / "memory" / "key.md")
    os.symlink("../.env", root / "memory" / "env.md")
    os.symlink("../.env.example", root / "memory" / "example.md")
    result = run_cli("check", "--output-format", "json", cwd=root)
    assert "LEAKED-CONTENT" not in result.stdout
    found = {(item["path"], item["code"]) for item in json.loads(result.stdout)}
    assert {path for path, code in found if code == "LNK006"} == {"memory/key.md", "memory/step.md", "memory/env.md"}
    assert not [code for path, code in found if path in ("memory/key.md", "memory/env.md") and code[:3] != "LNK"]


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("/etc/passwd", "in `/etc`, a system directory"),
        ("/etc", "in `/etc`, a system directory"),
        ("/proc/self/environ", "in `/proc`, a system directory"),
        ("/dev/zero", "in `/dev`, a system directory"),
        ("/private/etc/hosts", "in `/private/etc`, a system directory"),
        ("/home/ana/.ssh/config", "in `~/.ssh`, a credential folder"),
        ("/root/.aws/credentials", "in `~/.aws`, a credential folder"),
        (
            "/Users/ana/.config/gcloud/application_default_credentials.json",
            "in `~/.config/gcloud`, a credential folder",
        ),
        ("/home/ana/.kube", "in `~/.kube`, a credential folder"),
        ("/srv/app/.env", "a `.env` file"),
        ("/srv/app/.env.production", "a `.env` file"),
        ("/srv/tls/server.pem", "a `.pem` key or certificate"),
        ("/home/ana/keys/id_rsa", "a private key (`id_*`)"),
        ("/srv/app/.env.example", None),
        ("/home/ana/keys/id_rsa.pub", None),
        ("/etcetera/notes.md", None),
        ("/home/ana/.sshrc", None),
        ("/home/ana/notes/config/gcloud.md", None),
        ("/srv/app/environment.md", None),
    ],
)
def test_sensitive_place(path: str, what: str | None) -> None:
    assert sensitive_place(path) == what


def test_the_example_repository_has_no_link_that_leads_out_of_it() -> None:
    """A link out of it would be followed by every copy and package of the project (an sdist
    grew to 240 MB with a link to /usr/share): LNK002 is shown by its page, not by the example."""
    from conftest import EXAMPLE

    for directory, names, files in os.walk(EXAMPLE):
        for name in names + files:
            path = os.path.join(directory, name)
            if os.path.islink(path) and os.path.exists(path):
                assert os.path.realpath(path).startswith(str(EXAMPLE.resolve()) + os.sep), path


def test_a_link_named_alone_is_judged_as_pre_commit_passes_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"memory/MEMORY.md": "- [Passwords](passwd.md) — users\n"})
    os.symlink("/etc/passwd", root / "memory" / "passwd.md")
    found = findings(root, "memory/passwd.md")
    assert {code for _, code in found} == {"LNK001", "LNK002", "LNK005", "LNK006"}


def test_a_link_to_a_folder_above_the_root_is_a_loop_not_a_share(tmp_path: Path) -> None:
    """`.wave/rules/up -> ../../..` holds the rules dir itself: LNK004, and the walk does not go up
    into the sibling projects."""
    root = write_tree(tmp_path / "p4", {".wave/rules/r.md": "r\n"})
    write_tree(tmp_path / "p5", {".wave/rules/a.md": "a\n"})
    os.symlink("../../..", root / ".wave" / "rules" / "up")
    found = findings(root, "--select", "LNK,WAV")
    assert ("LNK004" in {code for _, code in found}) and not any("p5" in path for path, _ in found)


# --- where links are judged: where a memory, rules or instruction reader meets them


def ordinary_links(folder: Path) -> None:
    """The links of an ordinary repository: an interpreter, a dangling config, a system tool."""
    folder.mkdir(parents=True, exist_ok=True)
    os.symlink("/usr/bin/python3", folder / "python")
    os.symlink("config.local.yaml", folder / "config.yaml")
    os.symlink("/etc/alternatives/awk", folder / "awk")


def test_links_outside_memory_are_not_judged(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"AGENTS.md": "# A\n", "memory/MEMORY.md": "# M\n"})
    git("init", "-q", cwd=root)
    ordinary_links(root / "scripts")
    ordinary_links(root)  # at the top too: `config.yaml` is no instruction file
    assert [d for d in run_lint(root, select=["LNK"]) if "scripts/" in d.path or "memory" not in d.path] == []
    result = run_cli("check", "--select", "LNK", str(root))
    assert (result.returncode, result.stdout.splitlines()[-1]) == (0, "All checks passed: 2 memory files checked.")


@pytest.mark.parametrize("container", ["memory", ".claude/rules", ".ai-memory"])
def test_the_same_links_inside_a_container_are_judged(tmp_path: Path, container: str) -> None:
    marker = {"memory": "MEMORY.md", ".claude/rules": "r.md", ".ai-memory": "project_memory.md"}[container]
    root = write_tree(tmp_path / "repo", {f"{container}/{marker}": "# M\n"})
    git("init", "-q", cwd=root)
    ordinary_links(root / container)
    found = findings(root, "--select", "LNK002,LNK003,LNK005,LNK006")
    assert {(f"{container}/python", "LNK005"), (f"{container}/config.yaml", "LNK003")} <= found
    assert (f"{container}/awk", "LNK006") in found


@pytest.mark.parametrize("name", ["AGENTS.md", "AGENTS.override.md", "CLAUDE.md", ".gitignore", "sub/AGENTS.md"])
def test_a_link_that_is_itself_an_instruction_file_or_gitignore_is_judged(tmp_path: Path, name: str) -> None:
    root = write_tree(tmp_path / "repo", {"README.md": "r\n"})
    git("init", "-q", cwd=root)
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    os.symlink("/usr/share/no-such-file", root / name)
    assert findings(root, "--select", "LNK003,LNK005") == {(name, "LNK003"), (name, "LNK005")}


def test_lnk006_names_the_sensitive_path_as_written_when_only_it_is(tmp_path: Path) -> None:
    """`-> /etc/alternatives/awk` leads on to `/usr/bin/mawk`: the message names `/etc/alternatives/awk`."""
    root = write_tree(tmp_path / "repo", {"memory/MEMORY.md": "# M\n"})
    os.symlink("/etc/alternatives/awk", root / "memory" / "awk")
    real = os.path.realpath(root / "memory" / "awk")
    [finding] = run_lint(root, select=["LNK006"])
    if real.startswith("/etc/"):  # no alternatives system here: the link ends in /etc itself
        assert finding.message.startswith(f"Symlink to `{real}`, in `/etc`")
    else:
        assert finding.message.startswith(f"Symlink to `/etc/alternatives/awk` (which leads on to `{real}`), in `/etc`")
