"""The walk's kept listings (discover/listing.py): a directory whose device, inode, mtime and ctime
are unchanged is filed from the cache, not listed; any change to what it holds, to the
`.gitignore` files above it, to the settings, or to where a link in it leads is seen, and the run
says what a run without the cache says.

The engine runs in this process, so that a test can count which directories were listed; the
racy window is shortened (and waited out) so that a tree made by the test can be kept at all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import write_tree

from mnemolint import cache
from mnemolint.config import load_settings
from mnemolint.discover.listing import FILE, FOLDER, LINK, Listings
from mnemolint.engine import lint

NOW = "2026-12-01"
TOPIC = "---\nname: {name}\ndescription: About {name}\ntype: user\n---\nbody of {name}\n"
RACY_NS = 50_000_000  # the window of these tests: 50 ms


def _files(root: Path) -> dict[str, str]:
    return {
        ".mnemolint.toml": "",
        "memory/MEMORY.md": "# Memory\n\n- [A](a.md) — About a\n- [B](b.md) — About b\n",
        "memory/a.md": TOPIC.format(name="a"),
        "memory/b.md": TOPIC.format(name="b"),
        "memory/sub/c.md": TOPIC.format(name="c"),
        "docs/ref.md": "# Ref\n",
    }


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a memory dir (a folder in it, a link in it to a file of the project), old
    enough for its listings to be kept."""
    monkeypatch.setattr(cache, "RACY_NS", RACY_NS)
    root = tmp_path / "project"
    write_tree(root, _files(root))
    os.symlink("../docs/ref.md", root / "memory" / "ref.md")
    settle()
    return root


def git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def settle() -> None:
    """Wait out the racy window: what was changed before is old enough to be kept."""
    time.sleep(2 * RACY_NS / 1e9)


def _settings(root: Path, **changed: object):
    settings = load_settings(None, str(root))
    settings.options["now"] = NOW
    settings.preview = True
    for name, value in changed.items():
        setattr(settings, name, value)
    return settings


def view(root: Path, cache_on: bool, **changed: object) -> tuple:
    """What a run found: the files, the links and what they are, and the findings."""
    result = lint([str(root)], _settings(root, **changed), cache=cache_on)
    tree = result.tree
    links = sorted((link.path, link.problem, link.is_dir) for link in tree.links)
    return sorted(tree.files), links, [repr(each) for each in result.diagnostics]


