"""The hardened git runner (`mnemolint.gitrun`): every git call goes through it, and no repository
can make it run a program.

Two hostile set-ups, each against every code path that asks git something:
- an *embedded bare repository*: a committed folder holding `HEAD`, `config`, `objects/`, `refs/`,
  whose `config` names a `core.fsmonitor` program (git run with its cwd there obeys it);
- a tree's own *hostile `.git/config`* (an extracted tarball): `core.fsmonitor`, a clean filter for
  every file (`.gitattributes`), `gpg.program` with `log.showSignature` and a signed HEAD, an
  external diff, a pager, a mailmap file.
Each program appends its name to a marker file; the test asserts the marker never appears, and
that git really answered (a finding only git's answer gives), so a run that skipped git cannot pass.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from conftest import GIT_ENV, git, run_cli, run_lint, write_tree

from mnemolint import gitrun
from mnemolint.project import Project, git_top_level, linked_worktrees

SRC = Path(__file__).resolve().parent.parent / "src" / "mnemolint"
TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\n{1}\n"

# Every place in src/ that calls the runner, by module and enclosing function, with the test below
# that runs it against both hostile set-ups. A new call site fails test_every_git_call_site_is_known
# until it is listed here and given its route in ROUTES.
CALL_SITES = {
    ("project.py", "last_changes"): "cit003",
    ("project.py", "uncommitted"): "cit003",
    ("project.py", "_git_files"): "wav002",
    ("project.py", "is_tracked"): "cdx002",
    ("project.py", "linked_worktrees"): "worktrees",
    ("kinds/ai_memory.py", "tracked"): "git003",
}
_RUN_PROGRAMS = ("system", "popen", "spawnl", "spawnv", "execv", "execl", "posix_spawn", "fork")


def _calls_of_git() -> set[tuple[str, str]]:
    """(module, enclosing function) of every call to a function named `git` in src/, but the runner's own."""
    found = set()
    for path in SRC.rglob("*.py"):
        module = path.relative_to(SRC).as_posix()
        if module == "gitrun.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "git":
                    found.add((module, function.name))
    return found


def test_every_git_call_site_is_known() -> None:
    assert _calls_of_git() == set(CALL_SITES)


# parallel.py forks its one worker to check a share of the files in a copy of this process; it
# never execs, so no program but this one runs there (its own test: test_parallel.py).
_FORKS_ITSELF = ("parallel.py", "fork")


def test_only_the_runner_starts_a_process() -> None:
    """No module but gitrun.py imports subprocess or calls os.system/popen/exec*/spawn*, nor forks
    but the one worker of parallel.py, nor names the git program: a new way to run git cannot
    bypass the runner."""
    offenders = []
    for path in SRC.rglob("*.py"):
        module = path.relative_to(SRC).as_posix()
        if module == "gitrun.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(alias.name in ("subprocess", "pty") for alias in node.names):
                offenders.append((module, node.lineno, "import"))
            elif isinstance(node, ast.ImportFrom) and node.module in ("subprocess", "pty"):
                offenders.append((module, node.lineno, "import"))
            elif isinstance(node, ast.Attribute) and node.attr.startswith(_RUN_PROGRAMS):
                if getattr(node.value, "id", None) == "os" and (module, node.attr) != _FORKS_ITSELF:
                    offenders.append((module, node.lineno, node.attr))
            elif isinstance(node, ast.List) and node.elts and getattr(node.elts[0], "value", None) == "git":
                offenders.append((module, node.lineno, "git argv"))
    assert offenders == []


# --- the hostile set-ups


def attacker(tmp_path: Path, marker: Path, name: str, sleep: int = 0) -> Path:
    """A program that appends `name` to `marker` (after `sleep` seconds) and passes its input
    through, as a filter would."""
    script = tmp_path / f"attack-{name}.sh"
    script.write_text(f'#!/bin/sh\nsleep {sleep}\necho {name} >> "{marker}"\ncat\n', encoding="utf-8")
    script.chmod(0o755)
    return script


