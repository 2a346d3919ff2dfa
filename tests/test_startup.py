"""Start-up cost on every commit: what a small `check` imports and compiles, and the user cache dir
worked out without importing platformdirs (which alone took half of a small run's time)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from mnemolint.cache_dir import user_cache_dir
from mnemolint.rules import FAMILIES, MODULES, RULES
from mnemolint.rules.base import EVERY_FILE, EVERY_KIND, SUPPRESSIONS, TREE, Rule

FAMILY_MODULE = {rule.code: module for module, family in zip(MODULES, FAMILIES, strict=True) for rule in family.rules}

# Imported by none of the modules a small `check` needs: each costs milliseconds on every commit.
UNUSED = ("platformdirs", "json", "pathlib", "tempfile", "shutil", "subprocess", "typing", "dataclasses", "importlib")

PROBE = """
import re, sys
from mnemolint.cli import main
code = main(sys.argv[1:])
loaded = sorted({{name.split(".")[0] for name in sys.modules}} & set({unused!r}))
compiled = sorted(
    f"{{name}}.{{attribute}}"
    for name, module in list(sys.modules.items())
    if name.startswith("mnemolint")
    for attribute, value in list(vars(module).items())
    if isinstance(value, re.Pattern)
)
families = sorted(name.rsplit(".", 1)[1] for name in sys.modules if name.startswith("mnemolint.rules."))
print(repr((code, loaded, compiled, families)), file=sys.stderr)
""".format(unused=UNUSED)


def _small_tree(root: Path) -> Path:
    memory = root / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("# Memory\n\n- [Build](build.md) — how the build runs\n", encoding="utf-8")
    (memory / "build.md").write_text(
        "---\nname: build\ndescription: How the build runs\ntype: project\n---\n\nRun `make ci`.\n", encoding="utf-8"
    )
    return root


def _probe(*args: str, cwd: Path, env: dict[str, str], before: str = "") -> tuple[int, list[str], list[str], list[str]]:
    """The exit code, the `UNUSED` modules loaded, the compiled module-level patterns and the
    modules of `mnemolint.rules` imported by a run."""
    process = subprocess.run(
        [sys.executable, "-c", before + PROBE, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=60
    )
    return ast.literal_eval(process.stderr.strip().splitlines()[-1])


def test_a_small_check_imports_and_compiles_only_what_it_uses(tmp_path: Path) -> None:
    """Outside any project (the cache in the user cache dir), cold, warm and without the cache: no
    module a small run does not need, and no regular expression compiled at import (`patterns.Lazy`)."""
    tree = _small_tree(tmp_path / "tree")
    user_cache = tmp_path / "user-cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(user_cache), "HOME": str(tmp_path / "home")}
    for flags in ((), (), ("--no-cache",)):
        assert _probe("check", ".", "--quiet", *flags, cwd=tree, env=env)[:3] == (0, [], [])
    assert len(list((user_cache / "mnemolint").glob("tree-*/*/*.cache"))) == 1  # the cache was kept, there
    # the probe sees what a run did import or compile
    before = "import json, re, mnemolint.paths\nmnemolint.paths.PROBE = re.compile('x')\n"
    assert _probe("check", ".", "--quiet", cwd=tree, env=env, before=before)[:3] == (
        0,
        ["json"],
        ["mnemolint.paths.PROBE"],
    )


# What a memory dir holds: its rules read these, or the tree, or every kind or file.
MEMORY = {"memory dir", "memory index", "memory topic", TREE, SUPPRESSIONS, EVERY_KIND, EVERY_FILE}


@pytest.mark.parametrize("flags", [(), ("--preview",), ("--preview", "--no-cache")])
def test_a_small_check_imports_only_the_rule_families_its_files_need(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """A memory dir's run imports no family whose every rule reads (or, a tree rule, needs) a kind
    of file or container the tree does not hold (a rules dir's, Claude Code's imports, the
    `.ai-memory` GIT rules): the configuration, the selection and --preview read
    `rules/manifest.py`, and only the families a found kind needs are imported."""
    tree = _small_tree(tmp_path / "tree")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path / "home")}
    code, _, _, imported = _probe("check", ".", "--quiet", *flags, cwd=tree, env=env)
    assert code == 0
    active = [rule for rule in RULES if flags or not rule.preview]
    unused = {module for module in MODULES} - {FAMILY_MODULE[rule.code] for rule in active if _reads(rule) & MEMORY}
    assert {"wave", "gitignore"} <= unused  # a rules dir's family, and the `.ai-memory` GIT rules, need none here
    assert not set(imported) & unused, "a family was imported that no file of the run needs"
    assert {"index", "manifest"} <= set(imported)  # the memory dir's own rules ran


def _reads(rule: Rule) -> set[str]:
    """The names of what `rule` reads: its kinds, its container type, what a tree rule needs, or
    what TREE and the like say."""
    if isinstance(rule.reads, tuple):
        return {kind.name for kind in rule.reads}
    if rule.needs:
        return {each.name for each in rule.needs}
    return {rule.reads if isinstance(rule.reads, str) else rule.reads.name}


@pytest.mark.parametrize(
    ("xdg", "home"),
    [
        (None, "/home/someone"),
        ("", "/home/someone"),
        ("/var/cache/someone", "/home/someone"),
        ("/var/cache/someone/", "/home/someone/"),
        ("relative/cache", "/home/someone"),
        (" /var/cache/padded", "/home/someone"),
        ("/var/cache/padded ", "/home/someone"),
        (None, "/"),
        (None, "//"),
        (None, "/home/someone//"),
        (None, "relative-home"),
        (None, None),
        ("/var/cache/someone", None),
    ],
)
def test_the_user_cache_dir_is_platformdirs_own(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None
) -> None:
    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert user_cache_dir() == platformdirs.user_cache_dir("mnemolint")
