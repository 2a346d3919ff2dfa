"""Suppression comments: `disable-line`, the marks a lookup credits, and SUP001 (unused
suppressions, ruff's RUF100) with its safe fix, on real memory dirs through the engine and the CLI."""

from __future__ import annotations

import time
from pathlib import Path

from conftest import git, run_cli, run_lint, write_tree

from mnemolint.parse import suppress

LONG = "- [Build](build.md) — " + "how to build, " * 12  # MEM103: an index line past 150 characters
TOPIC = "---\nname: Build\ndescription: how to build\ntype: project\n---\nRun `make build`.\n"


def memory(root: Path, index: str, **files: str) -> Path:
    write_tree(
        root, {"memory/MEMORY.md": index, "memory/build.md": TOPIC, **{f"memory/{k}": v for k, v in files.items()}}
    )
    return root


def found(root: Path, *select: str, preview: bool = True) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in run_lint(root, select=list(select) or None, preview=preview)]


# --- disable-line ----------------------------------------------------------------------------------


def test_disable_line_silences_its_own_line_only(tmp_path: Path) -> None:
    memory(tmp_path, f"{LONG}\n{LONG} <!-- mnemolint-disable-line MEM103 -->\n{LONG}\n")
    assert found(tmp_path, "MEM103") == [("MEM103", 1), ("MEM103", 3)]


def test_disable_line_takes_prefixes_and_several_codes(tmp_path: Path) -> None:
    memory(tmp_path, f"{LONG} <!-- mnemolint-disable-line TXT004, MEM1 -->\n")
    assert found(tmp_path, "MEM103") == []


def test_a_lookup_credits_every_comment_that_covers_the_finding() -> None:
    lines = [
        "<!-- mnemolint-disable-file MEM1 -->",
        "<!-- mnemolint-disable MEM103 -->",
        "x <!-- mnemolint-disable-line -->",
    ]
    marks = suppress.parse("\n".join(lines), lines)
    assert marks is not None
    assert sorted(marks.covering("MEM103", 3)) == [(0, "MEM1"), (1, "MEM103"), (2, "ALL")]
    assert sorted(marks.covering("MEM103", 3, blanket=False)) == [(0, "MEM1"), (1, "MEM103")]
    assert marks.covering("TXT001", None) == []


# --- SUP001: what it reports ------------------------------------------------------------------------


def test_a_used_suppression_is_not_reported_and_an_unused_one_is(tmp_path: Path) -> None:
    memory(
        tmp_path,
        f"<!-- mnemolint-disable-next-line MEM103 -->\n{LONG}\n"
        "<!-- mnemolint-disable-next-line MEM103 -->\n- [Short](build.md) — short\n",
    )
    assert [(c, line) for c, line in found(tmp_path) if c in ("SUP001", "MEM103")] == [("SUP001", 3)]


def test_each_code_of_a_comment_is_judged_on_its_own(tmp_path: Path) -> None:
    comment = "<!-- mnemolint-disable-next-line MEM103,MEM108, MEM999 -->"
    memory(tmp_path, f"{comment}\n{LONG}\n")
    [finding] = [d for d in run_lint(tmp_path, preview=True) if d.code == "SUP001"]
    assert finding.message == (
        "Unused suppression in this `mnemolint-disable-next-line`: `MEM108` silenced no finding and "
        "`MEM999` names no rule."
    )
    assert (finding.line, finding.column, finding.end_column) == (1, 1, len(comment) + 1)


def test_a_code_whose_rules_did_not_all_run_is_not_judged(tmp_path: Path) -> None:
    """Another run (a wider selection, --preview) may need it; an unknown code is judged always."""
    memory(
        tmp_path,
        "<!-- mnemolint-disable-file MEM209 -->\n"
        "<!-- mnemolint-disable-file TXT004, MEM998 -->\n"
        "- [Build](build.md) — b\n",
    )
    assert found(tmp_path, "MEM1", "SUP") == [("SUP001", 2)]
    [finding] = [d for d in run_lint(tmp_path, select=["MEM1", "SUP"], preview=True)]
    assert "`MEM998` names no rule" in finding.message and "TXT004" not in finding.message
    # with every rule running, TXT004 and MEM209 are judged too
    assert [line for code, line in found(tmp_path) if code == "SUP001"] == [1, 2]


def test_sup001_is_a_preview_rule(tmp_path: Path) -> None:
    memory(tmp_path, "<!-- mnemolint-disable-file MEM999 -->\n- [Build](build.md) — b\n")
    assert "SUP001" not in [code for code, _ in found(tmp_path, preview=False)]