def arm(root: Path, marker: Path, sleep: int = 0) -> None:
    """Sign HEAD (so that `log.showSignature` asks gpg), then make `root/.git/config` hostile."""
    head, _, body = git("cat-file", "commit", "HEAD", cwd=root).partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----"
    done = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        input=f"{head}\n{signature}\n\n{body}",
        cwd=root,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    git("update-ref", "HEAD", done.stdout.strip(), cwd=root)
    (root / ".gitattributes").write_text("* filter=evil diff=evil\n", encoding="utf-8")
    for path in root.rglob("*"):  # every file stat-dirty: git would re-read (and filter) each one
        if path.is_file() and ".git" not in path.parts:
            os.utime(path, None)
    for key, name in (
        ("core.fsmonitor", "fsmonitor"),
        ("filter.evil.clean", "clean"),
        ("filter.evil.smudge", "smudge"),
        ("filter.evil.process", "process"),
        ("diff.external", "extdiff"),
        ("diff.evil.textconv", "textconv"),
        ("core.pager", "pager"),
        ("gpg.program", "gpg"),
        ("core.sshCommand", "ssh"),
        ("core.askPass", "askpass"),
        ("core.alternateRefsCommand", "alternates"),
        ("credential.helper", "credential"),
    ):
        program = attacker(root.parent, marker, name, sleep)
        git("config", key, f"!{program}" if key == "credential.helper" else str(program), cwd=root)
    git("config", "log.showSignature", "true", cwd=root)
    hooks = root.parent / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction", "post-checkout"):
        (hooks / hook).symlink_to(attacker(root.parent, marker, hook, sleep))
    git("config", "core.hooksPath", str(hooks), cwd=root)


def embed(folder: Path, program: Path) -> None:
    """A committed folder that looks like a git dir, its config naming `program` as fsmonitor."""
    write_tree(
        folder,
        {
            "HEAD": "ref: refs/heads/main\n",
            "objects/.keep": "",
            "refs/heads/.keep": "",
            "config": f"[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n"
            f'\tfsmonitor = "{program}"\n',
        },
    )


