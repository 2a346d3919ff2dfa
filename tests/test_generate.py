"""Index generation (seed 000, "自动记忆容量治理" scenarios 8–10; SPEC §2 "generated index").

Golden (syrupy) tests on real memory dirs: every line `- [Title](file.md) — <description>`, at most
150 UTF-16 units, block scalars folded, CJK and emoji counted as the agent's JavaScript counts
them, unlinkable names skipped and reported, the whole index capped at 140 lines / 17,500
characters with the rest listed in one finding, in a deterministic order.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest
from conftest import write_tree

from mnemolint.commands.index import report as index_report
from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.fix import generate
from mnemolint.kinds.memory import MemoryDir
from mnemolint.parse.index_lines import classify
from mnemolint.parse.textutil import js_trim, utf16_len

MEM = ".claude/projects/p/memory"


def topic(name: str | None = None, description: str | None = None, type_: str | None = "project") -> str:
    fields = [f"name: {name}" if name is not None else "", f"description: {description}" if description else ""]
    fields.append(f"type: {type_}" if type_ else "")
    return "---\n" + "".join(field + "\n" for field in fields if field) + "---\n\nBody.\n"


def memdir_of(root: Path, files: dict[str, str | bytes]) -> tuple[MemoryDir, dict]:
    write_tree(root, {f"{MEM}/{rel}": text for rel, text in files.items()})
    (root / MEM).mkdir(parents=True, exist_ok=True)
    settings = load_settings(None, str(root))
    [memdir] = discover([str(root)], settings).containers
    return memdir, settings.options


def generated(root: Path, files: dict[str, str | bytes], **options: int) -> tuple[generate.Index, str, list[str]]:
    """The index generated for a memory dir of `files`: the result, its text, and its report lines."""
    memdir, settings_options = memdir_of(root, files)
    settings_options.update({key.replace("_", "-"): value for key, value in options.items()})
    index = generate.generate(memdir, settings_options)
    report = [
        f"{os.path.relpath(d.path, root)}: {d.code} {d.message}" for d in index_report(index, memdir, settings_options)
    ]
    return index, index.text(), report


def assert_valid(memdir_root: Path, text: str, limit: int = 150) -> None:
    """Every line is one entry, at most `limit` UTF-16 units, linking a topic file that exists."""
    for line in classify(text.split("\n")[:-1], 0):
        assert line.entry and len(line.links) == 1, line.text
        assert utf16_len(line.text) <= limit, line.text


@pytest.mark.parametrize(
    "scalar",
    [
        pytest.param(">\n  Folded over\n  two lines\n", id="folded"),
        pytest.param(">-\n  Folded, strip\n  chomping\n", id="folded-strip"),
        pytest.param("|\n  Literal block\n  keeps lines\n", id="literal"),
        pytest.param("|-\n  Literal, strip\n\n  with a blank line\n", id="literal-strip"),
        pytest.param("Plain scalar\n  continued on a second line\n", id="plain-multi-line"),
        pytest.param('"  Quoted   with\\tspaces  "\n', id="quoted-spaces"),
    ],
)
def test_block_scalar_descriptions_are_folded_and_collapsed(tmp_path: Path, scalar: str, snapshot) -> None:
    files = {"build.md": f"---\nname: Build\ndescription: {scalar}type: project\n---\nBody.\n"}
    _, text, report = generated(tmp_path, files)
    assert report == []
    assert text == snapshot


def test_cjk_and_emoji_are_counted_in_utf16_units(tmp_path: Path, snapshot) -> None:
    files = {
        "容量.md": topic("容量治理", "索引超过 200 行或 25000 字符时按行再按字符截断，并点名丢失范围。" * 4),
        "emoji.md": topic("Emoji 🚀", "Ship it 🚀🚀 " * 20),
        "edge.md": topic("E", "x" * 131 + "🚀🚀🚀🚀🚀🚀🚀🚀"),  # the cut falls inside the first 🚀
    }
    index, text, report = generated(tmp_path, files)
    assert report == []
    assert_valid(tmp_path, text)
    for line in index.lines:
        assert utf16_len(line) <= 150
        assert "\ud83d" not in line and "\ude80" not in line  # no half of a surrogate pair
    # The emoji line is cut by UTF-16 units: fewer code points than 150.
    emoji_line = next(line for line in index.lines if "Emoji" in line)
    assert utf16_len(emoji_line) in (149, 150) and len(emoji_line) < 140
    edge_line = next(line for line in index.lines if "edge.md" in line)
    assert edge_line.endswith("x…") and utf16_len(edge_line) == 149  # the 🚀 that would pass 150 is out whole
    assert text == snapshot


def test_long_descriptions_are_cut_to_150_with_an_ellipsis(tmp_path: Path, snapshot) -> None:
    files = {
        "exact.md": topic("Exact", "y" * (150 - len("- [Exact](exact.md) — "))),
        "over.md": topic("Over", "z" * 151),
        "words.md": topic("Words", "word " * 60),
        "no-room.md": topic("T" * 130, "the description has no room left"),
        "huge-title.md": topic("H" * 300, "short"),
        "no-description.md": topic("Just a link"),
    }
    index, text, report = generated(tmp_path, files)
    assert report == []
    lines = {line.split("](")[1].split(")")[0]: line for line in index.lines}
    assert utf16_len(lines["exact.md"]) == 150 and not lines["exact.md"].endswith("…")
    assert utf16_len(lines["over.md"]) == 150 and lines["over.md"].endswith("z…")
    assert lines["words.md"].endswith("…") and not lines["words.md"].endswith(" …")  # cut, spaces dropped
    assert lines["no-room.md"] == f"- [{'T' * 130}](no-room.md)"  # 146 units: no room for " — x…"
    # a title too long for the line is cut to fit, leaving the description no room
    assert lines["huge-title.md"].endswith("H…](huge-title.md)") and utf16_len(lines["huge-title.md"]) == 150
    assert lines["no-description.md"] == "- [Just a link](no-description.md)"
    assert_valid(tmp_path, text)
    assert text == snapshot


def test_title_is_name_else_stem_and_links_read_back(tmp_path: Path, snapshot) -> None:
    files = {
        "sub/dir/stem only.md": topic(None, "'no name: the file stem is the title'"),
        "brackets.md": topic("'[WIP] deploy (draft)'", "brackets in a title become parentheses"),
        "ticks.md": topic("'The `make` targets'", "run `make build` first"),
        "links-in-description.md": topic("Links", "'see [the docs](https://example.com) and <!-- this'"),
        "100%#?:weird.md": topic("Weird", "percent, hash, question mark and colon in the name"),
        "~tilde.md": topic("Tilde", "a leading tilde is no home directory"),
        "back`tick.md": topic("Tick", "a backtick in the name"),
        "empty-name.md": topic("''", "an empty name falls back to the stem"),
    }
    memdir, options = memdir_of(tmp_path, files)
    index = generate.generate(memdir, options)
    assert index.skipped == [] and index.left_out == []
    for line in classify(index.lines, 0):  # each resolves to its own topic through the linter's reader
        resolved = memdir.resolve(line.links[0].target)
        assert resolved is not None and resolved.problem is None and resolved.rel in memdir.topic_by_rel
    assert sorted(memdir.resolve(line.links[0].target).rel for line in classify(index.lines, 0)) == sorted(files)
    assert index.text() == snapshot


def test_unindexable_names_are_skipped_and_each_reported(tmp_path: Path, snapshot) -> None:
    nfd = unicodedata.normalize("NFD", "café.md")
    files = {
        "ok.md": topic("OK", "kept"),
        "a[1].md": topic("A", "brackets"),
        "b(2).md": topic("B", "parentheses"),
        "line\nbreak.md": topic("C", "newline"),
        nfd: topic("D", "not NFC"),
        "back\\slash.md": topic("E", "backslash"),
    }
    index, text, report = generated(tmp_path, files)
    assert text == "- [OK](ok.md) — kept\n"
    assert len(report) == 5 and all(" MEM207 Index generation skips this topic: " in line for line in report)
    assert report == snapshot


def test_order_is_by_type_then_path(tmp_path: Path) -> None:
    files = {
        "a-untyped.md": topic("A", "untyped", None),
        "b-reference.md": topic("B", "reference", "reference"),
        "c-project.md": topic("C", "project", "project"),
        "d-feedback.md": topic("D", "feedback", "feedback"),
        "e-user.md": topic("E", "user", "user"),
        "f-user.md": topic("F", "user too", "user"),
        "g-odd.md": topic("G", "not a type", "User"),  # types are matched exactly, as Wave does
    }
    _, text, _ = generated(tmp_path, files)
    assert [line.split("](")[1].split(")")[0] for line in text.splitlines()] == [
        "e-user.md",
        "f-user.md",
        "d-feedback.md",
        "c-project.md",
        "b-reference.md",
        "a-untyped.md",
        "g-odd.md",
    ]


def test_same_input_gives_byte_identical_output(tmp_path: Path) -> None:
    files = {f"t{number:03d}.md": topic(f"T{number}", f"description {number} 🚀") for number in range(50)}
    _, first, _ = generated(tmp_path / "one", files)
    _, second, _ = generated(tmp_path / "two", dict(reversed(files.items())))
    assert first.encode() == second.encode()


def test_140_line_cap_and_the_left_out_topics_in_one_finding(tmp_path: Path, snapshot) -> None:
    files = {f"t{number:03d}.md": topic(f"T{number}", "short") for number in range(145)}
    files["user.md"] = topic("U", "a user memory sorts first", "user")
    index, text, report = generated(tmp_path, files)
    assert len(index.lines) == 140 and index.lines[0].startswith("- [U](user.md)")
    assert [topic.rel for topic in index.left_out] == [f"t{number:03d}.md" for number in range(139, 145)]
    assert len(report) == 1
    assert report == snapshot


def test_17500_character_cap_counts_the_trimmed_text(tmp_path: Path, snapshot) -> None:
    files = {f"t{number:03d}.md": topic(f"T{number}", "d" * 200) for number in range(130)}
    files["tiny.md"] = topic("Tiny", "fits where a long line does not", None)
    index, text, report = generated(tmp_path, files)
    chars = utf16_len(js_trim(text))
    assert chars <= 17_500 and len(index.lines) < 140
    assert all(utf16_len(line) == 150 for line in index.lines[:-1])
    # 115 long lines fit (a 116th would make 116 × 150 + 115 newlines = 17,515); the short one still does
    assert len(index.lines) == 116 and index.lines[-1].startswith("- [Tiny](tiny.md)")
    assert [topic.rel for topic in index.left_out] == [f"t{number:03d}.md" for number in range(115, 130)]
    assert {"chars": chars, "lines": len(index.lines), "report": report} == snapshot


def test_caps_follow_the_configured_targets(tmp_path: Path) -> None:
    files = {f"t{number}.md": topic(f"T{number}", "short") for number in range(5)}
    index, _, report = generated(tmp_path, files, index_target_lines=3)
    assert len(index.lines) == 3 and len(index.left_out) == 2
    assert "for want of room in the index's budget of 3 lines / 17,500 characters: 2 topics, `t3.md`" in report[0]


def test_no_topic_files_generate_nothing(tmp_path: Path) -> None:
    index, text, report = generated(tmp_path, {})
    assert (index.lines, text, report) == ([], "", [])