@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch, tree: Path) -> list[str]:
    """The project's directories `os.scandir` listed (relative to it), run after run."""
    seen: list[str] = []
    scandir = os.scandir

    def counting(path=".", *args, **kwargs):  # noqa: ANN001, ANN202 - os.scandir's own signature
        if isinstance(path, str) and path.startswith(str(tree)) and ".mnemolint_cache" not in path:
            seen.append(os.path.relpath(path, tree))
        return scandir(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", counting)
    return seen


def test_an_unchanged_tree_is_not_listed_again(tree: Path, listed: list[str]) -> None:
    first = view(tree, True)
    assert sorted(listed) == [".", "docs", "memory", "memory/sub"]
    listed.clear()
    assert view(tree, True) == first
    assert sorted(listed) == ["."]  # the project's folder: the cache dir was made in it
    assert first == view(tree, False)


def _create(root: Path) -> None:
    (root / "memory" / "new.md").write_text(TOPIC.format(name="new"))


def _delete(root: Path) -> None:
    (root / "memory" / "b.md").unlink()


def _rename(root: Path) -> None:
    (root / "memory" / "b.md").rename(root / "memory" / "renamed.md")


def _subdir(root: Path) -> None:
    (root / "memory" / "more").mkdir()
    (root / "memory" / "more" / "d.md").write_text(TOPIC.format(name="d"))


def _in_subdir(root: Path) -> None:
    (root / "memory" / "sub" / "e.md").write_text(TOPIC.format(name="e"))


def _folder_to_link(root: Path) -> None:
    shutil.rmtree(root / "memory" / "sub")
    os.symlink("../docs", root / "memory" / "sub")


def _link_dangles(root: Path) -> None:
    (root / "docs" / "ref.md").unlink()  # the link's own folder is unchanged


def _link_to_folder(root: Path) -> None:
    (root / "docs" / "ref.md").unlink()
    (root / "docs" / "ref.md").mkdir()
    (root / "docs" / "ref.md" / "f.md").write_text(TOPIC.format(name="f"))


def _gitignore(root: Path) -> None:
    git_init(root)
    (root / ".gitignore").write_text("memory/b.md\nsub/\n")


@pytest.mark.parametrize(
    "change",
    [_create, _delete, _rename, _subdir, _in_subdir, _folder_to_link, _link_dangles, _link_to_folder, _gitignore],
)
def test_a_change_is_seen(tree: Path, change: Callable[[Path], None]) -> None:
    view(tree, True)
    view(tree, True)
    change(tree)
    assert view(tree, True) == view(tree, False)
    settle()  # and once its listing may be kept again
    assert view(tree, True) == view(tree, True) == view(tree, False)


def test_a_gitignore_above_a_folder_keeps_its_listing_from_being_kept(tree: Path, listed: list[str]) -> None:
    """What `.gitignore` files say is not a matter of names: a folder they may judge is listed on
    every run, so an edit of one is seen however little it changed."""
    git_init(tree)
    (tree / ".gitignore").write_text("*.log\n")
    settle()
    view(tree, True)
    listed.clear()
    view(tree, True)
    assert "memory" in listed
    (tree / ".gitignore").write_text("*.md\n")  # the same size
    assert view(tree, True) == view(tree, False)


def test_a_work_tree_without_gitignore_keeps_its_listings(tree: Path, listed: list[str]) -> None:
    git_init(tree)
    settle()
    view(tree, True)
    listed.clear()
    view(tree, True)
    assert "memory" not in listed
    (tree / "memory" / "sub" / ".gitignore").write_text("c.md\n")  # below: its folder changed
    assert view(tree, True) == view(tree, False)


@pytest.mark.parametrize("setting", [{"exclude": ["memory/b.md"]}, {"extend_exclude": ["sub"]}])
def test_an_exclude_setting_is_applied(tree: Path, setting: dict) -> None:
    view(tree, True)
    view(tree, True)
    assert view(tree, True, **setting) == view(tree, False, **setting)
    assert view(tree, True, **setting) != view(tree, False)


def test_a_folder_changed_within_the_racy_window_is_listed_again(tree: Path, listed: list[str]) -> None:
    _create(tree)  # now: too recent to be kept
    view(tree, True)
    listed.clear()
    view(tree, True)
    assert "memory" in listed


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root lists folders whatever their mode")
def test_a_folder_made_unreadable_is_reported(tree: Path) -> None:
    view(tree, True)
    view(tree, True)
    (tree / "memory" / "sub").chmod(0)
    try:
        assert view(tree, True) == view(tree, False)
    finally:
        (tree / "memory" / "sub").chmod(0o755)


@pytest.mark.parametrize(
    "entries",
    [
        (("../x.md", FILE),),
        ((".", FILE),),
        (("a/b.md", FILE),),
        (("a.md", "x"),),
        (("a.md",),),
        ["a.md"],
        None,
        # one bad entry among good ones: the names are tested all at once
        (("a.md", FILE), ("..", FOLDER)),
        (("a.md", FILE), ("", FILE)),
        (("a.md", FILE), ("b\0c.md", FILE)),
        (("a.md", FILE), (b"b.md", FILE)),
        (("a.md", FILE), ["b.md", FILE]),
        (("a.md", FILE), ("b.md", FILE, FILE)),
        (("a.md", FILE), ("b.md", [FILE])),
        (("a.md", FILE), 7),
    ],
)
def test_a_listing_not_as_the_walk_writes_one_is_not_trusted(entries: object) -> None:
    key, context = (1, 2, 3, 4), ("/r", None)
    listings = Listings({"/r/m": (key, context, entries)}, racy_after=10)
    assert listings.get("/r/m", key, context) is None
    listed = (("a.md", FILE), ("b", FOLDER), ("c", LINK), ("..d", FILE))
    good = Listings({"/r/m": (key, context, listed), "/r/e": (key, context, ())}, racy_after=10)
    assert good.get("/r/m", key, context) == listed
    assert good.get("/r/e", key, context) == ()
    assert good.get("/r/m", (1, 2, 3, 5), context) is None
    assert good.get("/r/m", key, ("/r", "/r")) is None
