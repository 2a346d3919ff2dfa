"""MEM1xx: the `MEMORY.md` index, linted from real memory dirs in tmp_path.

Numbers come from seed 000 ("自动记忆容量治理", scenarios 1–4, 8; prompt 3) via SPEC §2–§3: the
agent loads the first 200 lines / 25,000 UTF-16 characters of the trimmed index, advises index
lines under 150 characters, and warns from 80 % occupancy (compress below 140 lines / 17,500).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import codes, only, run_cli, run_lint

MEM = "memory"
ADVICE = "Keep index entries to one line under ~150 chars; move detail into topic files."


def topic(description: str = "What this topic holds", name: str = "topic", type_: str = "project") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n\nBody.\n"


def pointer(number: int, width: int = 40) -> str:
    """A distinct pointer line `- [Topic N](topic-N.md) — …` exactly `width` characters long."""
    return f"- [Topic {number}](topic-{number}.md) — summary ".ljust(width, "x")


def pointers(count: int, width: int = 40) -> str:
    return "\n".join(pointer(n, width) for n in range(1, count + 1)) + "\n"


def chars_text(total: int, width: int = 1000) -> str:
    """Index text of exactly `total` characters (newlines included), in lines of `width`."""
    text = "".join("\n" if i % (width + 1) == width else "x" for i in range(total))
    assert not text.endswith("\n"), "pick a total that does not end on a newline"
    return text


def lint_memdir(tree, index: str | None, topics: dict[str, str] | None = None, *, select: list[str], **options):
    """Write `memory/MEMORY.md` (unless None) and `memory/<topic>` files, and lint the tree."""
    files = {f"{MEM}/{name}": text for name, text in (topics or {}).items()}
    if index is not None:
        files[f"{MEM}/MEMORY.md"] = index
    root = tree(files)
    (root / MEM).mkdir(exist_ok=True)
    return run_lint(root, select=select, **options)


def one(diagnostics: list, code: str):
    found = only(diagnostics, code)
    assert len(found) == 1, f"expected one {code}, got {diagnostics}"
    return found[0]


def index_finding(tree, index: str, code: str, **options):
    """The single `code` finding on a memory dir with this index, checked to be on MEMORY.md."""
    finding = one(lint_memdir(tree, index, select=[code], **options), code)
    assert Path(finding.path).name == "MEMORY.md"
    return finding


# --- MEM101 index-over-load-limit ----------------------------------------------------------------


@pytest.mark.parametrize(
    "index",
    [
        pointers(200),
        pointers(200).rstrip("\n"),
        "\n\n   \n" + pointers(200) + "\n\n\t\n",
        pointers(200).replace("\n", "\r\n"),
        "\n".join(["记" * 70] * 190),  # 13,489 characters: CJK is one UTF-16 unit each
        "\n".join(["x" * 249] * 100) + "\n",  # 24,999 characters with LF endings
    ],
    ids=[
        "200-lines-final-newline",
        "200-lines",
        "blank-lines-around",
        "crlf-200-lines",
        "190-cjk-lines",
        "24999-chars",
    ],
)
def test_mem101_quiet_within_the_load_cap(tree, index: str) -> None:
    assert lint_memdir(tree, index, select=["MEM101"]) == []


def test_mem101_201_lines_names_what_is_lost(tree) -> None:
    finding = index_finding(tree, pointers(201), "MEM101")
    assert (finding.severity, finding.line) == ("error", 201)
    assert "201 lines (limit: 200)" in finding.message
    assert "characters (limit" not in finding.message  # the trigger is lines only
    assert "loads only 200 of 201 lines" in finding.message
    assert f'1 line is cut off, starting at line 201 ("{pointer(201)}")' in finding.message


def test_mem101_first_dropped_line_counts_leading_blank_lines(tree) -> None:
    finding = index_finding(tree, "\n\n\n" + pointers(201), "MEM101")
    assert finding.line == 204
    assert "starting at line 204" in finding.message


def test_mem101_quotes_first_80_chars_of_first_dropped_non_blank_line(tree) -> None:
    late = "- [Late entry](late.md) — " + "y" * 100
    finding = index_finding(tree, pointers(200) + "\n\n" + late + "\n", "MEM101")
    assert "loads only 200 of 203 lines" in finding.message
    assert "3 lines are cut off, starting at line 201" in finding.message
    assert f'("{late[:80]}…")' in finding.message
    assert late[:81] not in finding.message


def test_mem101_190_emoji_lines_are_over_in_utf16_units(tree) -> None:
    finding = index_finding(tree, "\n".join(["😀" * 70] * 190), "MEM101")
    assert "26,789 characters (limit: 25,000)" in finding.message
    assert "lines (limit" not in finding.message  # the trigger is characters only
    assert "loads only 177 of 190 lines" in finding.message  # 177 × 141 − 1 = 24,956 units
    assert f'starting at line 178 ("{"😀" * 40}…")' in finding.message
    assert finding.line == 178


def test_mem101_a_cr_of_crlf_counts_toward_characters(tree) -> None:
    finding = index_finding(tree, "\r\n".join(["x" * 249] * 100) + "\r\n", "MEM101")
    assert "25,098 characters (limit: 25,000)" in finding.message


def test_mem101_both_triggers(tree) -> None:
    finding = index_finding(tree, pointers(201, width=130), "MEM101")
    assert "26,330 characters (limit: 25,000) and 201 lines (limit: 200)" in finding.message
    assert "loads only 190 of 201 lines; 11 lines are cut off, starting at line 191" in finding.message


@pytest.mark.parametrize(
    ("prefix", "line", "column"),
    [("", 1, 25_001), ("\n\n", 3, 25_001), ("   ", 1, 25_004)],
    ids=["plain", "blank-lines-before", "spaces-before"],
)
def test_mem101_line_1_cut_by_the_char_cap(tree, prefix: str, line: int, column: int) -> None:
    finding = index_finding(tree, prefix + "x" * 30_000 + "\n" + pointers(3), "MEM101")
    assert "everything after the first 25,000 characters of line 1 is cut off" in finding.message
    assert "loads only" not in finding.message
    assert (finding.line, finding.column) == (line, column)


@pytest.mark.parametrize("index", [pointers(201), "x" * 30_000], ids=["line-cut", "line-1-cut"])
def test_mem101_advises_exactly_one_line_length(tree, index: str) -> None:
    message = index_finding(tree, index, "MEM101").message
    assert message.endswith(ADVICE)
    assert message.count("150") == 1
    assert re.findall(r"~\s*([\d,]+)", message) == ["150"]


def test_mem101_follows_the_configured_caps(tree) -> None:
    finding = index_finding(tree, pointers(4), "MEM101", index_max_lines=3)
    assert "loads only 3 of 4 lines" in finding.message
    assert finding.line == 4


# --- MEM102 index-near-limit ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "percent"),
    [
        (pointers(159), None),
        (pointers(160), "80%"),
        (pointers(200), "100%"),
        (pointers(201), None),  # over the cap is MEM101's error, not a warning
        (chars_text(19_999), None),
        (chars_text(20_000), "80%"),
        (chars_text(25_000 - 1), "100%"),  # 99.996 % rounds to 100 %
        (chars_text(25_002), None),
    ],
    ids=[
        "159-lines",
        "160-lines",
        "200-lines",
        "201-lines",
        "19999-chars",
        "20000-chars",
        "24999-chars",
        "25002-chars",
    ],
)
def test_mem102_fires_from_80_to_100_percent(tree, index: str, percent: str | None) -> None:
    found = lint_memdir(tree, index, select=["MEM102"])
    if percent is None:
        assert found == []
        return
    finding = one(found, "MEM102")
    assert finding.severity == "warning"
    assert finding.line is None  # about the whole file
    assert f"is at {percent} of its load cap" in finding.message
    assert "compress it below 140 lines / 17,500 characters" in finding.message


def test_mem102_states_both_occupancies(tree) -> None:
    finding = index_finding(tree, pointers(160), "MEM102")
    assert f"(160 of 200 lines, {160 * 41 - 1:,} of 25,000 characters)" in finding.message


# --- MEM103 index-line-too-long ------------------------------------------------------------------


def test_mem103_one_finding_per_long_line_on_that_line(tree) -> None:
    index = "\n".join(["# Index", "## " + "x" * 148, "## " + "y" * 147, "- [A](a.md) — " + "z" * 186, "- [B](b.md)"])
    found = lint_memdir(tree, index, {"a.md": topic()}, select=["MEM103"])
    assert [(d.line, d.column, d.end_column) for d in found] == [(2, 151, 152), (4, 151, 201)]
    assert "Index line is 151 characters (advised: under 150)" in found[0].message
    assert "Index line is 200 characters" in found[1].message
    assert found[0].fix is None  # a heading, not a pointer: nothing to re-derive it from
    assert found[1].fix is None  # a summary of its own: no fix rewrites what a person wrote


@pytest.mark.parametrize(("count", "fires"), [(74, False), (75, True)])
def test_mem103_counts_utf16_units(tree, count: int, fires: bool) -> None:
    found = lint_memdir(tree, "# " + "😀" * count + "\n", select=["MEM103"])
    assert codes(found) == (["MEM103"] if fires else [])
    if fires:
        assert "152 characters" in found[0].message


def test_mem103_ignores_the_cr_of_crlf(tree) -> None:
    assert lint_memdir(tree, ("# " + "x" * 148 + "\r\n") * 3, select=["MEM103"]) == []


def test_mem103_leaves_a_paragraph_or_code_block_to_mem108_one_finding_for_it(tree) -> None:
    """A block of long text lines in MEMORY.md is one MEM108 finding, not one MEM103 per line too."""
    long_pointer = "- [A](a.md) — " + "z" * 186
    paragraph = ["Notes from the last session: " + "w" * 160] * 3
    code = ["```", "x" * 170, "y" * 170, "```"]
    nested = ["- [B](b.md) — the b topic", "  - " + "v" * 170]
    index = "\n".join(["# Index", long_pointer, *paragraph, "", "## Code", *code, "## More", *nested]) + "\n"
    found = lint_memdir(tree, index, {"a.md": topic(), "b.md": topic()}, select=["MEM103", "MEM108"])
    assert [(d.code, d.line, d.end_line) for d in found] == [
        ("MEM103", 2, 2),  # the pointer: its own finding, with its fix
        ("MEM108", 3, 5),
        ("MEM108", 8, 11),
        ("MEM108", 14, 14),
    ]


# --- MEM104 index-broken-link --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("missing.md", "`missing.md` does not exist in the memory dir"),
        ("sub/missing.md", "`sub/missing.md` does not exist"),
        ("/home/me/memory/a.md", "is an absolute path"),
        ("~/notes/a.md", "is an absolute path"),
        ("C:/notes/a.md", "is an absolute path"),
        ("https://example.com/a.md", "is a URL"),
        ("file:///tmp/a.md", "is a URL"),
        ("../outside.md", "points outside the memory dir"),
        ("sub/../../outside.md", "points outside the memory dir"),
    ],
)
def test_mem104_fires_on_the_offending_link(tree, target: str, says: str) -> None:
    index = f"# Index\n\n- [Good](good.md) — fine\n- [Bad]({target}) — broken\n"
    tree({"outside.md": "exists, but outside the memory dir\n"})  # escaping is wrong even when the file exists
    finding = one(lint_memdir(tree, index, {"good.md": topic()}, select=["MEM104"]), "MEM104")
    assert finding.severity == "error"
    assert (finding.line, finding.column, finding.end_column) == (4, 3, 3 + len(f"[Bad]({target})"))
    assert says in finding.message
    # The line carries a summary a person wrote: dropping it loses that, so no fix drops it.
    assert finding.fix is None


@pytest.mark.parametrize(
    ("line", "applicability"),
    [
        pytest.param("- [missing](missing.md)", "safe", id="bare-generated-title"),
        pytest.param("- [sub](sub/sub.md)", "safe", id="generated-title-in-a-folder"),
        pytest.param("- [sub](sub/other.md)", None, id="title-is-not-the-file-name"),
        pytest.param("- [Missing](missing.md)", None, id="own-title"),
        pytest.param("- [missing](missing.md) — why deploys are slow", None, id="summary"),
        pytest.param("- **[missing](missing.md)**", None, id="emphasis"),
        pytest.param("- [missing](/home/me/missing.md)", None, id="absolute"),
    ],
)
def test_mem104_drop_is_safe_only_when_nothing_a_person_wrote_is_lost(
    tree, line: str, applicability: str | None
) -> None:
    index = f"# Index\n\n- [Good](good.md) — fine\n{line}\n"
    finding = one(lint_memdir(tree, index, {"good.md": topic()}, select=["MEM104"]), "MEM104")
    assert (finding.fix.applicability if finding.fix else None) == applicability


MIRROR = "".join(f"- [Memory {n}](memory_{n}.md) — what happened on day {n}\n" for n in range(200))


def test_mem104_an_index_copied_without_its_topics_is_one_finding_with_no_fix(tree) -> None:
    index = "# Memory\n" + MIRROR[: MIRROR.index("- [Memory 199]")] + "- [Good](good.md) — fine\n"
    [finding] = lint_memdir(tree, index, {"good.md": topic()}, select=["MEM104"])
    assert finding.message.startswith("199 of 200 index entries point to topics not in this tree (`memory_0.md`, ")
    assert (finding.line, finding.fix, len(finding.related)) == (2, None, 199)
    assert finding.related[:2] == ("memory_0.md", "memory_1.md")


def test_mem104_a_few_missing_topics_are_a_finding_each(tree) -> None:
    index = "- [gone](gone.md)\n- [Gone too](gone2.md) — x\n" + "".join(f"- [T{n}](t{n}.md) — t\n" for n in range(3))
    found = lint_memdir(tree, index, {f"t{n}.md": topic() for n in range(3)}, select=["MEM104"])
    assert [(f.line, f.fix.applicability if f.fix else None) for f in found] == [(1, "safe"), (2, None)]


def test_fix_keeps_every_line_of_an_index_whose_topics_are_absent(tree) -> None:
    """The shape of a repository mirroring a live memory dir without its topic files (issue 14)."""
    root = tree({"memory/MEMORY.md": MIRROR})
    result = run_cli("check", "--fix", "--exit-zero", cwd=root)
    assert result.returncode == 0, result.stderr
    assert (root / "memory/MEMORY.md").read_text() == MIRROR
    assert "200 of 200 index entries point to topics not in this tree" in result.stdout
    unsafe = run_cli("check", "--fix", "--unsafe-fixes", "--exit-zero", cwd=root)
    assert (unsafe.returncode, (root / "memory/MEMORY.md").read_text()) == (0, MIRROR)


@pytest.mark.parametrize(
    "index",
    [
        "<!-- e.g. [T](topic.md) -->",
        "<!-- template:\n- [T](topic.md) — summary\n-->",
        "- [Good](good.md) <!-- or [T](topic.md) -->",
        "Intro <!-- a note that goes on\n[T](topic.md) -->",
        "```\n- [T](topic.md)\n```",
        "~~~md\n- [T](topic.md)\n~~~",
        "- `[T](topic.md)` is the entry format",
        "- ``[T](topic.md)`` is the entry format",
        "- [Top](#top)",
        "- [Section](good.md#section)",
        "- [Spaced](my%20file.md)",
        "- [Spaced](<my file.md>)",
        "- [Nested](sub/deep.md)",
        "- [Dotted](./sub/../good.md)",
    ],
    ids=[
        "html-comment",
        "multi-line-comment",
        "comment-after-pointer",
        "comment-opened-mid-line",
        "fenced-code",
        "tilde-fence",
        "code-span",
        "double-backtick-code-span",
        "anchor",
        "anchor-in-topic",
        "percent-encoded",
        "angle-brackets",
        "subdirectory",
        "dot-segments",
    ],
)
def test_mem104_quiet(tree, index: str) -> None:
    topics = {"good.md": topic(), "my file.md": topic(), "sub/deep.md": topic()}
    assert lint_memdir(tree, index + "\n", topics, select=["MEM104"]) == []


# --- MEM105 index-orphan-topic -------------------------------------------------------------------


def test_mem105_reports_on_the_orphan_topic_file(tree, tmp_path: Path) -> None:
    root = tmp_path / MEM
    topics = {"linked.md": topic(), "orphan.md": topic(), "notes/deep.md": topic()}
    found = lint_memdir(tree, "- [Linked](linked.md)\n", topics, select=["MEM105"])
    assert sorted(Path(d.path).relative_to(root).as_posix() for d in found) == ["notes/deep.md", "orphan.md"]
    orphan = next(d for d in found if d.path.endswith("orphan.md"))
    assert (orphan.severity, orphan.line, orphan.column) == ("warning", None, None)
    assert "No line of MEMORY.md links to `orphan.md`" in orphan.message
    assert orphan.fix.applicability == "safe"


@pytest.mark.parametrize(
    "link",
    ["linked.md", "./linked.md", "sub/../linked.md", "<linked.md>", "linked.md#part", "linked%2Emd"],
)
def test_mem105_quiet_when_linked(tree, link: str) -> None:
    assert lint_memdir(tree, f"- [Linked]({link}) — x\n", {"linked.md": topic()}, select=["MEM105"]) == []


def test_mem105_a_link_inside_a_comment_does_not_index_a_topic(tree) -> None:
    found = lint_memdir(tree, "<!-- - [Linked](linked.md) -->\n", {"linked.md": topic()}, select=["MEM105"])
    assert codes(found) == ["MEM105"]


def test_mem105_quiet_without_an_index(tree) -> None:
    found = lint_memdir(tree, None, {"linked.md": topic()}, select=["MEM105"])
    assert found == []  # no index at all is MEM106


# --- MEM106 index-missing ------------------------------------------------------------------------


@pytest.mark.parametrize("home", [".claude", ".wave"])
def test_mem106_topics_without_an_index(tree, home: str) -> None:
    root = tree({f"{home}/projects/p/memory/a.md": topic(), f"{home}/projects/p/memory/b.md": topic()})
    finding = one(run_lint(root, select=["MEM106"]), "MEM106")
    assert finding.path == str(root / home / "projects/p/memory/MEMORY.md")
    assert (finding.severity, finding.line) == ("warning", None)
    assert "MEMORY.md is missing: 2 topic files are in this memory dir" in finding.message
    assert finding.fix.applicability == "safe"


@pytest.mark.parametrize(
    "files",
    [
        {},  # an empty memory dir: nothing to index, nothing to create
        {"README.md": "Not a topic.\n"},
        {"MEMORY.md": "- [A](a.md)\n", "a.md": topic()},
    ],
    ids=["empty", "readme-only", "with-index"],
)
def test_mem106_quiet(tree, files: dict[str, str]) -> None:
    memory = ".claude/projects/p/memory"
    root = tree({f"{memory}/{name}": text for name, text in files.items()})
    (root / memory).mkdir(parents=True, exist_ok=True)
    assert run_lint(root, select=["MEM106"]) == []


# --- MEM107 index-duplicate-entry ----------------------------------------------------------------


def test_mem107_reports_the_later_line(tree) -> None:
    index = "- [A](a.md) — first\n- [B](b.md) — other\n- [A again](./a.md) — second\n"
    finding = one(lint_memdir(tree, index, {"a.md": topic(), "b.md": topic()}, select=["MEM107"]), "MEM107")
    assert (finding.line, finding.column, finding.end_column) == (3, 3, 20)
    assert "`a.md` is already linked on line 1" in finding.message
    # "second" is text of its own, which dropping the line would lose: no fix drops it.
    assert finding.fix is None


@pytest.mark.parametrize(
    ("later", "applicability"),
    [
        pytest.param("- [A](a.md)", "safe", id="bare"),
        pytest.param("- [A](a.md) — First notes", "safe", id="same-text"),
        pytest.param("- [A](a.md) — notes", "safe", id="text-the-first-line-holds"),
        pytest.param("- [A](a.md) — port changed to 9090 in June", None, id="text-of-its-own"),
        pytest.param("- [Notes on A](a.md) — first notes", None, id="title-of-its-own"),
    ],
)
def test_mem107_drops_a_later_line_safely_only_when_it_adds_nothing(
    tree, later: str, applicability: str | None
) -> None:
    index = f"- [A](a.md) — first notes\n{later}\n"
    finding = one(lint_memdir(tree, index, {"a.md": topic()}, select=["MEM107"]), "MEM107")
    assert (finding.fix.applicability if finding.fix else None) == applicability


def test_mem107_quiet_for_distinct_targets(tree) -> None:
    index = "- [A](a.md)\n- [B](b.md)\n- [A section](#a)\n<!-- - [A](a.md) -->\n"
    assert lint_memdir(tree, index, {"a.md": topic(), "b.md": topic()}, select=["MEM107"]) == []


# --- MEM108 index-not-pointer --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "lines", "says"),
    [
        ("# Index\n\n- [A](a.md) — x\n\nSome paragraph of content.\n", (5, 5), "Line 5 is text"),
        ("- [A](a.md)\n```\nmake deploy\n```\n- [B](b.md)\n", (2, 4), "Lines 2–4 are a code block"),
        ("- [A](a.md)\n  - nested detail\n  - more detail\n", (2, 3), "Lines 2–3 are nested detail"),
        ("- [A](a.md)\n    indented continuation\n", (2, 2), "Line 2 is nested detail"),
        ("- a bullet with no link\n", (1, 1), "Line 1 is text"),
        ("---\ntitle: Memory\n---\n- [A](a.md)\n", (1, 3), "MEMORY.md has frontmatter"),
    ],
    ids=["paragraph", "fenced-code", "nested-bullets", "indented", "bullet-without-link", "frontmatter"],
)
def test_mem108_fires_on_content(tree, index: str, lines: tuple[int, int], says: str) -> None:
    finding = one(lint_memdir(tree, index, {"a.md": topic(), "b.md": topic()}, select=["MEM108"]), "MEM108")
    assert (finding.line, finding.end_line) == lines
    assert says in finding.message


def test_mem108_reports_each_content_block(tree) -> None:
    index = "Intro text.\n- [A](a.md)\nOutro text.\n"
    assert [d.line for d in lint_memdir(tree, index, {"a.md": topic()}, select=["MEM108"])] == [1, 3]


def test_mem108_quiet_on_structure(tree) -> None:
    index = "\n".join(
        [
            "# Memory",
            "",
            "## Project",
            "",
            "- [A](a.md) — what A holds",
            "* [B](b.md) — what B holds",
            "1. [A](a.md) — numbered",
            "",
            "| Topic | Link |",
            "|---|---|",
            "| A | [A](a.md) |",
            "",
            "<!-- template: - [Title](file.md) — description -->",
            "<!--",
            "multi-line note",
            "-->",
            "",
            "***",
            "",
        ]
    )
    assert lint_memdir(tree, index, {"a.md": topic(), "b.md": topic()}, select=["MEM108"]) == []


# --- MEM109 index-description-drift --------------------------------------------------------------

DESCRIPTION = "Deploys go through the staging cluster first"


@pytest.mark.parametrize(
    ("entry", "description", "says"),
    [
        pytest.param(
            "— both appeals rejected (Apr 15, Apr 23)",
            "Both appeals (Apr 14, Apr 23) rejected",
            "the entry says 15 where the description says 14",
            id="changed-value",
        ),
        pytest.param(
            "— 7 applications, 52 outreach",
            "14 applications, 201 outreach actions",
            "the entry says 7 where the description says 14",
            id="changed-count",
        ),
        pytest.param(
            "— adds 4 fields",
            "Adds 5 to 9 fields",
            "the entry says 4 where the description says 5 to 9",
            id="outside-the-range",
        ),
        pytest.param(
            "— deploy with make",
            "Deploys use Bazel; make was removed in March",
            "only the description says it no longer holds",
            id="withdrawn",
        ),
        pytest.param("— 会议纪要模板", "Staging cluster first, always", "they have no word in common", id="subject"),
    ],
)
def test_mem109_entry_says_something_else(tree, entry: str, description: str, says: str) -> None:
    index = f"- [Deploy](deploy.md) {entry}\n"
    finding = one(
        lint_memdir(tree, index, {"deploy.md": topic(description)}, select=["MEM109"], preview=True), "MEM109"
    )
    assert (finding.severity, finding.line, finding.column) == ("info", 1, len("- [Deploy](deploy.md)") + 1)
    assert f"derived from ({says}): " in finding.message
    assert finding.fix is None  # the entry and the description were both written by a person


@pytest.mark.parametrize(
    "entry",
    [
        f"— {DESCRIPTION}",
        "— deploys go through the Staging-Cluster first.",
        "- Deploys  go through the staging   cluster first",
        ": DEPLOYS GO THROUGH THE STAGING CLUSTER FIRST!",
        "— Deploys go through the stag…",
        "— Deploys go through the staging clu...",
        "",
        "— Staging cluster first, then deploys",
        "— Deploys go through the staging cluster first, and a canary on Fridays",
        "— Deploy via staging",
    ],
    ids=[
        "equal",
        "case-punctuation",
        "whitespace",
        "colon-upper",
        "ellipsis",
        "three-dots",
        "no-text",
        "word-order",
        "adds-a-clause",
        "shorter-hook",
    ],
)
def test_mem109_quiet_when_the_entry_says_the_description(tree, entry: str) -> None:
    index = f"- [Deploy](deploy.md) {entry}\n"
    assert lint_memdir(tree, index, {"deploy.md": topic(DESCRIPTION)}, select=["MEM109"], preview=True) == []


@pytest.mark.parametrize(
    ("entry", "description"),
    [
        pytest.param(
            "System adapts to school, never the reverse",
            "System adapts to school, never the other way around",
            id="paraphrase",
        ),
        pytest.param("배포는 스테이징을 먼저 거친다", "배포는 스테이징을 먼저 거침", id="korean-endings"),
        pytest.param("部署先走预发集群", "所有部署都先走预发集群", id="chinese"),
        pytest.param("recurring blocker (~6 times)", "The token has expired 5-6 times", id="number-in-a-range"),
        pytest.param("Codex 9, Gemini 7", "Codex 9/10, Gemini 7/10", id="number-in-a-fraction"),
        pytest.param(
            "Aaron 2026-05-15 — the three parts, captured 2026-05-1…",
            "Aaron 2026-05-15: parts 2026-05-14",
            id="cut-number",
        ),
        pytest.param(
            "OAuth2 via Keycloak", "OAuth2 via Keycloak; the old LDAP bind was removed", id="withdrawal-elsewhere"
        ),
        pytest.param("Deprecated endpoints", "Endpoints to avoid", id="withdrawal-word-as-adjective"),
        pytest.param("Use pnpm, not npm", "pnpm (npm is no longer used)", id="denied-on-the-other-side"),
        pytest.param("limit of 1,000 rows", "a limit of 1000 rows", id="thousands-separator"),
        pytest.param("Python 3.12", "Python 3.12.1 in CI", id="more-parts"),
        pytest.param("session 2026-03-17", "session 2026-03-17/18", id="date-range"),
        pytest.param("5k requests a day", "5000 requests a day", id="k-suffix"),
        pytest.param("Release process", "How releases are cut", id="stems"),
        # A number inside the other side's range or bound says the same (real index lines).
        pytest.param("adds 7 fields", "Phase 2 adds 5 to 9 fields", id="inside-a-range"),
        pytest.param("adds 7 fields", "Phase 2 adds 5–9 fields", id="inside-a-dashed-range"),
        pytest.param(
            "bulk API writes (50+ records) need a canary first",
            "For any bulk write across N>1 records, run a 5-record canary",
            id="two-bounds",
        ),
        pytest.param("retries at least 3 times", "retries 4 times", id="inside-a-bound"),
        # A count of something else: `adds 4` does not count the fields.
        pytest.param("Phase 2 adds 4 validators", "Phase 2 adds 5 to 9 fields", id="another-unit"),
        pytest.param("adds 4", "Phase 2 adds 5 to 9 fields", id="no-unit-against-a-unit"),
        # A date is no count, a number alone in brackets a label.
        pytest.param("launch moved (1)", "launch moved 2026-06-01", id="a-date-is-no-count"),
        pytest.param("release 3 notes", "release 2026-06 notes", id="a-month-is-no-count"),
        # "fixed X" and "no longer X" are one claim.
        pytest.param("printer no longer jams", "fixed jamming in the printer", id="fixed-is-no-longer"),
        pytest.param("the login loop is resolved", "login no longer loops", id="resolved-is-no-longer"),
    ],
)
def test_mem109_quiet_on_paraphrases(tree, entry: str, description: str) -> None:
    index = f"- [Topic](topic.md) — {entry}\n"
    assert lint_memdir(tree, index, {"topic.md": topic(description)}, select=["MEM109"], preview=True) == []


def test_mem109_quiet_on_the_generators_own_cut_line(tree) -> None:
    description = (
        "Sign-in goes through OAuth2 via Keycloak for every service we run; "
        + "x" * 80
        + "; the old LDAP bind was removed in March"
    )
    root = tree({f"{MEM}/auth.md": topic(description), f"{MEM}/MEMORY.md": ""})
    assert run_cli("index", MEM, "--write", cwd=root).returncode == 0
    assert "…" in (root / MEM / "MEMORY.md").read_text(encoding="utf-8")
    assert run_lint(root, select=["MEM109"], preview=True) == []


def test_mem109_quiet_when_the_topic_has_no_description(tree) -> None:
    index = "- [Deploy](deploy.md) — anything at all\n"
    assert (
        lint_memdir(
            tree, index, {"deploy.md": "---\nname: deploy\ntype: project\n---\n"}, select=["MEM109"], preview=True
        )
        == []
    )


# --- pre-commit style runs: explicit file paths --------------------------------------------------


@pytest.fixture
def busy_memdir(tree) -> Path:
    """An index over a 3-line cap with a long line, one linked topic and two orphans (no frontmatter)."""
    index = "- [A](a.md) — What this topic holds " + "x" * 150 + "\n- [B](b.md)\n- [C](c.md)\n- [D](d.md)\n"
    return tree(
        {
            f"{MEM}/MEMORY.md": index,
            f"{MEM}/a.md": topic(name="a"),  # titles of their own: MEM208 compares them
            f"{MEM}/b.md": topic(name="b"),
            f"{MEM}/c.md": topic(name="c"),
            f"{MEM}/d.md": topic(name="d"),
            f"{MEM}/orphan1.md": "no frontmatter\n",
            f"{MEM}/orphan2.md": "no frontmatter\n",
        }
    )


def findings_for(root: Path, *names: str) -> list[tuple[str, str]]:
    found = run_lint(root, paths=[root / MEM / name for name in names], select=["MEM1", "MEM2"], index_max_lines=3)
    return sorted((d.code, Path(d.path).name) for d in found)


def test_topic_passed_alone_gets_its_orphan_finding_and_nothing_of_the_index(busy_memdir: Path) -> None:
    assert findings_for(busy_memdir, "orphan1.md") == [
        ("MEM105", "orphan1.md"),
        ("MEM203", "orphan1.md"),
        ("MEM205", "orphan1.md"),
    ]


def test_linked_topic_passed_alone_is_clean(busy_memdir: Path) -> None:
    assert findings_for(busy_memdir, "a.md") == []


def test_index_passed_alone_reports_index_findings_and_orphans(busy_memdir: Path) -> None:
    assert findings_for(busy_memdir, "MEMORY.md") == [
        ("MEM101", "MEMORY.md"),
        ("MEM103", "MEMORY.md"),
        ("MEM105", "orphan1.md"),  # d.md, linked only on line 4 past the 3-line cap, is MEM101's
        ("MEM105", "orphan2.md"),
    ]


def test_cli_pre_commit_run_on_one_topic(busy_memdir: Path) -> None:
    result = run_cli("check", "--output-format", "json", "--select", "MEM1", f"{MEM}/orphan1.md", cwd=busy_memdir)
    assert result.returncode == 1, result.stderr
    assert [(d["code"], d["path"], d["line"]) for d in json.loads(result.stdout)] == [
        ("MEM105", f"{MEM}/orphan1.md", None)
    ]


# --- suppression comments ------------------------------------------------------------------------

LONG_BROKEN = "- [X](missing.md) — " + "y" * 150  # MEM103 and MEM104 on the same line


def html_comment(body: str) -> str:
    return f"<!-- {body} -->" if body else ""


@pytest.mark.parametrize(
    ("first", "third", "remaining"),
    [
        ("mnemolint-disable-next-line MEM103", "", {("MEM104", 2), ("MEM103", 4), ("MEM104", 4)}),
        ("mnemolint-disable MEM103", "mnemolint-enable MEM103", {("MEM104", 2), ("MEM103", 4), ("MEM104", 4)}),
        ("mnemolint-disable-file MEM103", "", {("MEM104", 2), ("MEM104", 4)}),
        ("mnemolint-disable", "mnemolint-enable", {("MEM103", 4), ("MEM104", 4)}),
        ("mnemolint-disable MEM1", "", set()),
        ("mnemolint-disable MEM103,MEM104", "mnemolint-enable MEM104", {("MEM104", 4)}),
        ("mnemolint-disable-next-line", "", {("MEM103", 4), ("MEM104", 4)}),
    ],
    ids=["next-line", "range", "file", "bare-disable-all", "prefix-to-end", "two-codes", "bare-next-line"],
)
def test_suppression_comments(tree, first: str, third: str, remaining: set) -> None:
    index = "\n".join([html_comment(first), LONG_BROKEN, html_comment(third), LONG_BROKEN]) + "\n"
    found = lint_memdir(tree, index, select=["MEM103", "MEM104", "MEM108"])
    assert {(d.code, d.line) for d in found} == remaining


def test_disable_file_in_a_topic_silences_its_orphan_finding(tree) -> None:
    topics = {"quiet.md": topic() + "<!-- mnemolint-disable-file MEM105 -->\n", "loud.md": topic()}
    found = lint_memdir(tree, "# Index\n", topics, select=["MEM105"])
    assert [Path(d.path).name for d in found] == ["loud.md"]


# --- shapes found by review on real and hostile trees ---------------------------------------------


def test_an_index_starting_with_a_lone_rule_is_not_all_frontmatter(tree) -> None:
    """`---` on line 1 with no closing fence is a thematic break: the entries below still count."""
    root = tree(
        {
            f"{MEM}/MEMORY.md": "---\n- [A](a.md) — a\n- [B](gone.md) — b\n",
            f"{MEM}/a.md": topic(name="a"),  # titles of their own: MEM208 compares them
        }
    )
    found = run_lint(root, select=["MEM104", "MEM105", "MEM108", "FM"])
    assert [(d.code, d.line) for d in found] == [("MEM104", 3)]


def test_a_table_without_links_is_content_but_a_linked_table_is_an_index(tree) -> None:
    index = "| file | what |\n|---|---|\n| [A](a.md) | a |\n\n| tool | version |\n|---|---|\n| node | 20 |\n"
    found = lint_memdir(tree, index, {"a.md": topic()}, select=["MEM108"])
    assert [(d.line, d.end_line) for d in found] == [(5, 7)]


def test_mem107_ignores_a_link_in_prose_before_the_entry(tree) -> None:
    index = "- See [the gate](gate.md) before any release.\n- [Gate](gate.md) — the freshness gate\n"
    found = lint_memdir(tree, index, {"gate.md": topic()}, select=["MEM107"])
    assert found == []


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ("- [X](my file.md) — spaces, no angle brackets", None),
        ("- [Q](a:b.md) — a colon is no URL scheme", None),
        ("See [the docs](../../CLAUDE.md) in prose.", None),
        ("- [Docs](../../CLAUDE.md) — an entry out of the memory dir", "MEM104"),
    ],
    ids=["space-in-name", "colon-in-name", "escape-in-prose", "escape-in-entry"],
)
def test_mem104_on_names_people_write(tree, entry: str, code: str | None) -> None:
    topics = {"my file.md": topic(), "a:b.md": topic()}
    found = lint_memdir(tree, entry + "\n", topics, select=["MEM104", "MEM105"])
    assert [d.code for d in found if d.path.endswith("MEMORY.md")] == ([code] if code else [])


# --- MEM101 names the topics linked only past the cut ------------------------------------------


def test_mem101_counts_the_topics_linked_only_past_the_cut_and_json_lists_them_all(tree) -> None:
    index = "".join(f"- [T{n}](t{n}.md) — t{n}\n" for n in range(8))
    root = tree({f"{MEM}/MEMORY.md": index, **{f"{MEM}/t{n}.md": topic(f"t{n}", f"t{n}") for n in range(8)}})
    (root / "mnemolint.toml").write_text("index-max-lines = 3\n", encoding="utf-8")
    found = json.loads(run_cli("check", "--select", "MEM101,MEM105", "--output-format", "json", cwd=root).stdout)
    [cut] = found  # no MEM105 per topic beside it
    assert cut["code"] == "MEM101"
    assert (
        "5 topics are linked only past the cut, so the agent never discovers them: "
        "`t3.md`, `t4.md`, `t5.md` and 2 more." in cut["message"]
    )
    assert cut["related"] == ["t3.md", "t4.md", "t5.md", "t6.md", "t7.md"]
    sarif = json.loads(run_cli("check", "--select", "MEM101", "--output-format", "sarif", cwd=root).stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["properties"] == {"related": cut["related"]}


def test_mem101_says_nothing_of_topics_when_all_are_linked_before_the_cut(tree) -> None:
    index = "- [T0](t0.md) — t0\n" + "".join(f"- line {n}\n" for n in range(5))
    finding = one(
        lint_memdir(tree, index, {"t0.md": topic("t0", "t0")}, select=["MEM101"], **{"index-max-lines": 3}), "MEM101"
    )
    assert "linked only past the cut" not in finding.message and finding.related == ()


# --- secondary indexes ------------------------------------------------------------------------------

ARCHIVE = (
    "# Entries moved out of MEMORY.md\n\nKept here so the main index stays under its cap.\n\n"
    "- [A](a.md) — about a\n- [Gone](gone.md) — a topic deleted since\n- [A again](a.md) — about a\n"
    f"- [B](b.md) — {'b' * 160}\n"
)


def test_a_secondary_index_is_checked_as_an_index_not_as_a_memory(tree) -> None:
    topics = {"a.md": topic("about a", "a"), "b.md": topic("about b", "b"), "MEMORY-archive.md": ARCHIVE}
    found = lint_memdir(tree, "- [Archive](MEMORY-archive.md) — older entries\n", topics, select=["MEM"])
    on_archive = sorted((f.code, f.line) for f in found if f.path.endswith("MEMORY-archive.md"))
    assert on_archive == [("MEM103", 8), ("MEM104", 6), ("MEM107", 7)]  # no MEM201, MEM203, MEM205
    # Linked from MEMORY.md, the archive is opened and its entries followed: a.md and b.md are found.
    assert not [f for f in found if f.code == "MEM105"]


def test_a_topic_linked_only_from_an_archive_no_index_line_leads_to_is_an_orphan(tree) -> None:
    topics = {"a.md": topic("about a", "a"), "b.md": topic("about b", "b"), "INDEX-old.md": ARCHIVE}
    [finding] = lint_memdir(tree, "# Memory\n", topics, select=["MEM105"])
    assert Path(finding.path).name == "INDEX-old.md" and finding.related == ("a.md", "b.md")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("---\nname: links\ndescription: d\ntype: reference\n---\n" + ARCHIVE, id="has-frontmatter"),
        pytest.param("# Links\n\nSee [A](a.md) and [B](b.md) for what we decided, and why it holds.\n", id="prose"),
        pytest.param("# Notes\n\n- [A](a.md) — a\n- [B](b.md) — b\n", id="two-entries"),
        pytest.param("# Notes\n\n- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n" + "Some words.\n" * 4, id="more-prose"),
    ],
)
def test_a_topic_with_a_few_links_is_still_a_memory(tree, text: str) -> None:
    topics = {"a.md": topic("about a", "a"), "b.md": topic("about b", "b"), "links.md": text}
    found = lint_memdir(
        tree, "- [Links](links.md)\n- [A](a.md) — a\n- [B](b.md) — b\n", topics, select=["MEM1", "MEM2"]
    )
    on_links = {f.code for f in found if f.path.endswith("links.md")}
    assert not on_links & {"MEM103", "MEM104", "MEM107"}
    if not text.startswith("---"):
        assert "MEM203" in on_links  # judged as a memory: it has no description


def test_a_memory_of_web_links_is_a_memory_not_an_index(tree) -> None:
    links = (
        "# Useful links\n\n- [Docs](https://example.com/docs)\n- [Spec](/home/me/spec.pdf)\n- [Old](notes-2024.md)\n"
    )
    found = lint_memdir(tree, "- [Links](links.md)\n", {"links.md": links}, select=["MEM104", "MEM203"])
    assert [(f.code, Path(f.path).name) for f in found] == [("MEM203", "links.md")]


def test_a_file_named_as_an_index_stays_one_with_a_single_entry(tree) -> None:
    topics = {"a.md": topic("about a", "a"), "MEMORY-archive.md": "# Archive\n\n- [A](a.md) — about a\n"}
    found = lint_memdir(tree, "- [Archive](MEMORY-archive.md) — older entries\n", topics, select=["MEM2"])
    assert [f for f in found if f.path.endswith("MEMORY-archive.md")] == []


def test_findings_on_a_secondary_index_are_reported_only_when_it_is_in_focus(tree) -> None:
    topics = {"a.md": topic("about a", "a"), "MEMORY-archive.md": ARCHIVE}
    root = tree(
        {
            f"{MEM}/MEMORY.md": "- [Archive](MEMORY-archive.md) — older entries\n",
            **{f"{MEM}/{k}": v for k, v in topics.items()},
        }
    )
    alone = run_cli("check", "--select", "MEM1", "--output-format", "json", f"{MEM}/MEMORY.md", cwd=root)
    assert [d for d in json.loads(alone.stdout) if d["path"].endswith("MEMORY-archive.md")] == []
    named = run_cli("check", "--select", "MEM1", "--output-format", "json", f"{MEM}/MEMORY-archive.md", cwd=root)
    assert {d["code"] for d in json.loads(named.stdout)} >= {"MEM103", "MEM104", "MEM107"}


def test_mem101_counts_what_an_archive_linked_before_the_cut_still_leads_to(tree) -> None:
    archive = "".join(f"- [T{n}](t{n}.md) — t{n}\n" for n in range(3, 6))
    index = "- [Archive](MEMORY-archive.md) — older\n- [T0](t0.md) — t0\n- [T1](t1.md) — t1\n" + archive
    topics = {f"t{n}.md": topic(f"t{n}", f"t{n}") for n in range(6)} | {"MEMORY-archive.md": archive}
    finding = one(lint_memdir(tree, index, topics, select=["MEM101"], **{"index-max-lines": 3}), "MEM101")
    assert "linked only past the cut" not in finding.message  # t3–t5 are behind the archive on line 1


def test_an_archive_no_line_links_is_the_one_line_to_add(tree) -> None:
    archive = "# Archive\n\n" + "".join(f"- [T{n}](t{n}.md) — t{n}\n" for n in range(3))
    topics = {f"t{n}.md": topic(f"t{n}", f"t{n}") for n in range(3)} | {"MEMORY-archive.md": archive}
    [finding] = lint_memdir(tree, "# Memory\n", topics, select=["MEM105"])
    assert Path(finding.path).name == "MEMORY-archive.md" and finding.fix is not None
    assert "the 3 topics it lists are never discovered either: `t0.md`, `t1.md`, `t2.md`." in finding.message
    assert finding.related == ("t0.md", "t1.md", "t2.md")


def test_mem104_in_a_subfolder_index_names_the_path_it_looked_for(tree) -> None:
    archive = "# Archive\n\n- [A](a.md) — a\n- [B](b.md) — b\n- [gone](gone.md)\n"
    topics = {"archive/a.md": topic("a", "a"), "archive/b.md": topic("b", "b"), "archive/MEMORY-old.md": archive}
    found = lint_memdir(tree, "- [Old](archive/MEMORY-old.md) — old\n", topics, select=["MEM104"])
    [finding] = found
    assert finding.message.startswith("`gone.md` (`archive/gone.md` in the memory dir) does not exist: ")
