"""Hostile input: every bad file gets a diagnostic, nothing tracebacks, the run goes on.

Each hostile file sits in a memory dir next to a healthy one whose real finding (a broken index
link) must still be reported, in-process and through the real CLI.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import preview_settings, run_cli, run_lint, write_tree

HEALTHY = {"healthy/MEMORY.md": "# Memory\n\n- [Gone](gone.md) — a topic that was deleted\n"}
HEALTHY_FINDING = ("healthy/MEMORY.md", "MEM104")
INDEX = {"memory/MEMORY.md": "# Memory\n"}
HUGE = 30 * 1024 * 1024
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["l0: &l0 [" + ", ".join(['"lol"'] * width) + "]"]
    lines += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * width) + "]" for n in range(1, levels)]
    return "---\n" + "\n".join(lines) + "\n---\n"


def sparse(path: Path, size: int) -> None:
    with open(path, "wb") as handle:
        handle.truncate(size)


def unreadable(path: Path) -> None:
    path.write_text("---\nname: secret\n---\n", encoding="utf-8")
    path.chmod(0)


def _files(files: dict[str, str | bytes]) -> Callable[[Path], None]:
    return lambda root: write_tree(root, files) and None


def _link(target: str, name: str) -> Callable[[Path], None]:
    return lambda root: os.symlink(target, root / "memory" / name)


NESTED = "---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n"
DEEP = "/".join(["d"] * 1000)  # 1,000 directory levels below the memory dir


def _special(make: Callable[[str], None], name: str) -> Callable[[Path], None]:
    return lambda root: make(str(root / "memory" / name))


def _deep(root: Path) -> None:
    path = root / "memory"
    for name in DEEP.split("/"):  # os.makedirs recurses once per level: past Python's limit here
        path = path / name
        path.mkdir()
    (path / "deep.md").write_text("no frontmatter\n", encoding="utf-8")


# name → (make it under root, findings it must give as {(path, code)})
CASES: dict[str, tuple[Callable[[Path], None], set[tuple[str, str]]]] = {
    "invalid-yaml": (_files({"memory/broken.md": "---\nname: [oops\n---\n"}), {("memory/broken.md", "FM001")}),
    "bom": (_files({"memory/bom.md": b"\xef\xbb\xbf---\nname: b\n---\n"}), {("memory/bom.md", "TXT001")}),
    "invalid-utf8": (_files({"memory/latin1.md": b"caf\xe9 au lait\n"}), {("memory/latin1.md", "TXT002")}),
    "nul-filled": (_files({"memory/nul.md": b"\x00" * 8192}), {("memory/nul.md", "TXT002")}),
    "30-mb-topic": (
        lambda root: sparse(root / "memory/huge.md", HUGE),
        {("memory/huge.md", "MEM201"), ("memory/huge.md", "NST002")},
    ),
    "alias-bomb": (_files({"memory/bomb.md": alias_bomb()}), {("memory/bomb.md", "FM005")}),
    "nesting-5000": (_files({"memory/deep.md": NESTED}), {("memory/deep.md", "FM005")}),
    "symlink-loop": (_link(".", "loop"), {("memory/loop", "LNK004")}),
    "symlink-self-loop": (_link("x", "x"), {("memory/x", "LNK004")}),
    "dangling-symlink": (_link("nowhere.md", "dangling.md"), {("memory/dangling.md", "LNK003")}),
    "200-mb-topic": (
        lambda root: sparse(root / "memory/vast.md", 200 * 1024 * 1024),
        {("memory/vast.md", "MEM201"), ("memory/vast.md", "NST002")},
    ),
    "200-kb-one-line-index": (_files({"wide/MEMORY.md": "- " + "x" * 200_000 + "\n"}), {("wide/MEMORY.md", "MEM101")}),
    "utf-16-bom": (_files({"memory/wide.md": "---\nname: w\n---\n".encode("utf-16")}), {("memory/wide.md", "TXT002")}),
    "leading-dash-name": (_files({"memory/--fix.md": "no frontmatter\n"}), {("memory/--fix.md", "MEM203")}),
    "fifo": (_special(os.mkfifo, "pipe.md"), set()),  # skipped: never opened, so never blocks
    "link-to-dev-zero": (_link("/dev/zero", "zero.md"), {("memory/zero.md", "LNK006")}),
    "1000-deep-dirs": (_deep, {(f"memory/{DEEP}/deep.md", "MEM203")}),
}
if IS_ROOT and hasattr(os, "mknod"):  # only root may make a device node
    CASES["device-node"] = (
        _special(lambda path: os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3)), "null.md"),
        set(),
    )


@pytest.fixture(autouse=True)
def _no_deep_leftovers(tmp_path: Path):
    """pytest's clean-up (shutil.rmtree) recurses once per level: take the 1,000 levels down first."""
    yield
    top = tmp_path / "memory" / "d"
    if not top.is_dir():
        return
    levels = [top]
    while (levels[-1] / "d").is_dir():
        levels.append(levels[-1] / "d")
    (levels[-1] / "deep.md").unlink(missing_ok=True)
    for level in reversed(levels):
        level.rmdir()


