"""MEM2xx: topic files, linted from real memory dirs in tmp_path.

Numbers from seed 000 ("自动记忆容量治理" scenarios 11–12, prompt 1, 9) via SPEC §2–§3: a topic
file holds 4,096 UTF-8 bytes / 200 lines of its trimmed text (frontmatter included), warns from
80 %, and carries `name`, `description` (≤ 300 characters) and `type` ∈ {user, feedback,
project, reference}.
"""

from __future__ import annotations

import pytest
from conftest import only, run_lint

MEM = "memory"
FRONT = "---\nname: deploy\ndescription: How deploys work\ntype: project\n---\n"


def frontmatter(**fields: str) -> str:
    """`---` YAML `---`; each value is written as given, so block scalars can be passed whole."""
    return "---\n" + "".join(f"{key}: {value}\n" for key, value in fields.items()) + "---\n"


def lint_topic(tree, text: str, *, select: list[str], name: str = "topic.md", memdir: str = MEM):
    """Write one topic file (linked from its memory dir's index) and lint the tree."""
    root = tree({f"{memdir}/MEMORY.md": f"- [Topic](<{name}>)\n", f"{memdir}/{name}": text})
    found = run_lint(root, select=select)
    assert all(d.path.endswith(name) for d in found), found
    return found


def one(found: list, code: str):
    matching = only(found, code)
    assert len(matching) == 1, f"expected one {code}, got {found}"
    return matching[0]


def sized(total_bytes: int, head: str = FRONT, width: int = 49) -> str:
    """A topic of exactly `total_bytes` UTF-8 bytes: `head` then ASCII lines of `width`."""
    body_bytes = total_bytes - len(head.encode())
    body = "".join("\n" if i % (width + 1) == width else "x" for i in range(body_bytes))
    assert not body.endswith("\n"), "pick a size that does not end on a newline"
    return head + body


def lines_of(count: int) -> str:
    return FRONT + "\n".join(f"line {n}" for n in range(1, count - FRONT.count("\n") + 1))


# --- MEM201 topic-over-limit / MEM202 topic-near-limit -------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "shown"),
    [
        (sized(3276), [], None),
        (sized(3277), ["MEM202"], "80% of its cap (3,277 of 4,096 bytes"),
        (sized(4096), ["MEM202"], "100% of its cap (4,096 of 4,096 bytes"),
        (sized(4096) + "\n\n  \n\t\n", ["MEM202"], "(4,096 of 4,096 bytes"),  # trailing blanks are trimmed
        ("\n\n" + sized(4096), ["MEM202"], "(4,096 of 4,096 bytes"),
        (sized(4097), ["MEM201"], "over its cap (4,097 of 4,096 bytes"),
        ("记" * 1366, ["MEM201"], "(4,098 of 4,096 bytes, 1 of 200 lines)"),  # 1,366 chars, 3 bytes each
        ("x" * 1366, [], None),
        (lines_of(159), [], None),
        (lines_of(160), ["MEM202"], "160 of 200 lines"),
        (lines_of(200) + "\n", ["MEM202"], "200 of 200 lines"),
        (lines_of(201), ["MEM201"], "201 of 200 lines"),
    ],
    ids=[
        "3276-bytes",
        "3277-bytes",
        "4096-bytes",
        "4096-bytes-trailing-blanks",
        "4096-bytes-leading-blanks",
        "4097-bytes",
        "cjk-bytes-not-chars",
        "ascii-1366",
        "159-lines",
        "160-lines",
        "200-lines",
        "201-lines",
    ],
)
def test_topic_size_caps(tree, text: str, expected: list[str], shown: str | None) -> None:
    found = lint_topic(tree, text, select=["MEM201", "MEM202"])
    assert [d.code for d in found] == expected
    if shown:
        assert shown in found[0].message
        assert found[0].line is None


