"""`mnemolint index DIR [--write [--force] | --check]`, run as a user would, on real memory dirs.

Seed 000 ("自动记忆容量治理" 8–10): generation writes an index only where there is none, never
replaces one (unless `--force` says so), and creates nothing when there are no topic files.
"""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

DIR = "notes/memory"  # no MEMORY.md and no agent location: a memory dir because DIR says so


def topic(name: str, description: str, type_: str = "project") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\nBody.\n"


TOPICS = {
    f"{DIR}/build.md": topic("Build", "how to build"),
    f"{DIR}/prefs.md": topic("Prefs", "the user's preferences", "user"),
    f"{DIR}/a[1].md": topic("Skipped", "brackets in the file name"),
}
GENERATED = "- [Prefs](prefs.md) — the user's preferences\n- [Build](build.md) — how to build\n"


def test_index_prints_the_generated_index_and_reports_skips_on_stderr(tree) -> None:
    root = tree(TOPICS)
    result = run_cli("index", DIR, cwd=root)
    assert result.returncode == 0
    assert result.stdout == GENERATED
    assert result.stderr == (
        f"{DIR}/a[1].md: MEM207 Index generation skips this topic: its name contains `[`, `]`, which would break "
        "the `[Title](file.md)` link. Rename the file.\n"
    )
    assert not (root / DIR / "MEMORY.md").exists()


def test_index_write_creates_the_index_once_and_never_replaces_it(tree) -> None:
    root = tree(TOPICS)
    assert run_cli("index", DIR, "--write", cwd=root).returncode == 0
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8") == GENERATED
    (root / DIR / "MEMORY.md").write_text("# Mine\n- [Build](build.md) — my words\n", encoding="utf-8")
    again = run_cli("index", DIR, "--write", cwd=root)
    assert again.returncode == 1
    assert "MEMORY.md exists, and generation never replaces an index (use --force to replace it)" in again.stderr
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8") == "# Mine\n- [Build](build.md) — my words\n"
    assert sorted(path.name for path in (root / DIR).iterdir()) == ["MEMORY.md", "a[1].md", "build.md", "prefs.md"]


def test_index_write_force_replaces_and_keeps_crlf(tree) -> None:
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": "# Mine\r\n- [Build](build.md) — my words\r\n"})
    result = run_cli("index", DIR, "--write", "--force", cwd=root)
    assert result.returncode == 0, result.stderr
    assert (root / DIR / "MEMORY.md").read_bytes() == GENERATED.replace("\n", "\r\n").encode()


def test_index_with_no_topic_files_creates_nothing(tree, tmp_path: Path) -> None:
    (tmp_path / DIR).mkdir(parents=True)
    printed = run_cli("index", DIR, cwd=tmp_path)
    assert (printed.returncode, printed.stdout) == (0, "")
    written = run_cli("index", DIR, "--write", cwd=tmp_path)
    assert written.returncode == 0 and "no topic file to index" in written.stderr
    assert list((tmp_path / DIR).iterdir()) == []


def test_index_check_compares_with_what_fix_would_make_of_it(tree) -> None:
    root = tree({**TOPICS, f"{DIR}/MEMORY.md": "# Mine\n- [Build](build.md) — my words\n- [gone](gone.md)\n"})
    stale = run_cli("index", DIR, "--check", cwd=root)
    assert stale.returncode == 1
    assert stale.stdout == (
        f"--- a/{DIR}/MEMORY.md\n+++ b/{DIR}/MEMORY.md\n@@ -1,3 +1,3 @@\n # Mine\n"
        " - [Build](build.md) — my words\n-- [gone](gone.md)\n+- [Prefs](prefs.md) — the user's preferences\n"
    )
    assert (root / DIR / "MEMORY.md").read_text(encoding="utf-8").endswith("- [gone](gone.md)\n")  # untouched
    assert run_cli("check", "--fix", DIR, cwd=root).returncode == 1  # MEM109 (info) and MEM207 remain
    assert run_cli("index", DIR, "--check", cwd=root).returncode == 0


def test_index_check_flags_a_missing_index_only_when_there_are_topics(tree, tmp_path: Path) -> None:
    root = tree(TOPICS)
    missing = run_cli("index", DIR, "--check", cwd=root)
    assert missing.returncode == 1 and missing.stdout.startswith(f"--- /dev/null\n+++ b/{DIR}/MEMORY.md\n")
    (tmp_path / "empty").mkdir()
    assert run_cli("index", "empty", "--check", cwd=tmp_path).returncode == 0


def test_index_write_refuses_a_symlinked_index(tree) -> None:
    root = tree({**TOPICS, "elsewhere/index.txt": "theirs\n"})
    (root / DIR / "MEMORY.md").symlink_to(root / "elsewhere/index.txt")
    result = run_cli("index", DIR, "--write", "--force", cwd=root)
    assert result.returncode == 1
    assert "MEMORY.md is a symlink, and mnemolint never writes through one" in result.stderr
    assert (root / "elsewhere/index.txt").read_text() == "theirs\n"


def test_index_usage_errors(tree) -> None:
    root = tree(TOPICS)
    (root / "linked").symlink_to(root / DIR, target_is_directory=True)
    for args, message in [
        (["index", "linked", "--write"], "linked is a symlink: give the memory dir it points to"),
        (["index", DIR, "--force"], "--force only goes with --write"),
        (["index", "nowhere"], "not a directory: nowhere"),
        (["index", DIR, "--write", "--check"], "not allowed with argument"),
    ]:
        result = run_cli(*args, cwd=root)
        assert result.returncode == 2 and message in result.stderr, result.stderr