def build(root: Path, names: list[str]) -> None:
    write_tree(root, {**HEALTHY, **INDEX})
    for name in names:
        CASES[name][0](root)


def found(diagnostics, root: Path) -> set[tuple[str, str]]:
    return {(os.path.relpath(d.path, root).replace(os.sep, "/"), d.code) for d in diagnostics}


@pytest.mark.parametrize("name", list(CASES))
def test_each_hostile_file_is_reported_and_the_run_goes_on(tmp_path: Path, capsys, name: str) -> None:
    build(tmp_path, [name])
    started = time.perf_counter()
    result = found(run_lint(tmp_path), tmp_path)
    assert time.perf_counter() - started < 5
    assert CASES[name][1] <= result
    assert HEALTHY_FINDING in result
    assert capsys.readouterr().err == ""
    hostile = {path for path, _ in CASES[name][1]}
    assert not [(path, code) for path, code in result if path not in hostile and path != HEALTHY_FINDING[0]]


def test_a_30_mb_topic_is_judged_by_its_size_without_being_read(tmp_path: Path) -> None:
    build(tmp_path, ["30-mb-topic"])
    started = time.perf_counter()
    process = run_cli("check", "--output-format", "json", cwd=tmp_path)
    elapsed = time.perf_counter() - started
    findings = {(item["path"], item["code"]): item for item in json.loads(process.stdout)}
    assert elapsed < 2
    assert {("memory/huge.md", "MEM201"), ("memory/huge.md", "NST002")} <= set(findings)
    assert "31,457,280" in findings["memory/huge.md", "MEM201"]["message"]
    # Read, its zero bytes would have made it binary (TXT002): it was measured from stat only.
    assert ("memory/huge.md", "TXT002") not in findings


def test_the_whole_hostile_tree_through_the_cli(tmp_path: Path) -> None:
    build(tmp_path, list(CASES))
    expected = set().union(*(findings for _, findings in CASES.values()))
    if not IS_ROOT:
        unreadable(tmp_path / "memory/secret.md")
        expected.add(("memory/secret.md", "NST002"))
    started = time.perf_counter()
    process = run_cli("check", "--output-format", "json", cwd=tmp_path)
    elapsed = time.perf_counter() - started
    assert process.returncode == 1
    assert "Traceback" not in process.stderr
    assert process.stderr == ""
    reported = {(item["path"], item["code"]) for item in json.loads(process.stdout)}
    assert expected | {HEALTHY_FINDING} <= reported
    assert elapsed < 2


def test_the_hostile_tree_in_text_output(tmp_path: Path) -> None:
    build(tmp_path, list(CASES))
    process = run_cli("check", cwd=tmp_path)
    assert (process.returncode, process.stderr) == (1, "")
    assert "healthy/MEMORY.md:3:3: MEM104 " in process.stdout
    assert process.stdout.rstrip().splitlines()[-1].startswith("Found ")


@pytest.mark.parametrize("target", ["memory/secret.md", "memory/locked"], ids=["file", "directory"])
def test_an_unreadable_path_is_nst002_and_the_run_goes_on(tmp_path: Path, target: str) -> None:
    if IS_ROOT:
        pytest.skip("root reads files whatever their mode")
    build(tmp_path, [])
    path = tmp_path / target
    if target.endswith(".md"):
        unreadable(path)
    else:
        write_tree(tmp_path, {f"{target}/inner.md": "# inner\n"})
        path.chmod(0)
    try:
        result = found(run_lint(tmp_path), tmp_path)
    finally:
        path.chmod(0o700)
    assert (target, "NST002") in result
    assert HEALTHY_FINDING in result


def test_a_file_that_vanishes_after_discovery_is_nst002(tmp_path: Path) -> None:
    """The read-error path without chmod (root reads any mode): the file goes between walk and read."""
    from mnemolint.discover.walk import discover
    from mnemolint.rules.nested import memory_file_unreadable

    write_tree(tmp_path, {**INDEX, "memory/gone.md": "---\nname: gone\n---\n"})
    settings = preview_settings(tmp_path)
    documents = {Path(d.path).name: d for d in discover([str(tmp_path)], settings).documents}
    (tmp_path / "memory" / "gone.md").unlink()
    hits = list(memory_file_unreadable.check(documents["gone.md"], settings.options))
    assert len(hits) == 1 and "No such file or directory" in hits[0].message
    assert not list(memory_file_unreadable.check(documents["MEMORY.md"], settings.options))


