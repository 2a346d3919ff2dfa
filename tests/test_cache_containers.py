"""The cached findings of container rules (cache.py `Cache.held`/`hold`): reused only while the
container's files, each one's stat key, its other files, its marker link, what its rules asked
the file system, the settings and the rule selection are all unchanged; and a warm run says,
byte for byte, what a run without the cache says.

The CLI runs in a subprocess on real files; where a test must see inside a run (which files were
read, what a cached fix computes) it calls the engine in this process.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from conftest import EXAMPLE, run_cli, write_tree

from mnemolint import cache
from mnemolint.config import load_settings
from mnemolint.engine import lint
from mnemolint.parse import document as document_module

NOW = "2026-12-01"
TOPIC = "---\nname: {name}\ndescription: About {name}\ntype: user\n---\nbody of {name}\n"
# `sub` (a folder) and `notes.txt` (no topic) are looked for on disk: MEM104 until they are there.
INDEX = "# Memory\n\n- [A](a.md) — About a\n- [B](b.md) — About b\n- [Sub](sub) — folder\n- [N](notes.txt) — N\n"
# A secondary index (no frontmatter, entries into the dir): the index rules check its links.
ARCHIVE = "# Archive\n\n- [X](x1.md) — x\n- [Y](y1.md) — y\n- [Z](z1.md) — z\n"
FILES = {
    ".mnemolint.toml": "",  # a project: its cache is `.mnemolint_cache/` beside this file
    "memory/MEMORY.md": INDEX,
    "memory/a.md": TOPIC.format(name="a"),
    "memory/b.md": TOPIC.format(name="b"),
    "memory/c.md": TOPIC.format(name="c"),  # linked from no index line: MEM105 (preview)
}
PREVIEW = ("--preview",)


def check(root: Path, *args: str) -> str:
    """The JSON findings of `check` (warm unless `--no-cache` is given; the default rules unless
    `--preview` is given); it must not fail."""
    if "--preview" not in args:
        args = ("--no-preview", *args)
    done = run_cli("check", "--now", NOW, "--exit-zero", "--output-format", "json", *args, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    return done.stdout


def same_as_uncached(root: Path, *args: str) -> str:
    """A warm run's output, asserted equal to a run without the cache (the paths default to `.`)."""
    paths = () if any(not arg.startswith("-") for arg in args) else (".",)
    warm = check(root, *args, *paths)
    assert warm == check(root, "--no-cache", *args, *paths)
    return warm


def age(path: Path, seconds: float = 60) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    write_tree(tmp_path, FILES)
    for path in (tmp_path / "memory").iterdir():
        age(path)
    for args in ((), PREVIEW):  # fill the cache of both selections
        check(tmp_path, *args, ".")
        check(tmp_path, *args, ".")
    return tmp_path


def cached_containers(root: Path) -> int:
    """How many container results the cache files under `root` hold, over all of them."""
    total = 0
    for path in (root / ".mnemolint_cache").glob("*/*.cache"):
        import marshal

        data = path.read_bytes()
        _, _, containers, _ = marshal.loads(data[len(cache._MAGIC) + 4 :])
        total += len(containers)
    return total


def test_the_container_results_are_kept(memory: Path) -> None:
    assert cached_containers(memory) == 2  # the memory dir, once per selection


@pytest.mark.parametrize("args", [(), PREVIEW], ids=["default", "preview"])
@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda m: (m / "a.md").write_text(ARCHIVE), id="content-and-size"),
        pytest.param(lambda m: (m / "MEMORY.md").write_text(INDEX.replace("(b.md)", "(x.md)")), id="same-size"),
        pytest.param(lambda m: (m / "b.md").unlink(), id="member-deleted"),
        pytest.param(lambda m: (m / "d.md").write_text(ARCHIVE), id="member-created"),
        pytest.param(lambda m: (m / "notes.txt").write_text("x"), id="other-file-created"),
        pytest.param(lambda m: (m / "sub").mkdir(), id="probed-folder-created"),
        pytest.param(lambda m: (m / "a.md").rename(m / "e.md"), id="member-renamed"),
    ],
)
def test_a_change_to_the_container_is_seen(memory: Path, change, args: tuple[str, ...]) -> None:
    before = check(memory, *args, ".")
    change(memory / "memory")
    after = same_as_uncached(memory, *args)
    assert after != before
    assert same_as_uncached(memory, *args) == after  # and the next warm run, from the new entry


