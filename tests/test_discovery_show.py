"""`--show-files` and `--show-settings`, as ruff has them: what would be linted, and with what
settings, without linting anything."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from mnemolint.config import load_settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

BROKEN = "- [Gone](gone.md) — a deleted topic\n"
TREE = {
    "memory/MEMORY.md": BROKEN,
    "memory/a.md": "no frontmatter\n",
    "memory/notes.txt": "not a topic\n",
    ".claude/rules/style.md": "Use tabs.\n",
    "CLAUDE.md": "# Project\n",
    ".gitignore": "build/\n",
    "archive/memory/MEMORY.md": BROKEN,
    "src/app.py": "print(1)\n",
}


def show_files(*args: str, cwd: Path) -> dict[str, str]:
    process = run_cli("check", "--show-files", *args, cwd=cwd)
    assert process.returncode == 0, process.stderr
    assert "MEM104" not in process.stdout  # nothing is linted
    return dict(line.split("\t") for line in process.stdout.splitlines())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = write_tree(tmp_path, TREE)
    (root / "mnemolint.toml").write_text('exclude = ["archive"]\n', encoding="utf-8")
    return root


def test_show_files_lists_each_file_to_be_linted_and_its_kind(project: Path) -> None:
    assert show_files(cwd=project) == {
        ".claude/rules/style.md": "rule file",
        ".gitignore": "gitignore",
        "CLAUDE.md": "instruction file",
        "memory/MEMORY.md": "memory index",
        "memory/a.md": "memory topic",
    }


def test_show_files_follows_the_paths_and_the_exclusion(project: Path) -> None:
    assert show_files("memory/a.md", cwd=project) == {"memory/a.md": "memory topic"}
    assert show_files("archive", cwd=project) == {"archive/memory/MEMORY.md": "memory index"}  # named: linted
    assert show_files("--force-exclude", "archive", cwd=project) == {}
    assert "memory/a.md" not in show_files("--extend-exclude", "a.md", cwd=project)


def test_show_files_is_what_check_lints(project: Path) -> None:
    """The count check prints is the number of files --show-files lists."""
    files = show_files(cwd=project)
    process = run_cli("check", "--no-cache", cwd=project)
    assert f"in {len(files)} memory files" in process.stdout


def settings_shown(*args: str, cwd: Path) -> tuple[str, dict]:
    process = run_cli("check", "--show-settings", *args, cwd=cwd, preview=False)
    assert process.returncode == 0, process.stderr
    return process.stdout, tomllib.loads(process.stdout)


def test_show_settings_names_the_config_and_gives_every_setting(project: Path) -> None:
    (project / "mnemolint.toml").write_text(
        'exclude = ["archive"]\nignore = ["MEM105"]\nindex-max-lines = 150\n'
        '[per-file-ignores]\n"memory/*.md" = ["FM"]\n[severity]\nMEM1 = "error"\n',
        encoding="utf-8",
    )
    text, shown = settings_shown(cwd=project)
    assert f"# Settings path: {project / 'mnemolint.toml'}" in text
    assert shown["exclude"] == ["archive"] and shown["ignore"] == ["MEM105"]
    assert shown["index-max-lines"] == 150 and shown["respect-gitignore"] is True
    assert shown["per-file-ignores"] == {"memory/*.md": ["FM"]} and shown["severity"] == {"MEM1": "error"}


def test_show_settings_is_a_config_that_gives_the_same_settings(project: Path, tmp_path_factory) -> None:
    """What --show-settings prints, saved as a config file, resolves to the same settings."""
    (project / "mnemolint.toml").write_text(
        'exclude = ["archive"]\nagents = ["wave"]\nnow = "2026-12-01"\n[severity]\n"MEM105" = "info"\n',
        encoding="utf-8",
    )
    text, _ = settings_shown("--select", "MEM,FM", "--no-respect-gitignore", "--force-exclude", cwd=project)
    copy = tmp_path_factory.mktemp("copy")
    (copy / ".mnemolint.toml").write_text(text, encoding="utf-8")
    original, again = load_settings(None, str(project)), load_settings(None, str(copy))
    original.select, original.respect_gitignore, original.force_exclude = ["MEM", "FM"], False, True
    fields = [name for name in original.__slots__ if name not in ("root", "source")]
    assert {name: getattr(again, name) for name in fields} == {name: getattr(original, name) for name in fields}


def test_show_settings_says_the_command_line_globs_from_the_root(project: Path) -> None:
    _, shown = settings_shown("--extend-exclude", "./drafts/**", cwd=project / "memory")
    assert shown["extend-exclude"] == ["memory/drafts/**"]


def test_show_settings_masks_a_credential(project: Path) -> None:
    token = "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc"
    (project / "mnemolint.toml").write_text(f'exclude = ["{token}"]\n', encoding="utf-8")
    text, _ = settings_shown(cwd=project)
    assert token not in text and "ghp_***" in text


def test_one_show_at_a_time(project: Path) -> None:
    process = run_cli("check", "--show-files", "--show-settings", cwd=project)
    assert process.returncode == 2 and "one at a time" in process.stderr
