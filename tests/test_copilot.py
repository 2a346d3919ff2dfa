"""CPL001–CPL003 on real `.github/instructions` trees in tmp_path: each fires once and stays quiet once."""

from __future__ import annotations

from pathlib import Path

from conftest import only, run_lint, write_tree

SOURCES = {"src/a.ts": "x\n", "src/ui/b.tsx": "x\n", "lib/c.py": "x\n", "docs/guide.md": "# g\n"}
DIR = ".github/instructions"


def instructions(front: str | None, body: str = "Prefer small functions.\n") -> str:
    return (f"---\n{front}\n---\n" if front is not None else "") + body


def check(root: Path, code: str):
    found = run_lint(root, select=["CPL"], preview=True)
    assert not [d for d in found if d.code.startswith("MNL")], found
    return only(found, code)


def test_dead_apply_to_pattern(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            f"{DIR}/vue.instructions.md": instructions("applyTo: src/**/*.ts, **/*.vue"),  # unquoted, as the CLI reads
            f"{DIR}/live.instructions.md": instructions("applyTo:\n  - '*.py'\n  - src/ui"),
        },
    )
    found = check(tmp_path, "CPL001")
    assert [(Path(d.path).name, d.line) for d in found] == [("vue.instructions.md", 2)]
    assert "`**/*.vue`" in found[0].message


def test_match_all_apply_to_is_never_dead(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"{DIR}/all.instructions.md": instructions('applyTo: "**"')})
    assert check(tmp_path, "CPL001") == [] and check(tmp_path, "CPL002") == []


def test_instructions_without_apply_to(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            f"{DIR}/none.instructions.md": instructions('description: "about python"'),
            f"{DIR}/plain.instructions.md": instructions(None),
            f"{DIR}/empty.instructions.md": instructions('applyTo: ""'),
            f"{DIR}/scoped.instructions.md": instructions('applyTo: "**/*.py"'),
            ".github/copilot-instructions.md": "Repository-wide: no applyTo needed.\n",
        },
    )
    found = check(tmp_path, "CPL002")
    assert sorted(Path(d.path).name for d in found) == [
        "empty.instructions.md",
        "none.instructions.md",
        "plain.instructions.md",
    ]
    assert all("VS Code" in d.message and "Copilot CLI 1.0.102" in d.message for d in found)


def test_empty_instructions(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            f"{DIR}/bodyless.instructions.md": instructions('applyTo: "**/*.md"', body="\n"),
            f"{DIR}/full.instructions.md": instructions('applyTo: "**/*.md"'),
        },
    )
    assert [Path(d.path).name for d in check(tmp_path, "CPL003")] == ["bodyless.instructions.md"]


def test_other_files_in_the_dir_are_not_instructions(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"{DIR}/notes.md": instructions("applyTo: **/*.nothing")})
    assert run_lint(tmp_path, select=["CPL"], preview=True) == []