def test_an_unchanged_mtime_with_new_bytes_is_seen(memory: Path) -> None:
    """The same size and mtime, new bytes in the same inode: the inode's change time tells."""
    topic = memory / "memory" / "a.md"
    before = topic.stat()
    topic.write_text(TOPIC.format(name="a").replace("About a", "About z"))
    os.utime(topic, ns=(before.st_atime_ns, before.st_mtime_ns))
    index = memory / "memory" / "MEMORY.md"
    stat = index.stat()
    index.write_text(INDEX.replace("(b.md)", "(x.md)"))
    os.utime(index, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert "MEM104" in same_as_uncached(memory)


@pytest.mark.parametrize(
    ("config", "args"),
    [
        pytest.param("index-max-lines = 2\n", PREVIEW, id="config"),
        pytest.param('ignore = ["MEM104"]\n', (), id="ignore"),
        pytest.param('select = ["MEM105"]\n', PREVIEW, id="select"),
        pytest.param("index-line-max-chars = 20\n", (), id="option"),
        pytest.param('[per-file-ignores]\n"memory/c.md" = ["MEM105"]\n', PREVIEW, id="per-file-ignores"),
    ],
)
def test_a_change_of_settings_or_selection_is_seen(memory: Path, config: str, args: tuple[str, ...]) -> None:
    before = check(memory, *args, ".")
    (memory / ".mnemolint.toml").write_text(config)
    changed = same_as_uncached(memory, *args)
    assert changed != before
    (memory / ".mnemolint.toml").write_text("")
    assert same_as_uncached(memory, *args) == before


@pytest.mark.parametrize(
    "named",
    [("memory/a.md",), ("memory/MEMORY.md",), ("memory/c.md", "memory/b.md"), ("memory",)],
    ids=["topic", "index", "two-topics", "folder"],
)
def test_a_run_over_some_files_says_what_an_uncached_one_says(memory: Path, named: tuple[str, ...]) -> None:
    """pre-commit names the changed files: the container's rules report only on those."""
    for args in ((), PREVIEW):
        focused = same_as_uncached(memory, *args, *named)
        assert focused == same_as_uncached(memory, *args, *named)  # warm from the focused run's entry
        assert same_as_uncached(memory, *args) == check(memory, "--no-cache", *args, ".")  # then all again


def test_the_bundled_example_says_the_same_warm(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "repo", symlinks=True)
    root = tmp_path / "repo"
    for args in ((), PREVIEW, ("--preview", "--output-format", "sarif"), ("--output-format", "text")):
        uncached = run_cli("check", "--now", NOW, "--exit-zero", *args, "--no-cache", ".", cwd=root, preview=False)
        for _ in range(2):  # cold, then warm
            done = run_cli("check", "--now", NOW, "--exit-zero", *args, ".", cwd=root, preview=False)
            assert (done.stdout, done.stderr) == (uncached.stdout, uncached.stderr)


def _settings(root: Path, preview: bool = False):
    settings = load_settings(None, str(root))
    settings.options["now"] = NOW
    settings.preview = preview
    return settings


def test_a_warm_run_reads_no_file(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything unchanged: the files are stat'ed, not read, and the findings are the same."""
    settings = _settings(memory)
    first = [repr(each) for each in lint([str(memory)], settings, cache=True).diagnostics]
    read: list[str] = []
    load = document_module.Document._load

    def counted(self: document_module.Document) -> None:
        read.append(self.path)
        load(self)

    monkeypatch.setattr(document_module.Document, "_load", counted)
    assert [repr(each) for each in lint([str(memory)], settings, cache=True).diagnostics] == first
    assert read == []


def test_a_cached_fix_computes_what_a_fresh_one_does(memory: Path) -> None:
    """MEM105's fix (a line added to the index) is computed when applied: a cached finding
    computes it by running its rule again."""
    settings = _settings(memory, preview=True)
    fresh = {d.path: d for d in lint([str(memory)], settings).diagnostics if d.code == "MEM105"}
    cached = {d.path: d for d in lint([str(memory)], settings, cache=True).diagnostics if d.code == "MEM105"}
    assert fresh and cached.keys() == fresh.keys()
    for path, diagnostic in cached.items():
        assert diagnostic.fix is not None and diagnostic.fix.build is not None
        assert repr(diagnostic.fix.compute()) == repr(fresh[path].fix.compute())  # type: ignore[union-attr]


def test_fix_never_asks_the_cache(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemolint.fix.fixer import fix

    def refused(*args: object) -> None:
        raise AssertionError("the fixer opened the cache")

    monkeypatch.setattr(cache.Cache, "open", refused)
    outcome = fix([str(memory)], _settings(memory, preview=True), unsafe=False, write=False)
    assert outcome.result.diagnostics is not None


def test_an_editor_buffer_is_never_cached(memory: Path) -> None:
    """A member held in the overlay (an unsaved buffer): the container's rules run on its text,
    and what they find is not kept for the file on disk."""
    settings = _settings(memory)
    index = str(memory / "memory" / "MEMORY.md")
    document_module.overlay({index: "# Memory\n\n- [Gone](gone.md) — missing\n"})
    try:
        buffered = lint([str(memory)], settings, cache=True).diagnostics
    finally:
        document_module.overlay({})
    assert any(d.code == "MEM104" and "gone.md" in d.message for d in buffered)
    on_disk = [repr(d) for d in lint([str(memory)], settings, cache=True).diagnostics]
    assert on_disk == [repr(d) for d in lint([str(memory)], settings).diagnostics]
    assert not any("gone.md" in each for each in on_disk)


def test_a_member_racy_when_kept_is_compared_only_until_it_settles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files written just before the run that kept the container's findings (a fresh clone): the
    next run compares their bytes, and once they are older than the racy window the entry is kept
    again without digests, so no later run reads them to compare."""
    monkeypatch.setattr(cache, "RACY_NS", 50_000_000)
    write_tree(tmp_path, FILES)
    settings = _settings(tmp_path)
    first = [repr(each) for each in lint([str(tmp_path)], settings, cache=True).diagnostics]
    time.sleep(0.1)  # out of the racy window
    compared: list[str] = []
    digest = cache._digest_of_file

    def counted(path: str, size: int) -> bytes | None:
        compared.append(path)
        return digest(path, size)

    monkeypatch.setattr(cache, "_digest_of_file", counted)
    for racy in (True, False):
        compared.clear()
        assert [repr(each) for each in lint([str(tmp_path)], settings, cache=True).diagnostics] == first
        assert bool(compared) is racy, compared


def test_a_run_that_only_vouches_for_a_few_settled_files_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One topic of many edited, then left alone: the first run after it settles compares its
    bytes and leaves the cache as it was (a rewrite of every entry for one file's sake costs more
    than the read it saves); the next run that writes anyway keeps it settled, and no run after
    that reads it to compare."""
    monkeypatch.setattr(cache, "RACY_NS", 50_000_000)
    topics = {f"memory/t{number}.md": TOPIC.format(name=f"t{number}") for number in range(2 * cache.REKEEP_SHARE)}
    write_tree(tmp_path, {**FILES, **topics})
    settings = _settings(tmp_path)
    for _ in range(2):  # nothing racy: every entry settled, and the root's listing once the cache is in it
        time.sleep(0.1)
        lint([str(tmp_path)], settings, cache=True)
    edited, later = tmp_path / "memory" / "t3.md", tmp_path / "memory" / "t5.md"
    edited.write_text(TOPIC.format(name="t3") + "more\n", encoding="utf-8")
    after_edit = [repr(each) for each in lint([str(tmp_path)], settings, cache=True).diagnostics]
    time.sleep(0.1)
    compared: list[str] = []
    digest = cache._digest_of_file

    def counted(path: str, size: int) -> bytes | None:
        compared.append(os.path.basename(path))
        return digest(path, size)

    monkeypatch.setattr(cache, "_digest_of_file", counted)
    (kept,) = (tmp_path / ".mnemolint_cache").glob("*/*.cache")
    before = kept.read_bytes()
    assert [repr(each) for each in lint([str(tmp_path)], settings, cache=True).diagnostics] == after_edit
    assert compared == ["t3.md"]
    assert kept.read_bytes() == before  # only t3.md was vouched for again: nothing written
    later.write_text(TOPIC.format(name="t5") + "more\n", encoding="utf-8")
    lint([str(tmp_path)], settings, cache=True)  # writes t5.md's entry, and t3.md's settled one
    assert kept.read_bytes() != before
    time.sleep(0.1)
    compared.clear()
    lint([str(tmp_path)], settings, cache=True)
    assert compared == ["t5.md"]