def test_mem201_counts_the_frontmatter(tree) -> None:
    head = frontmatter(name="deploy", description="d" * 200, type="project")
    text = sized(4100, head=head)
    assert len(text[len(head) :].encode()) < 4096  # the body alone fits
    finding = one(lint_topic(tree, text, select=["MEM201"]), "MEM201")
    assert finding.severity == "error"
    assert "Rewrite it now" in finding.message
    assert "One file, one thing" in finding.message


def test_mem202_message_gives_the_seed_advice(tree) -> None:
    finding = one(lint_topic(tree, sized(3500), select=["MEM202"]), "MEM202")
    assert finding.severity == "warning"
    assert "summarise instead of appending, and split different things into their own files" in finding.message


# --- MEM203 topic-missing-description ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("# Deploy\n\nNo frontmatter at all.\n", None, "file has no frontmatter"),
        (frontmatter(name="deploy", type="project") + "Body.\n", 1, "frontmatter has no `description`"),
        (frontmatter(name="deploy", description='""', type="project"), 1, "frontmatter has no `description`"),
        (frontmatter(name="deploy", description="'   '", type="project"), 1, "frontmatter has no `description`"),
    ],
    ids=["no-frontmatter", "no-key", "empty", "blank"],
)
def test_mem203_fires(tree, text: str, line: int | None, says: str) -> None:
    finding = one(lint_topic(tree, text, select=["MEM203"]), "MEM203")
    assert (finding.severity, finding.line) == ("warning", line)
    assert says in finding.message
    assert "Add `description: <one-line summary>`" in finding.message


@pytest.mark.parametrize(
    "text",
    [
        FRONT + "Body.\n",
        frontmatter(name="deploy", description=">-\n  Folded\n  description", type="project"),
        "---\nname: [unclosed\ndescription: x\n---\n",  # broken YAML is FM001's finding, not this one
    ],
    ids=["plain", "folded", "invalid-yaml"],
)
def test_mem203_quiet(tree, text: str) -> None:
    assert lint_topic(tree, text, select=["MEM203"]) == []


# --- MEM204 topic-description-too-long -----------------------------------------------------------


def folded(lines: int, width: int) -> str:
    """A `>-` block scalar of `lines` indented lines of `width` letters: folds to lines × width + lines − 1."""
    return ">-\n" + "\n".join("  " + chr(ord("a") + n % 26) * width for n in range(lines))


def test_mem204_folded_description_is_measured_as_its_folded_value(tree) -> None:
    text = frontmatter(name="deploy", description=folded(4, 80), type="project")  # 323 characters folded
    finding = one(lint_topic(tree, text, select=["MEM204"]), "MEM204")
    assert (finding.severity, finding.line) == ("warning", 3)
    assert "Description is 323 characters (limit: 300)" in finding.message
    assert "compress it to about 150" in finding.message


@pytest.mark.parametrize(
    "description",
    [
        "d" * 300,
        folded(10, 29),  # 299 folded; the raw block with its indentation would be 330
        "'" + "😀" * 150 + "'",  # 300 UTF-16 units
    ],
    ids=["300-plain", "299-folded", "300-units-emoji"],
)
def test_mem204_quiet_up_to_300(tree, description: str) -> None:
    text = frontmatter(name="deploy", description=description, type="project")
    assert lint_topic(tree, text, select=["MEM204"]) == []


def test_mem204_plain_description_over_300(tree) -> None:
    finding = one(lint_topic(tree, frontmatter(description="d" * 301), select=["MEM204"]), "MEM204")
    assert finding.line == 2
    assert "Description is 301 characters" in finding.message


# --- MEM205 topic-missing-field ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("Just a body.\n", None, "lacks `name` and `type`"),
        (frontmatter(description="d") + "Body.\n", 1, "lacks `name` and `type`"),
        (frontmatter(description="d", type="project"), 1, "lacks `name`:"),
        (frontmatter(name="deploy", description="d"), 1, "lacks `type`:"),
        (frontmatter(name='""', description="d", type="project"), 1, "lacks `name`:"),
    ],
    ids=["no-frontmatter", "neither", "no-name", "no-type", "empty-name"],
)
def test_mem205_fires_on_missing_fields(tree, text: str, line: int | None, says: str) -> None:
    finding = one(lint_topic(tree, text, select=["MEM205"]), "MEM205")
    assert (finding.severity, finding.line) == ("warning", line)
    assert says in finding.message