def test_a_blanket_comment_that_silenced_nothing_is_reported_but_never_silences_its_own_report(tmp_path: Path) -> None:
    memory(tmp_path, "- [Build](build.md) — b\n<!-- mnemolint-disable -->\n")
    assert [d.message for d in run_lint(tmp_path, preview=True) if d.code == "SUP001"] == [
        "Unused suppression: this `mnemolint-disable` names no code and silenced no finding."
    ]


def test_a_comment_naming_sup001_silences_it_and_is_never_judged(tmp_path: Path) -> None:
    memory(
        tmp_path,
        "<!-- mnemolint-disable-file SUP001 -->\n- [Build](build.md) — b <!-- mnemolint-disable-line MEM107 -->\n",
    )
    assert "SUP001" not in [code for code, _ in found(tmp_path)]


def test_a_second_disable_of_an_open_range_does_nothing_and_is_reported(tmp_path: Path) -> None:
    memory(tmp_path, f"<!-- mnemolint-disable MEM103 -->\n{LONG}\n<!-- mnemolint-disable MEM103 -->\n{LONG}\n")
    assert [(c, line) for c, line in found(tmp_path) if c in ("SUP001", "MEM103")] == [("SUP001", 3)]


def test_kinds_without_suppression_comments_are_not_judged(tmp_path: Path) -> None:
    write_tree(tmp_path, {".gitignore": "# <!-- mnemolint-disable MEM999 -->\n"})
    assert "SUP001" not in [code for code, _ in found(tmp_path)]


# --- SUP001: its fix, through `check --fix` ----------------------------------------------------------


def fixed(root: Path, index: str, *args: str) -> str:
    memory(root, index)
    result = run_cli("check", "--preview", "--no-cache", "--fix", "--exit-zero", *args, "memory", cwd=root)
    assert result.returncode == 0, result.stderr
    return (root / "memory" / "MEMORY.md").read_bytes().decode("utf-8")


def test_the_fix_removes_a_whole_comment_line(tmp_path: Path) -> None:
    index = "# Index\n<!-- mnemolint-disable-next-line MEM103 -->\n- [Build](build.md) — b\n"
    assert fixed(tmp_path, index) == "# Index\n- [Build](build.md) — b\n"


def test_the_fix_removes_only_the_dead_code_and_keeps_the_comment_as_written(tmp_path: Path) -> None:
    index = f"<!-- mnemolint-disable-next-line  MEM108 ,MEM103,  MEM999 -->\n{LONG}\n"
    assert fixed(tmp_path, index) == f"<!-- mnemolint-disable-next-line  MEM103 -->\n{LONG}\n"
    index = f"<!-- mnemolint-disable-next-line MEM103, MEM999 -->\n{LONG}\n"
    assert fixed(tmp_path, index) == f"<!-- mnemolint-disable-next-line MEM103 -->\n{LONG}\n"


def test_the_fix_of_a_trailing_comment_keeps_the_line_and_its_crlf(tmp_path: Path) -> None:
    index = "# Index\r\n- [Build](build.md) — b <!-- mnemolint-disable-line MEM103 -->\r\nend\r\n"
    assert fixed(tmp_path, index, "--ignore", "TXT") == "# Index\r\n- [Build](build.md) — b\r\nend\r\n"


def test_the_fix_of_a_comment_inside_a_line_leaves_one_space(tmp_path: Path) -> None:
    index = "- [Build](build.md) <!-- mnemolint-disable-line MEM103 --> — b\n"
    assert fixed(tmp_path, index) == "- [Build](build.md) — b\n"


def test_the_fix_of_a_dead_range_takes_its_enable_along(tmp_path: Path) -> None:
    index = (
        "<!-- mnemolint-disable MEM108, MEM103 -->\n"
        f"{LONG}\n"
        "<!-- mnemolint-enable MEM103,MEM108 -->\n"
        "<!-- mnemolint-disable MEM108 -->\n## Steps\n<!-- mnemolint-enable -->\n"
        "keep me <!-- mnemolint-disable MEM107 --> and me\n"
    )
    assert fixed(tmp_path, index) == (
        f"<!-- mnemolint-disable MEM103 -->\n{LONG}\n<!-- mnemolint-enable MEM103 -->\n## Steps\nkeep me and me\n"
    )


