"""The new user's path, end to end on a fresh virtual environment: clone the repository, install
it as the README says (`pip install .`), check the bundled example, fix it, run the hooks from
pre-commit, and run it as a CI job does (SARIF valid against the 2.1.0 schema, GitHub annotations).

These are `packaging` tests: the dependencies and the build backend come from the session's
wheelhouse (tests/conftest.py), so nothing reaches the package index; mnemolint itself is built
from the clone, which is what shows that what git holds, not only this working tree, installs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import GIT_ENV, PROJECT, git, write_tree
from test_sarif import assert_valid, validator  # noqa: F401 - the fixture, used by name

pytestmark = pytest.mark.packaging
TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\nBody.\n"


def run(
    *command: str | Path, cwd: Path, env: dict[str, str] | None = None, code: int = 0
) -> subprocess.CompletedProcess:
    """Run `command` with this environment (less the colour and CI variables that change what is
    printed) plus `env`; fail unless it exits `code`."""
    inherited = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("PIP_") and key not in ("GITHUB_ACTIONS", "FORCE_COLOR", "CLICOLOR_FORCE", "SKIP")
    }
    result = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env={**inherited, **GIT_ENV, "NO_COLOR": "1", **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == code, f"{command}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `git clone` of this working tree: its files as a commit would hold them (tracked, and
    new ones git does not ignore), committed in a scratch repository, then cloned from there."""
    if not (PROJECT / ".git").exists():
        pytest.skip("not a git checkout: there is nothing to clone")
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=PROJECT).split("\0")
    origin = tmp_path_factory.mktemp("origin")
    for rel in filter(None, listed):
        source, target = PROJECT / rel, origin / rel
        if not os.path.lexists(source):  # deleted in the working tree, not yet in git
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    git("init", "-q", cwd=origin)
    git("add", "-A", "-f", cwd=origin)  # -f: the example's own .gitignore files ignore what it tracks on purpose
    git("commit", "-q", "-m", "snapshot of the working tree", cwd=origin)
    target = tmp_path_factory.mktemp("clone") / "mnemolint"
    git("clone", "-q", str(origin), str(target), cwd=origin.parent)
    return target


