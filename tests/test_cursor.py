"""CUR001–CUR006 on real `.cursor/rules` trees in tmp_path, and Cursor's own frontmatter format
read as Cursor reads it (unquoted `globs: *.tsx` and comma lists are not broken YAML).

Each rule fires once and stays quiet once; the reader is checked on the forms found in public
repositories' `.cursor/rules` files (agents/cursor.py names them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import only, run_cli, run_lint, write_tree

from mnemolint.kinds.editor_rules import read_fields

SOURCES = {"src/app.module.tsx": "x\n", "src/ui/button.tsx": "x\n", "lib/c.py": "x\n", "README.md": "# p\n"}


def mdc(front: str | None, body: str = "Use the design tokens.\n") -> str:
    return (f"---\n{front}\n---\n" if front is not None else "") + body


def check(root: Path, code: str, **options: object):
    found = run_lint(root, select=["CUR"], preview=True, **options)
    assert not [d for d in found if d.code.startswith("MNL")], found  # no internal error
    return only(found, code)


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("globs: *.tsx", ["*.tsx"]),  # a YAML alias to a strict reader: Cursor's own glob
        ("globs: src/**/*.ts, lib/**", ["src/**/*.ts", "lib/**"]),
        ('globs: "**/*.{ts,tsx}"', ["**/*.{ts,tsx}"]),  # no split inside braces
        ("globs:\n  - '*.py'\n  - \"docs/**\"", ["*.py", "docs/**"]),
        ('globs: ["a/**", "b/**"]', ["a/**", "b/**"]),
        ("globs: *.md # markdown", ["*.md"]),
        ("globs:", []),
        ("globs: *.md\nglobs: *.py", ["*.md"]),  # a repeated key keeps its first value
    ],
)
def test_cursor_globs_are_read_as_cursor_writes_them(front: str, expected: list[str]) -> None:
    assert read_fields(mdc(front)).patterns("globs") == expected


def test_bom_and_crlf_do_not_hide_the_fields() -> None:
    fields = read_fields("\ufeff---\r\nalwaysApply: true\r\nglobs: *.ts\r\n---\r\nbody\r\n")
    assert fields.values["alwaysApply"] == "true" and fields.patterns("globs") == ["*.ts"]


def test_unclosed_frontmatter_is_all_body() -> None:
    assert read_fields("---\nglobs: *.ts\nno end\n").close == 0


def test_dead_glob_fires_on_the_held_back_typo(tmp_path: Path) -> None:
    """`*.modules.tsx` where the files are `*.module.tsx`: the rule is never attached."""
    write_tree(
        tmp_path,
        {
            **SOURCES,
            ".cursor/rules/modules.mdc": mdc("description: CSS modules\nglobs: *.modules.tsx\nalwaysApply: false"),
            ".cursor/rules/live.mdc": mdc("globs: *.module.tsx, src/ui\nalwaysApply: false"),
        },
    )
    found = check(tmp_path, "CUR001")
    assert [(Path(d.path).name, d.line) for d in found] == [("modules.mdc", 3)]
    assert "`*.modules.tsx` matches no file" in found[0].message


def test_glob_at_any_depth_and_folder_readings_keep_a_rule_alive(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {**SOURCES, ".cursor/rules/a.mdc": mdc("globs: button.tsx, src/ui, lib/, **/*.py")},
    )
    assert check(tmp_path, "CUR001") == []


def test_always_apply_globs_are_not_judged_dead(tmp_path: Path) -> None:
    write_tree(tmp_path, {**SOURCES, ".cursor/rules/a.mdc": mdc("globs: *.nothing\nalwaysApply: true")})
    assert check(tmp_path, "CUR001") == []
    assert len(check(tmp_path, "CUR003")) == 1


def test_nested_rules_dir_is_dead_only_when_dead_from_both_bases(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "packages/web/src/page.tsx": "x\n",
            "packages/web/.cursor/rules/web.mdc": mdc("globs: src/**/*.tsx"),  # from its own folder
            "packages/web/.cursor/rules/root.mdc": mdc("globs: packages/web/src/**"),  # from the root
            "packages/web/.cursor/rules/dead.mdc": mdc("globs: src/**/*.vue"),
        },
    )
    assert [Path(d.path).name for d in check(tmp_path, "CUR001")] == ["dead.mdc"]


def test_manual_only_rule_is_info(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            ".cursor/rules/manual.mdc": mdc("description:\nglobs:\nalwaysApply: false"),
            ".cursor/rules/plain.mdc": "No frontmatter at all.\n",
            ".cursor/rules/requested.mdc": mdc("description: When writing migrations\nalwaysApply: false"),
            ".cursor/rules/attached.mdc": mdc("globs: *.py"),
            ".cursor/rules/always.mdc": mdc("alwaysApply: true"),
            ".cursor/rules/empty.mdc": mdc("alwaysApply: false", body=""),  # CUR004's, not this one's
        },
    )
    found = check(tmp_path, "CUR002")
    assert sorted(Path(d.path).name for d in found) == ["manual.mdc", "plain.mdc"]
    assert all(d.severity == "info" and "@-mentions" in d.message for d in found)


def test_always_apply_with_globs(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            ".cursor/rules/a.mdc": mdc("globs: src/**/*.tsx\nalwaysApply: true"),
            ".cursor/rules/b.mdc": mdc("globs: '**/*'\nalwaysApply: true"),  # says what alwaysApply says
            ".cursor/rules/c.mdc": mdc("globs: src/**\nalwaysApply: false"),
        },
    )
    found = check(tmp_path, "CUR003")
    assert [(Path(d.path).name, d.line) for d in found] == [("a.mdc", 3)]


def test_empty_rule_and_legacy_file(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            ".cursor/rules/empty.mdc": mdc("alwaysApply: true", body="\n\n"),
            ".cursor/rules/full.mdc": mdc("alwaysApply: true"),
            ".cursorrules": "",
        },
    )
    assert sorted(Path(d.path).name for d in check(tmp_path, "CUR004")) == [".cursorrules", "empty.mdc"]


def test_long_rule_is_info_past_the_option(tmp_path: Path) -> None:
    write_tree(tmp_path, {".cursor/rules/long.mdc": mdc("alwaysApply: true", body="- do it\n" * 600)})
    found = check(tmp_path, "CUR005")
    assert len(found) == 1 and "603 lines" in found[0].message and found[0].line == 501
    assert check(tmp_path, "CUR005", cursor_max_lines=700) == []


def test_legacy_cursorrules_beside_rules_dir(tmp_path: Path) -> None:
    write_tree(tmp_path, {".cursorrules": "Be terse.\n", ".cursor/rules/a.mdc": mdc("alwaysApply: true")})
    found = check(tmp_path, "CUR006")
    assert [Path(d.path).name for d in found] == [".cursorrules"] and "deprecated" in found[0].message


def test_legacy_cursorrules_alone_is_fine(tmp_path: Path) -> None:
    write_tree(tmp_path, {".cursorrules": "Be terse.\n", "pkg/.cursor/rules/a.mdc": mdc("alwaysApply: true")})
    assert check(tmp_path, "CUR006") == []


def test_cursor_format_is_never_reported_as_broken_yaml(tmp_path: Path) -> None:
    """FM rules are for strict readers; Cursor reads `globs: *.tsx` as it means it."""
    write_tree(tmp_path, {**SOURCES, ".cursor/rules/a.mdc": mdc("globs: *.tsx, *.py\nalwaysApply: false")})
    found = run_lint(tmp_path, preview=True)
    assert [d.code for d in found if d.code.startswith(("FM", "CUR", "MNL"))] == []


def test_cli_reports_cursor_rules_with_preview(tmp_path: Path) -> None:
    write_tree(tmp_path, {**SOURCES, ".cursor/rules/a.mdc": mdc("globs: *.vue")})
    result = run_cli("check", "--no-cache", "--preview", str(tmp_path))
    assert result.returncode == 1 and "CUR001" in result.stdout, result.stdout + result.stderr
    quiet = run_cli("check", "--no-cache", str(tmp_path), preview=False)
    assert "CUR001" not in quiet.stdout  # a preview rule until measured


def test_readme_lists_every_agent_and_how_its_reading_is_known() -> None:
    """The README's supported-agents table names each registered agent and says, as its profile
    does, whether its reading is verified against the running client, read in its source, or
    taken from its documentation."""
    from mnemolint.agents import AGENTS
    from mnemolint.agents.base import CLIENT, DOCS, SOURCE

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Supported agents", 1)[1].split("\n## ", 1)[0]
    said = {CLIENT: "verified against the running client", SOURCE: "read in its source", DOCS: "from its documentation"}
    for agent in AGENTS:
        if not agent.selectable or agent.verified is None:
            continue
        row = next((line for line in table.splitlines() if line.startswith(f"| {agent.title} |")), None)
        assert row is not None, agent.title
        assert said[agent.verified.how] in row, (agent.title, agent.verified.how)


def test_dead_globs_on_one_line_come_in_the_order_written_whatever_the_hash_seed(tmp_path: Path) -> None:
    """Two dead globs on one line share path, line, column and code: they are reported in the
    order written, the same on every run (not in the order of a set of strings)."""
    rule = "---\ndescription: x\nglobs: a/*.zz, b/*.qq, c/*.yy, d/*.ww\n---\nBody here.\n"
    (tmp_path / ".cursor" / "rules").mkdir(parents=True)
    (tmp_path / ".cursor" / "rules" / "x.mdc").write_text(rule, encoding="utf-8")
    outputs = {
        run_cli("check", "--no-cache", "--select", "CUR001", str(tmp_path), env={"PYTHONHASHSEED": seed}).stdout
        for seed in ("0", "1", "2", "3")
    }
    assert len(outputs) == 1
    named = [line.split("`")[1] for line in outputs.pop().splitlines() if "CUR001" in line]
    assert named == ["a/*.zz", "b/*.qq", "c/*.yy", "d/*.ww"]