NESTED_TYPE = frontmatter(name="deploy", description="d", metadata="\n  type: project")


@pytest.mark.parametrize(
    "memdir",
    [MEM, ".claude/projects/p/memory"],
    ids=["plain-dir", "claude-dir"],
)
def test_mem205_quiet_with_all_fields_or_claude_style_metadata(tree, memdir: str) -> None:
    assert lint_topic(tree, FRONT, select=["MEM205"], memdir=memdir) == []
    assert lint_topic(tree, NESTED_TYPE, select=["MEM205"], memdir=memdir) == []


@pytest.mark.parametrize("memdir", [".wave/projects/p/memory", "home/.wave/projects/x/memory"])
def test_mem205_type_under_metadata_is_not_read_by_wave(tree, memdir: str) -> None:
    finding = one(lint_topic(tree, NESTED_TYPE, select=["MEM205"], memdir=memdir), "MEM205")
    assert finding.line == 4  # the `metadata:` key
    assert "`type` is nested under `metadata:`, which Wave's reader does not look into" in finding.message


# --- MEM206 topic-invalid-type -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("front", "line", "shown"),
    [
        (frontmatter(name="n", description="d", type="decision"), 4, "`type: decision`"),
        (frontmatter(name="n", type="notes", description="d"), 3, "`type: notes`"),
        (frontmatter(name="n", description="d", metadata="\n  type: decision"), 4, "`type: decision`"),
        (frontmatter(name="n", description="d", type="[user, project]"), 4, "`type: list`"),
    ],
    ids=["decision", "notes", "under-metadata", "list"],
)
def test_mem206_fires_on_the_type_line(tree, front: str, line: int, shown: str) -> None:
    finding = one(lint_topic(tree, front, select=["MEM206"]), "MEM206")
    assert (finding.severity, finding.line) == ("warning", line)
    assert f"{shown} is not a memory type" in finding.message
    assert "user, feedback, project or reference" in finding.message


@pytest.mark.parametrize("type_", ["user", "feedback", "project", "reference", '""'])
def test_mem206_quiet_for_the_four_types_and_a_missing_type(tree, type_: str) -> None:
    assert lint_topic(tree, frontmatter(name="n", description="d", type=type_), select=["MEM206"]) == []


def test_mem206_quiet_without_type(tree) -> None:
    assert lint_topic(tree, frontmatter(name="n", description="d"), select=["MEM206"]) == []


# --- MEM207 topic-unindexable-name ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("a(b).md", "its name contains `(`, `)`"),
        ("[draft] notes.md", "its name contains `[`, `]`"),
        ("cafe\u0301.md", "its name is not in Unicode normal form (NFC)"),
    ],
    ids=["parentheses", "brackets", "nfd"],
)
def test_mem207_fires_on_unindexable_names(tree, name: str, says: str) -> None:
    finding = one(lint_topic(tree, FRONT, select=["MEM207"], name=name), "MEM207")
    assert (finding.severity, finding.line) == ("warning", None)
    assert finding.path.endswith(name)
    assert f"Index generation skips this topic: {says}" in finding.message


@pytest.mark.parametrize("name", ["deploy-notes.md", "café.md", "记忆 笔记.md", "sub/dir/topic.md"])
def test_mem207_quiet_for_normal_names(tree, name: str) -> None:
    assert lint_topic(tree, FRONT, select=["MEM207"], name=name) == []


def test_mem203_names_a_list_valued_description(tree) -> None:
    root = tree(
        {
            "memory/MEMORY.md": "- [T](t.md)\n",
            "memory/t.md": "---\nname: t\ndescription:\n  - a\n  - b\ntype: user\n---\n",
        }
    )
    [finding] = run_lint(root, select=["MEM203"])
    assert "`description` is a list, not one line of text" in finding.message
