"""The cache (cache.py): a warm run reads only what changed and says exactly what a cold run says.

Every test runs the real CLI in a subprocess on real files. That an unchanged file is not read
again is shown at the level of the file system: its bytes are changed behind the cache's back
(same size, mtime and inode, as `git` would be fooled too), and the warm run still reports what
the file held when it was read.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLE, preview_settings, run_cli, write_tree

from mnemolint import cache, cache_dir
from mnemolint.engine import active_rules
from mnemolint.kinds.memory import MEMORY_DIR
from mnemolint.rules import RULES
from mnemolint.rules.base import EVERY_FILE, EVERY_KIND

NOW = "2026-12-01"
CLEAN_TOPIC = "---\nname: a\ndescription: About a\ntype: user\n---\nbody\n"
# The same size, but no description: MEM203 fires on it.
SAME_SIZE = "---\nname: a\nxxxxxxxxxxx: About a\ntype: user\n---\nbody\n"
FILES = {
    ".mnemolint.toml": "",  # a project: its cache is `.mnemolint_cache/` beside this file
    "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n",
    "memory/a.md": CLEAN_TOPIC,
}


def check(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return run_cli("check", "--now", NOW, "--exit-zero", *args, ".", cwd=root, env=env)


def age(path: Path, seconds: float = 60) -> None:
    """Set the file's mtime `seconds` into the past: no longer racy for a run made now."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def rewrite_in_place(path: Path, text: str) -> None:
    """New bytes of the same length in the same inode, with the old mtime put back."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    with open(path, "r+b") as handle:
        handle.write(text.encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def cache_files(root: Path) -> list[Path]:
    return sorted((root / cache_dir.DIR_NAME).glob("*/*.cache"))


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    write_tree(tmp_path, FILES)
    for path in (tmp_path / "memory").iterdir():
        age(path)
    return tmp_path


def test_a_warm_run_does_not_read_an_unchanged_file(memory: Path) -> None:
    cold = check(memory)
    assert cold.stdout == check(memory, "--no-cache").stdout
    rewrite_in_place(memory / "memory" / "a.md", SAME_SIZE)
    warm = check(memory)
    assert warm.stdout == cold.stdout  # what a.md held when it was read: it was not read again
    assert "MEM203" in check(memory, "--no-cache").stdout  # what it holds now


def test_the_cache_dir_holds_its_own_gitignore_and_tag(memory: Path) -> None:
    check(memory)
    top = memory / cache_dir.DIR_NAME
    assert (top / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (top / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert len(cache_files(memory)) == 1
    process = subprocess.run(["git", "init", "-q", str(memory)], check=True)
    assert process.returncode == 0
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=memory,
        text=True,
        capture_output=True,
        check=True,
    ).stdout
    assert cache_dir.DIR_NAME not in status


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda path: path.write_text(CLEAN_TOPIC.replace("description: About a\n", "")), id="content"),
        pytest.param(lambda path: path.write_text(SAME_SIZE), id="same-size-new-mtime"),
        pytest.param(lambda path: (path.unlink(), path.write_text(SAME_SIZE)), id="new-inode"),
    ],
)
def test_a_changed_file_is_read_again(memory: Path, change) -> None:
    check(memory)
    topic = memory / "memory" / "a.md"
    before = topic.stat().st_mtime_ns
    change(topic)
    if topic.stat().st_mtime_ns == before:  # a coarse clock: the inode or size still tells
        os.utime(topic, ns=(before + 1_000_000_000, before + 1_000_000_000))
    warm = check(memory)
    assert "MEM203" in warm.stdout
    assert warm.stdout == check(memory, "--no-cache").stdout


def test_a_racy_entry_is_trusted_only_after_its_bytes_match(tmp_path: Path) -> None:
    """A file written just before the run (git's "racy clean"): the same size and mtime could
    hide a second write, so its bytes are compared before its entry is used."""
    write_tree(tmp_path, FILES)  # written now: racy for the first run
    topic = tmp_path / "memory" / "a.md"
    check(tmp_path)
    rewrite_in_place(topic, SAME_SIZE)
    assert "MEM203" in check(tmp_path).stdout


def test_settings_change_invalidates(memory: Path) -> None:
    (memory / "memory" / "a.md").write_text(CLEAN_TOPIC.replace("About a", "About a " + "long " * 20))
    age(memory / "memory" / "a.md")
    assert "MEM204" not in check(memory).stdout
    (memory / ".mnemolint.toml").write_text("description-max-chars = 40\n")
    assert "MEM204" in check(memory).stdout
    assert "MEM204" not in check(memory, "--ignore", "MEM204").stdout
    assert len(cache_files(memory)) == 3  # one per configuration and selection, as ruff keeps them


def test_version_change_invalidates(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check(memory)
    settings = preview_settings(memory)
    settings.options["now"] = NOW
    rules = active_rules(settings)
    monkeypatch.chdir(memory)
    assert cache.Cache.open(settings, rules).entries  # this version reads what it wrote
    monkeypatch.setattr(cache, "__version__", "99.0.0")
    assert not cache.Cache.open(settings, rules).entries


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:-1] + bytes([data[-1] ^ 1]), id="bit-flip"),
        pytest.param(lambda data: b"\x00" * len(data), id="zeros"),
    ],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt(memory: Path, spoil) -> None:
    cold = check(memory)
    (path,) = cache_files(memory)
    path.write_bytes(spoil(path.read_bytes()))
    rewrite_in_place(memory / "memory" / "a.md", SAME_SIZE)
    warm = check(memory)
    assert warm.returncode == 0 and not warm.stderr
    assert "MEM203" in warm.stdout and warm.stdout != cold.stdout  # read again, not trusted
    assert path.read_bytes().startswith(b"mnemolint-cache")


def test_a_foreign_cache_runs_no_code(memory: Path) -> None:
    """A pickle planted where the cache file is would run code if unpickled; marshal never does."""
    check(memory)
    (path,) = cache_files(memory)
    planted = memory / "planted"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {planted}",))

    path.write_bytes(pickle.dumps(Payload()))
    warm = check(memory)
    assert warm.returncode == 0 and not warm.stderr
    assert not planted.exists()


def test_an_unwritable_cache_dir_is_silently_off(memory: Path) -> None:
    (memory / "blocker").write_text("a file where the cache dir's parent should be\n")
    (memory / ".mnemolint.toml").write_text('cache-dir = "blocker/cache"\n')
    first, second = check(memory), check(memory)
    assert first.returncode == second.returncode == 0
    assert first.stderr == second.stderr == ""
    assert first.stdout == second.stdout == check(memory, "--no-cache").stdout


def test_a_read_only_location_is_silently_off(memory: Path) -> None:
    """`/proc` refuses every new directory, to root too."""
    off = {cache_dir.ENV_VAR: "/proc/mnemolint-cache"}
    first, second = check(memory, env=off), check(memory, env=off)
    assert first.returncode == second.returncode == 0
    assert first.stderr == second.stderr == ""
    assert first.stdout == second.stdout == check(memory, "--no-cache").stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes whatever the mode")
def test_a_read_only_cache_dir_is_silently_off(memory: Path) -> None:
    check(memory)
    top = memory / cache_dir.DIR_NAME
    (memory / "memory" / "b.md").write_text(CLEAN_TOPIC.replace("name: a", "name: b"))
    folders = [top, *top.iterdir()]
    for folder in folders:
        folder.chmod(0o555)
    try:
        process = check(memory)
    finally:
        for folder in folders:
            folder.chmod(0o755)
    assert process.returncode == 0 and process.stderr == ""
    assert process.stdout == check(memory, "--no-cache").stdout


def test_a_symlinked_cache_dir_is_never_written_through(memory: Path, tmp_path_factory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (memory / cache_dir.DIR_NAME).symlink_to(elsewhere, target_is_directory=True)
    process = check(memory)
    assert process.returncode == 0 and process.stderr == ""
    assert list(elsewhere.iterdir()) == []


def test_two_concurrent_runs_leave_a_valid_cache(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"memory/t{n:03d}.md": CLEAN_TOPIC.replace("a", f"t{n}") for n in range(300)})
    write_tree(tmp_path, {"memory/MEMORY.md": "# Memory\n\n- [T0](t000.md) — About t0\n", ".mnemolint.toml": ""})
    for path in (tmp_path / "memory").iterdir():
        age(path)
    command = [sys.executable, "-m", "mnemolint", "check", "--preview", "--now", NOW, "--exit-zero", "."]
    env = {**os.environ, "NO_COLOR": "1"}
    runs = [
        subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    expected = check(tmp_path, "--no-cache").stdout
    assert all(out.decode() == expected and not err for out, err in outputs)
    assert not list((tmp_path / cache_dir.DIR_NAME).glob("*/.tmp-*"))  # no temporary file left behind
    topic = tmp_path / "memory" / "t001.md"
    rewrite_in_place(topic, topic.read_text().replace("description:", "xxxxxxxxxxx:"))
    assert check(tmp_path).stdout == expected  # the cache one of them wrote is whole, and used


def test_clean_removes_the_cache(memory: Path) -> None:
    check(memory)
    process = run_cli("clean", cwd=memory)
    assert process.returncode == 0
    assert not (memory / cache_dir.DIR_NAME).exists()
    assert run_cli("clean", cwd=memory).returncode == 0  # nothing to remove is no error


def test_clean_leaves_a_directory_mnemolint_did_not_make(memory: Path) -> None:
    (memory / cache_dir.DIR_NAME).mkdir()
    (memory / cache_dir.DIR_NAME / "keep.txt").write_text("mine\n")
    assert run_cli("clean", cwd=memory).returncode == 0
    assert (memory / cache_dir.DIR_NAME / "keep.txt").exists()


def test_no_cache_neither_reads_nor_writes(memory: Path) -> None:
    check(memory, "--no-cache")
    assert not (memory / cache_dir.DIR_NAME).exists()


def test_the_env_var_and_the_setting_move_the_cache(memory: Path, tmp_path_factory) -> None:
    elsewhere = tmp_path_factory.mktemp("env") / "c"
    check(memory, env={cache_dir.ENV_VAR: str(elsewhere)})
    assert list(elsewhere.glob("*/*.cache")) and not (memory / cache_dir.DIR_NAME).exists()
    (memory / ".mnemolint.toml").write_text('cache-dir = "build/lint-cache"\n')
    check(memory)
    assert list((memory / "build" / "lint-cache").glob("*/*.cache"))
    assert run_cli("clean", cwd=memory).returncode == 0
    assert not (memory / "build" / "lint-cache").exists()


def test_a_bad_cache_dir_setting_is_a_config_error(memory: Path) -> None:
    (memory / ".mnemolint.toml").write_text("cache-dir = 3\n")
    process = check(memory)
    assert process.returncode == 2 and "cache-dir" in process.stderr


def test_the_walk_does_not_lint_the_cache_dir(memory: Path) -> None:
    check(memory)
    write_tree(memory / cache_dir.DIR_NAME, {"memory/MEMORY.md": "- [Gone](gone.md) — not here\n"})
    assert "gone.md" not in check(memory).stdout


def test_suppressions_and_focus_still_apply_on_a_warm_run(memory: Path) -> None:
    (memory / "memory" / "b.md").write_text("<!-- mnemolint-disable-file MEM203 -->\n---\nname: b\n---\n")
    (memory / "memory" / "c.md").write_text("---\nname: c\n---\nbody\n")
    for path in (memory / "memory").iterdir():
        age(path)
    cold = check(memory)
    assert check(memory).stdout == cold.stdout
    focused = run_cli("check", "--now", NOW, "--exit-zero", "memory/c.md", cwd=memory)
    assert (
        focused.stdout == run_cli("check", "--now", NOW, "--exit-zero", "--no-cache", "memory/c.md", cwd=memory).stdout
    )
    assert "b.md" not in focused.stdout and "c.md" in focused.stdout


def test_container_rules_rerun_on_a_warm_run(memory: Path) -> None:
    """The index is unchanged, but the topic it links to is gone: MEM104 runs again."""
    check(memory)
    (memory / "memory" / "a.md").unlink()
    assert "MEM104" in check(memory).stdout


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "statistics"])
def test_cold_and_warm_say_the_same_on_the_example_repo(tmp_path: Path, output_format: str) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "repo", symlinks=True)
    root = tmp_path / "repo"
    args = ("--statistics",) if output_format == "statistics" else ("--output-format", output_format)
    uncached = check(root, "--no-cache", *args)
    cold, warm = check(root, *args), check(root, *args)
    assert cold.stdout == warm.stdout == uncached.stdout
    assert cold.stderr == warm.stderr == uncached.stderr


def test_only_per_file_and_container_rules_are_cacheable() -> None:
    """A tree rule re-runs on every run; `cacheable` is opt-in, and a container rule that reads
    what lies outside its files (a project listing for dead globs, git, the clock) is not."""
    for rule in RULES:
        if rule.cacheable:
            per_file = rule.reads in (EVERY_KIND, EVERY_FILE) or isinstance(rule.reads, tuple)
            assert per_file or rule.reads is MEMORY_DIR, rule.code
    assert not all(rule.cacheable for rule in RULES)


def test_a_tree_large_enough_for_the_worker(tmp_path: Path) -> None:
    """Past `parallel.MIN_DOCUMENTS` a forked worker checks half the files and sends their facts
    back: the cache it leaves says what a run without it says, before and after a change."""
    from mnemolint import parallel

    count = parallel.MIN_DOCUMENTS + 100
    write_tree(tmp_path, {f"memory/t{n:04d}.md": CLEAN_TOPIC.replace("name: a", f"name: t{n}") for n in range(count)})
    write_tree(tmp_path, {"memory/MEMORY.md": "# Memory\n\n- [T0](t0000.md) — About a\n"})
    for path in (tmp_path / "memory").iterdir():
        age(path)
    expected = check(tmp_path, "--no-cache", "--output-format", "json").stdout
    assert check(tmp_path, "--output-format", "json").stdout == expected
    for name in ("t0001.md", "t0002.md"):  # one file of each process
        topic = tmp_path / "memory" / name
        topic.write_text(topic.read_text().replace("description: About a\n", ""))
        age(topic)
    changed = check(tmp_path, "--output-format", "json").stdout
    assert changed == check(tmp_path, "--no-cache", "--output-format", "json").stdout
    assert changed.count('"code": "MEM203"') == 2


def test_a_fix_works_from_the_file_and_the_next_run_reads_it_again(memory: Path) -> None:
    """`--fix` lints without the cache; the file it writes has a new mtime, so the next `check`
    reads it again rather than trusting what the cache knew of it."""
    topic = memory / "memory" / "a.md"
    topic.write_bytes(b"\xef\xbb\xbf" + CLEAN_TOPIC.encode())
    age(topic)
    assert "TXT001" in check(memory).stdout
    fixed = run_cli("check", "--now", NOW, "--fix", "--exit-zero", ".", cwd=memory)
    assert fixed.returncode == 0, fixed.stderr
    assert not topic.read_bytes().startswith(b"\xef\xbb\xbf")
    after = check(memory)
    assert "TXT001" not in after.stdout
    assert after.stdout == check(memory, "--no-cache").stdout


def test_frontmatter_with_dates_is_cached_exactly(memory: Path) -> None:
    """marshal keeps no dates: YAML's are kept as tagged tuples and given back as they were."""
    topic = memory / "memory" / "a.md"
    dated = CLEAN_TOPIC.replace("type: user\n", "type: user\nwhen: 2025-01-31\nseen: 2025-02-01 10:00:00+05:30\n")
    topic.write_text(dated)
    age(topic)
    cold = check(memory, "--output-format", "json")
    assert "FM004" in cold.stdout
    rewrite_in_place(topic, dated.replace("description:", "xxxxxxxxxxx:"))
    assert check(memory, "--output-format", "json").stdout == cold.stdout  # from the cache
    assert "MEM203" in check(memory, "--no-cache").stdout
