"""The fast path past ruamel (parse/fast_yaml.py) gives exactly the facts ruamel gives.

`split_and_parse` reads a flat block with `fast_yaml.read_flat`; `_parse` without the lines goes
to ruamel as before. Every fact a rule reads (status, the mapping with its key order and value
types, FM004's ambiguous scalars, the error and its position) must be the same for any input,
so hypothesis feeds both the lines a memory file holds and lines built to break the fast path.
`python tests/test_fast_yaml.py DIR…` runs the same comparison over every frontmatter block below
DIR (the corpus) and prints how many blocks the fast path took and declined.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from mnemolint.parse import frontmatter
from mnemolint.parse.fast_yaml import read_flat

EXAMPLE_REPO = Path(__file__).resolve().parent.parent / "docs" / "example-repo"
DEPTH = 16


def facts(result: frontmatter.FrontMatter) -> tuple:
    data = None if result.data is None else [(key, type(key), value, type(value)) for key, value in result.data.items()]
    ambiguous = [(item.value, item.kind, item.line, item.column) for item in result.ambiguous]
    return result.status, data, ambiguous, result.error, result.error_line, result.error_column


def compare(lines: list[str], depth: int = DEPTH) -> bool | None:
    """Both readings of the block between `lines`' fences are asserted equal; whether the fast
    path took it (None: no closed block)."""
    fast = frontmatter.split_and_parse(lines, depth)
    if fast.status == frontmatter.NONE or fast.status == frontmatter.UNCLOSED:
        return None
    slow = frontmatter.FrontMatter()
    slow.fence_line, slow.close_line, slow.yaml_lines = 1, fast.close_line, fast.yaml_lines
    frontmatter._parse(slow, "\n".join(fast.yaml_lines), depth)
    assert facts(fast) == facts(slow), fast.yaml_lines
    return frontmatter.fast_path(fast.yaml_lines, depth) is not None and bool(fast.data)


def block(yaml_lines: list[str]) -> list[str]:
    return ["---", *yaml_lines, "---", "", "body"]


KEYS = st.one_of(
    st.sampled_from(["name", "description", "type", "a.b", "_x", "k-1", "true", "True", "null", "NULL", "y", "no"]),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,6}", fullmatch=True),
    st.text(alphabet="aZ_-.:# 1?", min_size=1, max_size=5),
)
# Words with a meaning of their own to some YAML reader, and the characters that end or start
# a plain scalar, a comment, a collection or another token.
WORDS = st.sampled_from(
    [
        "no", "yes", "on", "Off", "y", "N", "true", "False", "TRUE", "null", "Null", "~", "010", "0o17", "0x1F",
        "1e3", "1_000", ".inf", "-.inf", ".NaN", "12:30", "2024-01-01", "2024-01-01 10:00:00", "<<", "=", "!",
        "&a", "*a", "|", ">", "-", "?", ":", "#", "'", '"', "%", "@", "`", "[a, b]", "{a: b}", "a: b", "a #b",
        "a#b", "http://x.y/z", "x:", "a\tb", "é", "\xa0", "\u2028", "\x85", "\ufeff", "\u3000", "\U0001f600",
        "\x7f", "\x1b", "\r", "a,b", "1937bff2-017c", "1.2.3", "0.5", "1_2", "12e3", "1e", "2024-1-1",
        "2024-01-01T10:00:00Z", "0b12", "0x1G", "v1.0", ".claude/", "._x", "1:2", "..", "3.", "0o8", "0b", "_",
        "Topic", "What was learned", "(see)", "/path", "$HOME", "_x", "日本語",
    ]
)  # fmt: skip
VALUES = st.one_of(
    st.lists(st.one_of(WORDS, st.text(max_size=4)), min_size=0, max_size=4).map(" ".join),
    st.lists(WORDS, min_size=1, max_size=3).map("".join),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n"), max_size=12),
)
LINES = st.one_of(
    st.tuples(
        KEYS, st.sampled_from([": ", ":  ", ":", " : ", ":\t"]), VALUES, st.sampled_from(["", " ", "  ", "\t"])
    ).map("".join),
    st.sampled_from(["", " ", "# comment", "  - item", "- a", "  continued", "...", "---x", "%YAML 1.2"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n"), max_size=10),
)


@given(st.lists(LINES, min_size=1, max_size=6), st.sampled_from([DEPTH, DEPTH, 2, 1, 0]))
def test_fast_path_gives_what_ruamel_gives(yaml_lines: list[str], depth: int) -> None:
    """Any lines, at any `yaml-max-depth` (0 refuses a mapping that holds `&`, `*`, `[` or `{`)."""
    compare(block(yaml_lines), depth)


FLAT_VALUES = st.from_regex(r"[A-Za-zé日/(][A-Za-z0-9 ,.;()'\"/!?&*@%`\[\]{}|>=+~-]{0,30}", fullmatch=True)


@given(
    st.lists(st.tuples(st.from_regex(r"[a-z_][a-z0-9_.-]{0,8}", fullmatch=True), FLAT_VALUES), min_size=1, max_size=5)
)
def test_flat_blocks_read_the_same(pairs: list[tuple[str, str]]) -> None:
    """Blocks shaped like memory frontmatter, with every character a plain scalar may hold: the
    blocks the fast path takes, not only the ones it declines."""
    compare(block([f"{key}: {value}" for key, value in pairs]))


def test_depth_zero_is_left_to_ruamel() -> None:
    assert compare(block(["description: build & test"]), 0) is False


def test_typical_topic_takes_the_fast_path() -> None:
    lines = block(["name: build-notes", "description: How the build runs, and what to skip", "type: project"])
    assert compare(lines) is True
    assert frontmatter.split_and_parse(lines, DEPTH).data == {
        "name": "build-notes",
        "description": "How the build runs, and what to skip",
        "type": "project",
    }


def test_what_the_fast_path_declines() -> None:
    declined = [
        "description: 'quoted'",
        "description: a: b",
        "description: a # comment",
        "done: true",
        "when: 2024-01-01",
        "count: 010",
        "flag: no",
        "empty:",
        "tags: [a, b]",
        "text: |",
        "name: a\tb",
        "name: x\u2028y",
        "name: x",  # with the duplicate below
    ]
    for line in declined[:-1]:
        assert frontmatter.fast_path([line], DEPTH) is None, line
        assert compare(block([line])) is not True, line
    assert read_flat(["name: x", "name: y"]) is None


def test_example_repo_blocks_read_the_same() -> None:
    counts = count([str(EXAMPLE_REPO)])
    assert counts[True] > 100 and counts[False] > 0, counts


def count(directories: list[str]) -> dict[bool | None, int]:
    """Compare both readings on every `.md` file below `directories`: blocks the fast path took
    (True), left to ruamel (False), files without a closed block (None)."""
    counts: dict[bool | None, int] = {True: 0, False: 0, None: 0}
    for directory in directories:
        for folder, _, names in os.walk(directory):
            for name in names:
                path = os.path.join(folder, name)
                if name.endswith(".md") and os.path.isfile(path):
                    with open(path, "rb") as handle:
                        text = handle.read().decode("utf-8", "replace")
                    counts[compare(text.split("\n"))] += 1
    return counts


if __name__ == "__main__":
    found = count(sys.argv[1:])
    print(f"frontmatter blocks: {found[True]} fast path, {found[False]} to ruamel, 0 mismatches")
    print(f"files without a closed block: {found[None]}")
