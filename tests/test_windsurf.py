"""WSF001–WSF006 on real `.windsurf/rules` trees in tmp_path: each fires once and stays quiet once,
and both documented limits are options."""

from __future__ import annotations

from pathlib import Path

from conftest import only, run_lint, write_tree

SOURCES = {"src/a.ts": "x\n", "docs/guide.md": "# g\n"}
DIR = ".windsurf/rules"


def rule(front: str | None, body: str = "Use bun, not npm.\n") -> str:
    return (f"---\n{front}\n---\n" if front is not None else "") + body


def check(root: Path, code: str, **options: object):
    found = run_lint(root, select=["WSF"], preview=True, **options)
    assert not [d for d in found if d.code.startswith("MNL")], found
    return only(found, code)


def test_rule_over_the_per_file_limit_names_what_is_lost(tmp_path: Path) -> None:
    body = "".join(f"- rule {index:04d} keep this one short\n" for index in range(300))  # 32 characters a line
    write_tree(
        tmp_path, {f"{DIR}/long.md": rule("trigger: always_on", body), f"{DIR}/short.md": rule("trigger: manual")}
    )
    found = check(tmp_path, "WSF001")
    assert len(found) == 1 and Path(found[0].path).name == "long.md"
    assert "9,600 characters" in found[0].message and "last 3,600" in found[0].message
    assert found[0].line == 3 + 6_000 // 32 + 1 and "rule 0187" in found[0].message  # the cut is in that line
    assert check(tmp_path, "WSF001", windsurf_max_rule_chars=10_000) == []


def test_always_on_rules_over_the_total(tmp_path: Path) -> None:
    body = "x" * 5_000 + "\n"
    files = {f"{DIR}/r{index}.md": rule("trigger: always_on", body) for index in range(3)}
    write_tree(tmp_path, {**files, f"{DIR}/glob.md": rule("trigger: glob\nglobs: *.ts", body * 2)})
    found = check(tmp_path, "WSF002")
    assert len(found) == 1 and "15,003 characters" in found[0].message and len(found[0].related) == 3
    assert check(tmp_path, "WSF002", windsurf_max_total_chars=20_000) == []


def test_dead_glob_of_a_glob_rule(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            **SOURCES,
            f"{DIR}/vue.md": rule("trigger: glob\nglobs: *.vue"),
            f"{DIR}/ts.md": rule("trigger: glob\nglobs: *.ts, docs/"),
            f"{DIR}/manual.md": rule("trigger: manual\nglobs: *.vue"),  # its globs are never matched
        },
    )
    found = check(tmp_path, "WSF003")
    assert [(Path(d.path).name, d.line) for d in found] == [("vue.md", 3)]


def test_glob_trigger_without_globs(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"{DIR}/a.md": rule("trigger: glob"), f"{DIR}/b.md": rule("trigger: glob\nglobs: *.ts")})
    assert [Path(d.path).name for d in check(tmp_path, "WSF004")] == ["a.md"]


def test_unknown_trigger(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            f"{DIR}/a.md": rule("trigger: always"),
            f"{DIR}/b.md": rule("trigger: model_decision\ndescription: when writing SQL"),
            f"{DIR}/c.md": rule(None),
        },
    )
    found = check(tmp_path, "WSF005")
    assert [Path(d.path).name for d in found] == ["a.md"] and "`always`" in found[0].message


def test_empty_rule(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"{DIR}/a.md": rule("trigger: always_on", ""), f"{DIR}/b.md": rule("trigger: always_on")})
    assert [Path(d.path).name for d in check(tmp_path, "WSF006")] == ["a.md"]