@pytest.fixture(scope="module")
def venv(clone: Path, wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with `pip install .` run in the clone (the README's first command)."""
    where = tmp_path_factory.mktemp("venv") / ".venv"
    run(sys.executable, "-m", "venv", where, cwd=clone)
    offline = {"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run(where / "bin" / "pip", "install", "--quiet", ".", cwd=clone, env=offline)
    return where


@pytest.fixture
def example(clone: Path, tmp_path: Path) -> Path:
    """The clone's docs/example-repo as a repository of its own (nothing above it changes a run)."""
    target = tmp_path / "example-repo"
    shutil.copytree(clone / "docs" / "example-repo", target, symlinks=True)
    git("init", "-q", cwd=target)
    return target


def findings(mnemolint: Path, cwd: Path, *args: str) -> list[dict]:
    return json.loads(run(mnemolint, "check", *args, "--output-format", "json", cwd=cwd, code=1).stdout)


def test_install_from_the_clone_and_check_the_example(clone: Path, venv: Path) -> None:
    """The README's first command (every rule, `--preview`): it installs mnemolint (not this
    checkout's source) and exits 1; the default rules alone find a part of the same."""
    where = run(venv / "bin" / "python", "-c", "import mnemolint; print(mnemolint.__file__)", cwd=clone.parent)
    assert Path(where.stdout.strip()).is_relative_to(venv)
    assert "mnemolint check --preview docs/example-repo" in (clone / "README.md").read_text(encoding="utf-8")
    result = run(venv / "bin" / "mnemolint", "check", "--preview", "docs/example-repo", cwd=clone, code=1)
    assert result.stderr == ""
    count = len(findings(venv / "bin" / "mnemolint", clone, "--preview", "docs/example-repo"))
    assert re.fullmatch(rf"Found {count:,} findings \(.*\) in [\d,]+ memory files\.", result.stdout.splitlines()[-1])
    default = findings(venv / "bin" / "mnemolint", clone, "docs/example-repo")
    assert 0 < len(default) < count
    assert run(venv / "bin" / "mnemolint", "rule", "index-over-load-limit", cwd=clone).stdout.startswith("---\n")


def test_fix_the_example_then_only_what_needs_a_person_remains(venv: Path, example: Path) -> None:
    mnemolint = venv / "bin" / "mnemolint"
    before = findings(mnemolint, example, "--preview")
    fixable = sum(1 for finding in before if finding["fix"] and finding["fix"]["applicability"] == "safe")
    fixed = run(mnemolint, "check", "--preview", "--fix", cwd=example, code=1)
    done, left = re.fullmatch(r"([\d,]+) fixed, ([\d,]+) remaining\.", fixed.stdout.splitlines()[-1]).groups()
    assert int(done) >= fixable > 0 and int(left) < len(before)
    again = run(mnemolint, "check", "--preview", "--fix", cwd=example, code=1)
    assert again.stdout.splitlines()[-1] == f"0 fixed, {left} remaining."  # a second run has nothing left to do
    assert len(findings(mnemolint, example, "--preview")) == int(left)


def test_pre_commit_blocks_a_bad_memory_and_the_fix_hook_repairs_it(
    clone: Path, venv: Path, wheelhouse: Path, tmp_path: Path
) -> None:
    """The shipped example config pointed at the clone (a pinned commit, as the docs advise),
    `pre-commit install`: with the default rules a broken index entry blocks a commit; with
    `preview = true` an orphan topic does too, `try-repo` of the fix hook repairs it, and the commit passes."""
    repo = write_tree(tmp_path / "project", {"memory/MEMORY.md": "- [Build](build.md) — Build notes\n"})
    write_tree(repo, {"memory/build.md": TOPIC.format("Build")})
    config = yaml.safe_load((clone / "hooks" / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    config["repos"][0].update(repo=str(clone), rev=git("rev-parse", "HEAD", cwd=clone).strip())
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    offline = {
        "PIP_FIND_LINKS": str(wheelhouse),
        "PIP_NO_INDEX": "1",
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PRE_COMMIT_COLOR": "never",
    }
    git("init", "-q", cwd=repo)
    run(sys.executable, "-m", "pre_commit", "install", cwd=repo, env=offline)
    run("git", "add", "-A", cwd=repo)
    run("git", "commit", "-q", "-m", "memory", cwd=repo, env=offline)  # clean: the hook passes

    index = (repo / "memory/MEMORY.md").read_text(encoding="utf-8")
    write_tree(repo, {"memory/MEMORY.md": index + "- [Gone](gone.md) — Gone notes\n"})
    run("git", "add", "-A", cwd=repo)
    broken = run("git", "commit", "-q", "-m", "gone", cwd=repo, env=offline, code=1)
    assert "memory/MEMORY.md:2:3: MEM104 " in broken.stdout + broken.stderr  # a default rule

    write_tree(repo, {"memory/MEMORY.md": index, ".mnemolint.toml": "preview = true\n"})
    write_tree(repo, {"memory/oncall.md": TOPIC.format("Oncall")})
    run("git", "add", "-A", cwd=repo)
    blocked = run("git", "commit", "-q", "-m", "oncall", cwd=repo, env=offline, code=1)
    assert "memory/oncall.md: MEM105 " in blocked.stdout + blocked.stderr

    files = ["memory/MEMORY.md", "memory/oncall.md"]
    repaired = run(
        sys.executable,
        "-m",
        "pre_commit",
        "try-repo",
        clone,
        "mnemolint-fix",
        "--files",
        *files,
        cwd=repo,
        env=offline,
        code=1,
    )
    assert "files were modified by this hook" in repaired.stdout
    assert "(oncall.md)" in (repo / "memory/MEMORY.md").read_text(encoding="utf-8")
    run("git", "add", "-A", cwd=repo)
    run("git", "commit", "-q", "-m", "oncall, indexed", cwd=repo, env=offline)


def test_the_ci_forms(venv: Path, example: Path, validator) -> None:  # noqa: F811 - the fixture
    """What docs/ci.md runs: a SARIF file for code scanning, annotations in a GitHub Actions job."""
    mnemolint = venv / "bin" / "mnemolint"
    count = len(findings(mnemolint, example))  # the default rules, as docs/ci.md runs them
    assert count > 0
    written = run(
        mnemolint, "check", "--output-format", "sarif", "--output-file", "mnemolint.sarif", cwd=example, code=1
    )
    assert written.stdout == ""
    document = json.loads((example / "mnemolint.sarif").read_text(encoding="utf-8"))
    assert_valid(document, validator)
    assert len(document["runs"][0]["results"]) == count
    annotations = run(mnemolint, "check", cwd=example, env={"GITHUB_ACTIONS": "true"}, code=1).stdout.splitlines()
    assert len(annotations) == count
    assert all(
        re.match(r"::(error|warning|notice) file=[^,]+,(.*,)?title=[A-Z]+\d{3} [a-z0-9-]+::", line)
        for line in annotations
    )