def commit_all(root: Path, day: str = "2026-01-01") -> None:
    env = {**os.environ, **GIT_ENV, "GIT_COMMITTER_DATE": f"{day}T12:00:00+00:00"}
    subprocess.run(["git", "add", "-A", "-f"], cwd=root, env=env, check=True, capture_output=True)
    subprocess.run(
        ["git", "commit", "-q", "-m", day, "--date", f"{day}T12:00:00+00:00"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )


CODE = "".join(f"line {number}\n" for number in range(1, 6))

# Each route: the files it needs, below the folder it runs in (`{prefix}`: that folder from the
# repository's top, where a citation is resolved from).
ROUTES = {
    "cdx002": {"AGENTS.md": "shared\n", "AGENTS.override.md": "mine\n"},
    "wav002": {
        ".claude/rules/build.md": '---\npaths: ["build/**"]\n---\nBuild rules.\n',
        "build/out.ts": "x\n",  # tracked, then ignored: only git lists it
        ".gitignore": "build/\n",
    },
    "git003": {".ai-memory/project_memory.md": "# P\n", ".ai-memory/20260101/daily.md": "# 工作日志 - [2026-01-01]\n"},
    "cit003": {
        ".claude/memory/MEMORY.md": "- [Auth](auth.md) — auth notes\n",
        ".claude/memory/auth.md": TOPIC.format("auth", "Rounding is in `{prefix}src/billing.py:2`."),
        "src/billing.py": CODE,
    },
}


def build(tmp_path: Path, route: str, setup: str) -> tuple[Path, Path, Path]:
    """A repository for `route`, hostile by `setup`; returns (repository, folder of the route, marker)."""
    marker = tmp_path / "MARKER"
    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", cwd=root)
    folder = root / "evil" if setup == "embedded" else root
    prefix = "evil/" if setup == "embedded" else ""
    write_tree(folder, {rel: text.replace("{prefix}", prefix) for rel, text in ROUTES[route].items()})
    if setup == "embedded":
        embed(folder, attacker(tmp_path, marker, "fsmonitor"))
    commit_all(root)
    if route == "cit003":  # the cited file changes long after the memory
        (folder / "src" / "billing.py").write_text(CODE + "more\n", encoding="utf-8")
        commit_all(root, "2026-06-01")
    if setup == "config":
        arm(root, marker)
    return root, folder, marker


SETUPS = ("embedded", "config")


def codes_of(root: Path, select: str) -> list[str]:
    return [d.code for d in run_lint(root, select=[select], now="2026-07-01")]


@pytest.mark.parametrize("setup", SETUPS)
def test_the_hostile_set_ups_are_armed(tmp_path: Path, setup: str) -> None:
    """Plain git obeys both set-ups, so the tests below could fail."""
    root, folder, marker = build(tmp_path, "cdx002", setup)
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "status"], cwd=folder, env=env, capture_output=True, timeout=60)
    assert "fsmonitor" in marker.read_text(encoding="utf-8")
    if setup == "config":
        subprocess.run(["git", "diff", "HEAD"], cwd=root, env=env, capture_output=True, timeout=60)
        subprocess.run(["git", "log", "-1"], cwd=root, env=env, capture_output=True, timeout=60)
        assert {"fsmonitor", "process", "gpg"} <= set(marker.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("setup", SETUPS)
def test_cdx002_asks_git_and_runs_nothing(tmp_path: Path, setup: str) -> None:
    root, _, marker = build(tmp_path, "cdx002", setup)
    assert codes_of(root, "CDX002") == ["CDX002"]  # git's index answered: the override is tracked
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_rules_project_listing_asks_git_and_runs_nothing(tmp_path: Path, setup: str) -> None:
    root, folder, marker = build(tmp_path, "wav002", setup)
    assert "build/out.ts" in Project(str(folder), {}).files()  # tracked though ignored: git listed it
    assert codes_of(root, "WAV002") == []
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_ai_memory_rules_ask_git_and_run_nothing(tmp_path: Path, setup: str) -> None:
    root, _, marker = build(tmp_path, "git003", setup)
    assert "GIT003" in codes_of(root, "GIT")  # the dated log is tracked: git's answer
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_cit003_dates_come_from_git_and_nothing_runs(tmp_path: Path, setup: str) -> None:
    root, _, marker = build(tmp_path, "cit003", setup)
    assert codes_of(root, "CIT003") == ["CIT003"]  # the dates of two commits, not today's mtimes
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_pre_commit_file_list_runs_nothing(tmp_path: Path, setup: str) -> None:
    """pre-commit passes the changed files by name, from the repository's root."""
    root, folder, marker = build(tmp_path, "cdx002", setup)
    names = [str((folder / name).relative_to(root)) for name in ("AGENTS.override.md", "AGENTS.md")]
    result = run_cli("check", "--no-cache", "--select", "CDX002", *names, cwd=root, env=GIT_ENV)
    assert "CDX002" in result.stdout, result.stdout + result.stderr
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_post_tool_use_hook_runs_nothing(tmp_path: Path, setup: str) -> None:
    root, folder, marker = build(tmp_path, "cdx002", setup)
    event = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(folder / "AGENTS.override.md")},
        "tool_response": {"success": True},
    }
    result = run_cli("hook", "post-tool-use", stdin=json.dumps(event), cwd=root, env=GIT_ENV)
    assert result.returncode == 0, result.stderr
    assert "is tracked in git" in result.stdout  # CDX002: git's index answered
    assert not marker.exists()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_worktree_listing_and_the_top_level_run_nothing(tmp_path: Path, setup: str) -> None:
    root, folder, marker = build(tmp_path, "cdx002", setup)
    other = tmp_path / "other"
    git("worktree", "add", "-q", str(other), cwd=root)
    marker.unlink(missing_ok=True)  # `git worktree add` is the test's own, not mnemolint's
    assert linked_worktrees(str(folder)) == [str(other)]
    assert git_top_level(str(folder)) == str(root)  # found without git: never the embedded folder
    assert not marker.exists()