def test_a_bare_enable_stays_while_it_still_ends_a_used_range(tmp_path: Path) -> None:
    index = f"<!-- mnemolint-disable MEM103 --><!-- mnemolint-disable MEM108 -->\n{LONG}\n<!-- mnemolint-enable -->\n"
    assert fixed(tmp_path, index) == f"<!-- mnemolint-disable MEM103 -->\n{LONG}\n<!-- mnemolint-enable -->\n"


def test_fixing_the_finding_makes_its_suppression_unused_and_it_goes_in_the_same_run(tmp_path: Path) -> None:
    """A range around a duplicate entry (MEM107, safe fix): once the duplicate is gone the range
    silences nothing, and the next round removes it; the rest of the file is as it was."""
    index = "- [Build](build.md) — b\n<!-- mnemolint-disable-next-line MEM103 -->\n- [Build](build.md) — b\n"
    assert fixed(tmp_path, index) == "- [Build](build.md) — b\n"


# --- bounded ---------------------------------------------------------------------------------------


def test_a_megabyte_of_unused_comments_is_judged_and_fixed_in_bounded_time(tmp_path: Path) -> None:
    lines = ["<!-- mnemolint-disable MEM103,MEM108 --> x <!-- mnemolint-enable MEM108 -->" for _ in range(14_000)]
    memory(tmp_path, "- [Build](build.md) — b\n" + "\n".join(lines) + "\n")
    assert (tmp_path / "memory/MEMORY.md").stat().st_size > 1_000_000
    start = time.monotonic()
    result = run_cli("check", "--preview", "--no-cache", "--select", "MEM1,SUP", "--diff", "memory", cwd=tmp_path)
    elapsed = time.monotonic() - start
    assert elapsed < 30, elapsed
    assert result.returncode == 1, result.stderr
    # every comment is dead: the first range of MEM103 never closes, so each later `disable MEM103`
    # repeats it, and no line is too long; each line keeps its text alone
    assert result.stdout.splitlines().count("+x") == 14_000


def test_a_megabyte_of_ranges_each_ended_by_a_bare_enable_is_judged_in_bounded_time(tmp_path: Path) -> None:
    """Each bare `enable` asks which ranges it ends: once per document, not once per comment."""
    lines = ["<!-- mnemolint-disable MEM103 --><!-- mnemolint-enable -->"] * 19_000
    memory(tmp_path, "- [Build](build.md) — b\n" + "\n".join(lines) + "\n")
    assert (tmp_path / "memory/MEMORY.md").stat().st_size > 1_000_000
    start = time.monotonic()
    found = [d for d in run_lint(tmp_path, select=["MEM103", "SUP"], preview=True) if d.code == "SUP001"]
    assert time.monotonic() - start < 20
    assert len(found) == 19_000
    assert {len(d.fix.edits) for d in found} == {1}  # the line goes: both comments were all it held


def test_a_warm_cached_run_judges_the_comments_as_a_cold_one(tmp_path: Path) -> None:
    memory(tmp_path, f"<!-- mnemolint-disable-next-line MEM103,MEM108 -->\n{LONG}\n")
    git("init", "-q", cwd=tmp_path)  # a project: the cache is kept at its top
    runs = [run_cli("check", "--preview", "--exit-zero", cwd=tmp_path).stdout for _ in range(2)]
    assert (tmp_path / ".mnemolint_cache").is_dir()
    assert runs[0] == runs[1] == run_cli("check", "--preview", "--exit-zero", "--no-cache", cwd=tmp_path).stdout
    assert "`MEM108` silenced no finding" in runs[1]


def test_comments_parsed_in_a_worker_process_are_judged_in_the_parent(tmp_path: Path, monkeypatch) -> None:
    from mnemolint import parallel

    topics = {f"t{n}.md": f"{TOPIC}x <!-- mnemolint-disable-line MEM9{n}0 -->\n" for n in range(8)}
    memory(tmp_path, "".join(f"- [T{n}](t{n}.md) — t\n" for n in range(8)) + LONG + "\n", **topics)
    alone = [(d.path, d.line, d.message, repr(d.fix and d.fix.edits)) for d in run_lint(tmp_path, preview=True)]
    monkeypatch.setattr(parallel, "MIN_DOCUMENTS", 2)
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    forked = [(d.path, d.line, d.message, repr(d.fix and d.fix.edits)) for d in run_lint(tmp_path, preview=True)]
    assert forked == alone
    assert sum("names no rule" in message for _, _, message, _ in forked) == 8
