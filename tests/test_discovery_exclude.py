"""`exclude`, `extend-exclude` and `force-exclude` as ruff has them: what a walk leaves out, and
paths named on the command line linted even where `exclude` matches them unless force-exclude."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT, run_cli, write_tree

BROKEN = "- [Gone](gone.md) — a deleted topic\n"
TREE = {
    "mnemolint.toml": 'exclude = ["scripts"]\n',
    "memory/MEMORY.md": BROKEN,
    "scripts/memory/MEMORY.md": BROKEN,
    "scripts/python": "print('not memory')\n",
}


def paths_reported(*args: str, cwd: Path) -> set[str]:
    process = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=cwd)
    assert process.returncode in (0, 1), process.stderr
    assert "Traceback" not in process.stderr
    return {finding["path"] for finding in json.loads(process.stdout)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, TREE)


def test_a_full_run_leaves_the_excluded_folder_out(project: Path) -> None:
    assert paths_reported(cwd=project) == {"memory/MEMORY.md"}


@pytest.mark.parametrize("named", ["scripts", "scripts/memory", "scripts/memory/MEMORY.md", "./scripts/"])
def test_a_named_path_is_linted_though_excluded(project: Path, named: str) -> None:
    """ruff's rule: what the user names is linted; `exclude` prunes the walk below it."""
    assert paths_reported(named, cwd=project) == {"scripts/memory/MEMORY.md"}


@pytest.mark.parametrize("how", ["flag", "config"])
@pytest.mark.parametrize("named", ["scripts", "scripts/memory", "scripts/memory/MEMORY.md"])
def test_force_exclude_holds_for_named_paths(project: Path, how: str, named: str) -> None:
    if how == "config":
        (project / "mnemolint.toml").write_text('exclude = ["scripts"]\nforce-exclude = true\n', encoding="utf-8")
    flags = ["--force-exclude"] if how == "flag" else []
    assert paths_reported(*flags, named, "memory/MEMORY.md", cwd=project) == {"memory/MEMORY.md"}
    process = run_cli("check", "--no-cache", *flags, named, cwd=project)
    assert process.returncode == 0
    assert f"{named.rstrip('/')} is excluded (`exclude`, with force-exclude)" in process.stderr
    assert "is not a memory file" not in process.stderr and "no memory file in" not in process.stderr


def test_no_force_exclude_on_the_command_line_beats_the_config(project: Path) -> None:
    (project / "mnemolint.toml").write_text('exclude = ["scripts"]\nforce-exclude = true\n', encoding="utf-8")
    assert paths_reported("--no-force-exclude", "scripts", cwd=project) == {"scripts/memory/MEMORY.md"}


def test_an_excluded_file_that_is_no_memory_file_is_said_to_be_excluded(project: Path) -> None:
    """The warning names the real reason: with force-exclude the file is excluded; without it, it is
    linted, and no kind claims it."""
    forced = run_cli("check", "--no-cache", "--force-exclude", "scripts/python", cwd=project)
    assert forced.returncode == 0
    assert "scripts/python is excluded" in forced.stderr and "not a memory file" not in forced.stderr
    assert "A memory dir holds" not in forced.stderr  # what memory is: no help when the file was excluded
    plain = run_cli("check", "--no-cache", "scripts/python", cwd=project)
    assert plain.returncode == 0
    assert "scripts/python is not a memory file" in plain.stderr and "excluded" not in plain.stderr


def test_a_file_excluded_by_its_own_glob(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "mnemolint.toml": 'exclude = ["memory/c.md"]\n',
            "memory/MEMORY.md": "- [A](a.md) — About a\n",
            "memory/a.md": "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n",
            "memory/c.md": "no frontmatter\n",
        },
    )
    assert "memory/c.md" not in paths_reported(cwd=root)
    assert "memory/c.md" in paths_reported("memory/c.md", cwd=root)
    assert paths_reported("--force-exclude", "memory/c.md", cwd=root) == set()


@pytest.mark.parametrize(
    ("cwd", "glob"),
    [
        pytest.param(".", "scripts", id="a-name"),
        pytest.param(".", "scripts/**", id="a-path"),
        pytest.param("scripts", "memory/MEMORY.md", id="a-path-from-a-subfolder"),
        pytest.param("scripts", "./memory/**", id="a-dotted-path-from-a-subfolder"),
        pytest.param(".", "{scripts,other}", id="braces-keep-their-comma"),
    ],
)
def test_extend_exclude_on_the_command_line(tmp_path: Path, cwd: str, glob: str) -> None:
    """Globs given on the command line are relative to the current directory, as ruff reads them;
    the configuration's stay relative to its folder."""
    root = write_tree(tmp_path, {**TREE, "mnemolint.toml": ""}).resolve()
    where = root / cwd

    def reported(*args: str) -> set[Path]:
        return {(where / path).resolve() for path in paths_reported(*args, str(root), cwd=where)}

    assert reported() == {root / "memory/MEMORY.md", root / "scripts/memory/MEMORY.md"}
    assert reported("--extend-exclude", glob) == {root / "memory/MEMORY.md"}


def test_extend_exclude_takes_several_globs(project: Path) -> None:
    (project / "mnemolint.toml").write_text("", encoding="utf-8")
    assert paths_reported("--extend-exclude", "scripts,memory", cwd=project) == set()
    assert paths_reported("--extend-exclude", "scripts", "--extend-exclude", "memory", cwd=project) == set()


def test_an_empty_extend_exclude_is_a_usage_error(project: Path) -> None:
    process = run_cli("check", "--extend-exclude", ",", cwd=project)
    assert process.returncode == 2 and "Traceback" not in process.stderr


def test_force_exclude_must_be_a_boolean(project: Path) -> None:
    (project / "mnemolint.toml").write_text('force-exclude = "yes"\n', encoding="utf-8")
    process = run_cli("check", cwd=project)
    assert process.returncode == 2
    assert "`force-exclude` must be a boolean" in process.stderr


def test_the_hooks_force_the_exclusion(project: Path) -> None:
    """pre-commit names every changed file: its hooks pass --force-exclude, as ruff's do, and the plain
    git hook too, so a configured `exclude` holds in a commit as in a full run."""
    hooks = yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert all("--force-exclude" in hook["entry"].split() for hook in hooks)
    assert "mnemolint check --force-exclude --" in (PROJECT / "hooks" / "pre-commit").read_text(encoding="utf-8")
    passed = ["memory/MEMORY.md", "scripts/memory/MEMORY.md", "scripts/python", "mnemolint.toml"]
    assert paths_reported("--force-exclude", *passed, cwd=project) == {"memory/MEMORY.md"}