def test_a_hostile_program_that_would_hang_costs_nothing(tmp_path: Path) -> None:
    """A config whose programs sleep a minute: the run takes no longer, since none of them runs."""
    root, _, marker = build(tmp_path, "cit003", "embedded")
    arm(root, marker, sleep=60)
    started = time.monotonic()
    result = run_cli("check", "--no-cache", "--select", "CIT,CDX,GIT,WAV", "--exit-zero", ".", cwd=root)
    assert time.monotonic() - started < 8, result.stderr
    assert not marker.exists()


# --- the runner's own guarantees


def test_the_repository_is_the_nearest_real_git_dir(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", cwd=root)
    embed(root / "evil", attacker(tmp_path, tmp_path / "MARKER", "fsmonitor"))
    found = gitrun.repository(str(root / "evil"))
    assert found is not None and (found.work_tree, found.git_dir) == (str(root), str(root / ".git"))
    assert gitrun.repository(str(tmp_path)) is None


def test_a_linked_worktree_is_found_by_its_gitdir_file(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", cwd=root)
    commit_all(write_tree(root, {"a.md": "a\n"}))
    git("worktree", "add", "-q", str(tmp_path / "wt"), cwd=root)
    found = gitrun.repository(str(tmp_path / "wt"))
    assert found is not None and found.work_tree == str(tmp_path / "wt")
    assert Path(found.git_dir).parent == root / ".git" / "worktrees"


@pytest.mark.parametrize("dot_git", ["link", "bare-looking file", "gitdir to a plain folder"])
def test_a_dot_git_that_is_no_real_git_dir_is_not_used_and_said_once(
    tmp_path: Path, dot_git: str, capsys: pytest.CaptureFixture
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    git("init", "-q", cwd=real)
    root = tmp_path / dot_git.replace(" ", "-")
    root.mkdir()
    if dot_git == "link":
        (root / ".git").symlink_to(real / ".git")
    elif dot_git == "bare-looking file":
        (root / ".git").write_text("ref: refs/heads/main\n", encoding="utf-8")
    else:
        (tmp_path / "plain").mkdir()
        (root / ".git").write_text(f"gitdir: {tmp_path / 'plain'}\n", encoding="utf-8")
    assert gitrun.git(str(root), "ls-files") is None
    assert gitrun.git(str(root), "ls-files") is None
    told = capsys.readouterr().err
    assert told.count("mnemolint: note:") == 1 and "is no git dir mnemolint trusts" in told


def test_nothing_of_the_callers_git_environment_is_passed_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GIT_DIR and GIT_INDEX_FILE of the caller would make git list another repository."""
    other = tmp_path / "other"
    other.mkdir()
    git("init", "-q", cwd=other)
    commit_all(write_tree(other, {"elsewhere.md": "x\n"}))
    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", cwd=root)
    commit_all(write_tree(root, {"here.md": "x\n"}))
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='touch /nonexistent/x'")
    assert gitrun.git(str(root), "ls-files", "-z") == b"here.md\0"


def test_a_git_that_hangs_is_killed_with_its_children_and_asked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The timeout kills the whole process group: a child the command started does not outlive it."""
    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", cwd=root)
    fake = tmp_path / "bin" / "git"
    fake.parent.mkdir()
    child = tmp_path / "child-alive"
    fake.write_text(f'#!/bin/sh\n(sleep 3; touch "{child}") &\nsleep 60\n', encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setattr(gitrun, "_GIT", str(fake))
    started = time.monotonic()
    assert gitrun.git(str(root), "ls-files", timeout=0.5) is None
    assert gitrun.git(str(root), "ls-files", timeout=0.5) is None  # not asked again
    assert time.monotonic() - started < 2.5
    time.sleep(3.5)
    assert not child.exists()
    assert capsys.readouterr().err.count("did not answer within 0.5 s") == 1
    monkeypatch.setattr(gitrun, "_REFUSED", {})


def test_the_command_line_overrides_every_setting_that_runs_a_program() -> None:
    keys = {setting.partition("=")[0] for setting in gitrun.SETTINGS}
    assert {
        "core.fsmonitor",
        "core.hooksPath",
        "core.pager",
        "core.askPass",
        "credential.helper",
        "protocol.allow",
        "safe.bareRepository",
        "log.showSignature",
        "diff.external",
    } <= keys