@pytest.mark.parametrize("target", ["/nonexistent/MEMORY.md", "OUTSIDE"], ids=["dangling", "out-of-tree"])
def test_a_linked_index_that_is_not_followed_keeps_its_memory_dir(tmp_path: Path, target: str) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("- [T](t.md) — a topic\n", encoding="utf-8")
    root = write_tree(tmp_path / "repo", {"memory/t.md": "no frontmatter\n"})
    os.symlink(str(outside) if target == "OUTSIDE" else target, root / "memory" / "MEMORY.md")
    for args in (["."], ["memory/t.md"]):
        result = run_cli("check", "--output-format", "json", *args, cwd=root)
        found = {(f["path"], f["code"]) for f in json.loads(result.stdout)}
        assert ("memory/MEMORY.md", "MEM106") in found and ("memory/t.md", "MEM203") in found, args
    [missing] = [f for f in json.loads(result.stdout) if f["code"] == "MEM106"]
    assert "symlink" in missing["message"] and missing["fix"] is None


def test_a_symlinked_root_lints_like_the_real_one(tmp_path: Path) -> None:
    real = write_tree(tmp_path / "real", {**INDEX, "shared/a.md": "no frontmatter\n"})
    os.symlink("../shared", real / "memory" / "sub")
    os.symlink(real, tmp_path / "alias")
    through_real = run_cli("check", "--output-format", "json", cwd=real)
    through_link = run_cli("check", "--output-format", "json", cwd=tmp_path / "alias")
    assert json.loads(through_link.stdout) == json.loads(through_real.stdout) != []


def test_a_newline_in_a_file_name_keeps_one_finding_per_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {**INDEX, "memory/two\nlines.md": "no frontmatter\n"})
    result = run_cli("check", "--select", "MEM203", cwd=tmp_path)
    assert result.stdout.splitlines()[0].startswith("memory/two\\nlines.md: MEM203")


def test_a_rule_that_crashes_is_reported_and_the_run_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in one rule costs its own findings only; SARIF then says the run did not succeed."""
    from mnemolint.engine import lint
    from mnemolint.report.sarif_format import sarif
    from mnemolint.rules.index import index_not_pointer

    def broken(*args: object) -> None:
        raise ValueError("a bug")

    write_tree(tmp_path, HEALTHY)
    monkeypatch.setattr(index_not_pointer, "check", broken)
    result = lint([str(tmp_path)], preview_settings(tmp_path))
    assert [d.code for d in result.diagnostics] == ["MEM104"]
    assert result.errors == [f"mnemolint: internal error in MEM108 on {tmp_path}/healthy/MEMORY.md: ValueError: a bug"]
    assert sarif(result.diagnostics, str(tmp_path), successful=not result.errors)["runs"][0]["invocations"] == [
        {"executionSuccessful": False}
    ]


def _time_many_empty_topics(root: Path, count: int) -> float:
    write_tree(root, INDEX)
    for number in range(count):
        (root / "memory" / f"e{number:06d}.md").touch()
    started = time.perf_counter()
    process = run_cli("check", "--preview", "--statistics", "--select", "MEM203,SEC001,LNK", cwd=root)
    elapsed = time.perf_counter() - started
    assert (process.returncode, process.stderr) == (1, "")
    assert process.stdout.split()[:2] == [str(count), "MEM203"], process.stdout[:200]
    return elapsed


def test_100000_empty_files_in_one_memory_dir_cost_ten_times_10000(tmp_path: Path) -> None:
    """Linear: 10k then 100k empty topics (each MEM203); measured 0.9 s and 8 s here."""
    small = _time_many_empty_topics(tmp_path / "small", 10_000)
    large = _time_many_empty_topics(tmp_path / "large", 100_000)
    assert large < 15 * small, (small, large)


@pytest.mark.parametrize("special", ["fifo", "directory"])
def test_a_special_file_swapped_in_after_the_walk_is_refused_without_blocking(tmp_path: Path, special: str) -> None:
    """The walk saw a regular file; by the time it is read, a FIFO (or a directory) stands there."""
    from mnemolint.discover.walk import discover

    write_tree(tmp_path, {**INDEX, "memory/t.md": "---\nname: t\n---\n"})
    settings = preview_settings(tmp_path)
    [document] = [d for d in discover([str(tmp_path)], settings).documents if d.path.endswith("t.md")]
    (tmp_path / "memory" / "t.md").unlink()
    if special == "fifo":
        os.mkfifo(tmp_path / "memory" / "t.md")
    else:
        (tmp_path / "memory" / "t.md").mkdir()
    started = time.perf_counter()
    assert document.text is None and document.read_error is not None  # NST002 reports it
    assert time.perf_counter() - started < 1
    if special == "fifo":
        assert document.read_error == "not a regular file (a FIFO, device or directory stands at its name)"
