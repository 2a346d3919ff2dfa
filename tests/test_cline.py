"""CLN001–CLN003 on real `.clinerules` trees in tmp_path, and Cline's strict YAML: invalid
frontmatter is FM001's finding, worded with what Cline then does."""

from __future__ import annotations

from pathlib import Path

from conftest import only, run_lint, write_tree

SOURCES = {"src/a.ts": "x\n", "index.ts": "x\n", "docs/guide.md": "# g\n"}


def rule(front: str | None, body: str = "Use bun, not npm.\n") -> str:
    return (f"---\n{front}\n---\n" if front is not None else "") + body


def check(root: Path, code: str):
    found = run_lint(root, select=["CLN", "FM"], preview=True)
    assert not [d for d in found if d.code.startswith("MNL")], found
    return only(found, code)


def test_dead_paths_glob_with_the_root_only_hint(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            ".clinerules/vue.md": rule('paths:\n  - "src/**/*.vue"\n  - "src/**"'),
            ".clinerules/root.md": rule('paths:\n  - "*.md"'),  # picomatch: root files only
            ".clinerules/live.md": rule('paths:\n  - "*.ts"'),  # index.ts is at the root
            ".clinerules/workflows/release.md": rule('paths:\n  - "*.nothing"'),  # a workflow, not a rule
        },
    )
    found = check(tmp_path, "CLN001")
    assert [(Path(d.path).name, d.line) for d in found] == [("root.md", 3), ("vue.md", 3)]
    assert "write `**/*.md`" in found[0].message and "matchBase" not in found[1].message


def test_paths_that_cline_ignores(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            ".clinerules/string.md": rule('paths: "src/**"'),
            ".clinerules/mixed.md": rule('paths:\n  - "src/**"\n  - 3'),
            ".clinerules/list.md": rule('paths:\n  - "src/**"'),
            ".clinerules/empty.md": rule("paths: []"),
        },
    )
    found = check(tmp_path, "CLN002")
    assert sorted(Path(d.path).name for d in found) == ["mixed.md", "string.md"]
    assert "a string" in next(d.message for d in found if d.path.endswith("string.md"))


def test_empty_paths_list_never_loads(tmp_path: Path) -> None:
    write_tree(tmp_path, {".clinerules/empty.md": rule("paths: []"), ".clinerules/none.md": rule(None)})
    assert [Path(d.path).name for d in check(tmp_path, "CLN003")] == ["empty.md"]


def test_single_file_clinerules_is_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {".clinerules": rule('paths: "src/**"')})
    assert len(check(tmp_path, "CLN002")) == 1


def test_invalid_yaml_says_what_cline_does(tmp_path: Path) -> None:
    write_tree(tmp_path, {**SOURCES, ".clinerules/a.md": rule("paths:\n  - **/*.ts")})
    found = check(tmp_path, "FM001")
    assert len(found) == 1 and "Cline then applies no `paths`" in found[0].message
