"""FM001–FM005: frontmatter read strictly, as the agents' YAML 1.2 loaders read it.

Findings point at lines and columns of the file, not of the YAML block; refused YAML (alias
bombs, absurd nesting) is refused before it expands.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from conftest import codes, only, run_lint, write_tree

from mnemolint.kinds.memory import TOPIC
from mnemolint.options import defaults
from mnemolint.parse import frontmatter as frontmatter_module
from mnemolint.parse.document import Document
from mnemolint.parse.frontmatter import split_and_parse

TOPIC_PATH = "memory/topic.md"


def lint_topic(tree, text: str, select: str = "FM", **options: object):
    """Lint one topic file (next to an index that links it) with the FM rules only."""
    root = tree({"memory/MEMORY.md": "- [Topic](topic.md) — a topic\n", TOPIC_PATH: text})
    return run_lint(root, select=[select], **options)


def parsed(tmp_path: Path, text: str | bytes):
    """The frontmatter of a file holding `text`, read through `Document` as every rule reads it."""
    path = tmp_path / "topic.md"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return Document(str(path), TOPIC, defaults()).frontmatter


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """Billion laughs: each level holds `width` aliases of the level before."""
    lines = ["l0: &l0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "---\n" + "\n".join(lines) + "\n---\nbody\n"


CLEAN = "---\nname: topic\ndescription: A topic\ntype: user\n---\nbody\n"


def test_clean_frontmatter_has_no_fm_findings(tree) -> None:
    assert lint_topic(tree, CLEAN) == []


# FM001 invalid-yaml -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "severity"),
    [
        pytest.param(  # Claude Code takes the last of a key given twice (oracle cl32a)
            "---\nname: a\ndescription: b\nname: c\n---\n", 4, 1, "warning", id="duplicate-key-on-3rd-yaml-line"
        ),
        # Claude Code's second try quotes `a: b` and reads the block: a warning, not an error
        pytest.param(
            "---\nname: a\ndescription: b\ntitle: a: b\n---\n", 4, 9, "warning", id="mapping-value-on-3rd-yaml-line"
        ),
        pytest.param("---\nname: a\n  description: b\n---\n", 3, 14, "error", id="bad-indentation"),
        pytest.param("---\r\nname: a\r\ntitle: a: b\r\n---\r\n", 3, 9, "warning", id="crlf"),  # the scan drops CRs
        pytest.param("\ufeff---\nname: a\ntitle: a: b\n---\n", 3, 9, "warning", id="after-bom"),
        pytest.param('---\nname: a\ndescription: "never closed\n---\n', 3, 27, "error", id="unterminated-quote"),
    ],
)
def test_fm001_points_at_the_line_and_column_of_the_file(
    tree, text: str, line: int, column: int, severity: str
) -> None:
    [finding] = only(lint_topic(tree, text), "FM001")
    assert (finding.line, finding.column) == (line, column)
    assert finding.severity == severity


def test_an_alias_with_no_anchor_is_read_by_the_second_try(tree) -> None:
    """Bun's parser fails on an unresolved alias, so Claude Code quotes it and reads `*undefined`."""
    [finding] = lint_topic(tree, "---\ntype: *undefined\n---\n")
    assert (finding.code, finding.severity) == ("FM001", "warning") and "second try" in finding.message


def test_fm001_names_the_duplicate_key(tree) -> None:
    [finding] = lint_topic(tree, "---\nname: a\ndescription: b\nname: c\n---\n")
    assert finding.code == "FM001"
    assert 'duplicate key "name"' in finding.message


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(CLEAN, id="flat"),
        pytest.param("---\nmetadata:\n  type: user\n---\n", id="nested-mapping"),
        pytest.param("no frontmatter\n\n---\n\nname: [\n", id="dashes-later-in-body"),
        pytest.param("---\n---\nbody\n", id="empty"),
    ],
)
def test_fm001_quiet_on_valid_yaml(tree, text: str) -> None:
    assert only(lint_topic(tree, text), "FM001") == []


# YAML 1.2 values ---------------------------------------------------------------------------------


def test_yaml_12_keeps_no_on_yes_as_strings(tmp_path: Path) -> None:
    front = parsed(tmp_path, "---\na: no\nb: on\nc: yes\nd: off\ne: true\nf: false\n---\n")
    assert front.data == {"a": "no", "b": "on", "c": "yes", "d": "off", "e": True, "f": False}


@pytest.mark.parametrize(
    ("yaml", "value"),
    [
        pytest.param("description: >\n  one\n  two\n", "one two\n", id="folded"),
        pytest.param("description: >-\n  one\n  two\n", "one two", id="folded-strip"),
        pytest.param("description: |\n  one\n  two\n", "one\ntwo\n", id="literal"),
        pytest.param("description: |-\n  one\n  two\n", "one\ntwo", id="literal-strip"),
        pytest.param("description: one\n  two\n  three\n", "one two three", id="plain-multi-line"),
        pytest.param("description:\n  - src/**\n  - lib/*.ts\n", ["src/**", "lib/*.ts"], id="block-list"),
    ],
)
def test_multi_line_values_yield_their_real_value(tmp_path: Path, yaml: str, value: object) -> None:
    front = parsed(tmp_path, f"---\nname: topic\n{yaml}type: user\n---\nbody\n")
    assert front.data == {"name": "topic", "description": value, "type": "user"}


def test_block_scalar_description_reaches_the_rules(tree) -> None:
    """A folded description is a description: no MEM203, and no `>-` leaks into a message."""
    text = "---\nname: topic\ndescription: >-\n  first half\n  second half\ntype: user\n---\nbody\n"
    found = lint_topic(tree, text, select="MEM")
    assert "MEM203" not in codes(found)
    assert not any(">-" in finding.message for finding in found)


# FM002 not-a-mapping -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yaml", "kind"),
    [
        pytest.param("- name\n- description\n", "a list", id="list"),
        pytest.param("just some words\n", "a plain string", id="scalar"),
        pytest.param("42\n", "a number", id="number"),
    ],
)
def test_fm002_fires_on_a_frontmatter_that_is_not_a_mapping(tree, yaml: str, kind: str) -> None:
    [finding] = lint_topic(tree, f"---\n{yaml}---\nbody\n")
    assert finding.code == "FM002"
    assert kind in finding.message
    assert finding.line == 2


@pytest.mark.parametrize("yaml", ["", "# only a comment\n", "\n\n"], ids=["empty", "comment", "blank"])
def test_empty_frontmatter_is_an_empty_mapping(tree, tmp_path: Path, yaml: str) -> None:
    text = f"---\n{yaml}---\nbody\n"
    assert parsed(tmp_path, text).data == {}
    assert lint_topic(tree, text) == []


# FM003 unclosed-frontmatter ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("---\nname: a\ndescription: b\n\nThe body, never fenced off.\n", id="no-closing-fence"),
        pytest.param("---\n", id="fence-only"),
        pytest.param("---\r\nname: a\r\n", id="crlf"),
    ],
)
def test_fm003_fires_on_an_unclosed_fence(tree, text: str) -> None:
    [finding] = lint_topic(tree, text)
    assert (finding.code, finding.line, finding.column) == ("FM003", 1, 1)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(CLEAN, id="closed"),
        pytest.param("# Title\n\n---\n\ntext\n", id="rule-in-body"),
        pytest.param("# Title\n", id="no-frontmatter"),
    ],
)
def test_fm003_quiet_when_closed_or_absent(tree, text: str) -> None:
    assert only(lint_topic(tree, text), "FM003") == []


# FM004 yaml-ambiguous-scalar ---------------------------------------------------------------------


@pytest.mark.parametrize("value", ["no", "on", "yes", "off", "010", "1e3", "2024-01-01"])
def test_fm004_fires_on_an_unquoted_ambiguous_value(tree, value: str) -> None:
    text = f"---\nname: topic\ndescription: d\nwhen: {value}\n---\nbody\n"
    [finding] = lint_topic(tree, text)
    assert finding.code == "FM004"
    assert (finding.line, finding.column) == (4, 7)
    assert (finding.end_line, finding.end_column) == (4, 7 + len(value))
    assert f"`{value}`" in finding.message


def test_fm004_points_into_a_block_list(tree) -> None:
    [finding] = lint_topic(tree, "---\nname: topic\nrelates_to:\n  - fine\n  - no\n---\nbody\n")
    assert (finding.code, finding.line, finding.column) == ("FM004", 5, 5)


def test_fm004_reports_each_ambiguous_value(tree) -> None:
    found = lint_topic(tree, "---\nname: no\nwhen: ok\nscope: 1e3\n---\n")
    assert [(f.code, f.line) for f in found] == [("FM004", 2), ("FM004", 4)]


@pytest.mark.parametrize(
    "yaml",
    [
        pytest.param("modified: 2026-08-12T14:00:14.802Z", id="claude-code-timestamp"),
        pytest.param("created: 2024-01-01", id="own-date"),
        pytest.param("pinned: yes", id="own-flag"),
        pytest.param("metadata:\n  tags:\n    - no", id="nested-in-unread-field"),
    ],
)
def test_fm004_quiet_in_a_field_no_agent_or_rule_reads(tree, yaml: str) -> None:
    """Claude Code writes `modified:` timestamps into topic frontmatter: no agent or rule compares them."""
    assert only(lint_topic(tree, f"---\nname: topic\ndescription: d\ntype: user\n{yaml}\n---\nbody\n"), "FM004") == []


def test_fm004_in_a_rule_file_checks_paths_only(tmp_path: Path) -> None:
    write_tree(tmp_path, {".wave/rules/a.md": "---\npaths: yes\npriority: 010\n---\nUse tabs.\n"})
    found = [f for f in run_lint(tmp_path, select=["FM004"])]
    assert [(f.code, f.line) for f in found] == [("FM004", 2)]


def test_fm004_quiet_in_index_frontmatter(tmp_path: Path) -> None:
    """The loader takes the index as it is; MEM108 reports its frontmatter block."""
    write_tree(tmp_path, {"memory/MEMORY.md": "---\nupdated: 2024-01-01\nname: no\n---\n# Memory\n"})
    assert run_lint(tmp_path, select=["FM004"]) == []


@pytest.mark.parametrize(
    "yaml",
    [
        pytest.param('flag: "no"', id="double-quoted"),
        pytest.param("flag: 'on'", id="single-quoted"),
        pytest.param('when: "2024-01-01"', id="quoted-date"),
        pytest.param("no: value", id="key"),
        pytest.param("yes: 1", id="key-yes"),
        pytest.param("flag: true", id="true"),
        pytest.param("flag: false", id="false"),
        pytest.param("count: 10", id="decimal"),
        pytest.param("ratio: 1.5", id="float"),
        pytest.param("description: say no to this", id="word-in-text"),
    ],
)
def test_fm004_quiet_on_unambiguous_values(tree, yaml: str) -> None:
    assert lint_topic(tree, f"---\nname: topic\n{yaml}\n---\nbody\n") == []


# FM005 yaml-too-complex --------------------------------------------------------------------------


def test_fm005_refuses_an_alias_bomb_fast_and_small(tmp_path: Path) -> None:
    parsed(tmp_path, CLEAN)  # load the YAML library first: its import is not the bomb's cost
    bomb = alias_bomb(levels=9, width=9)
    tracemalloc.start()
    try:
        started = time.perf_counter()
        front = parsed(tmp_path, bomb)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert front.status == "too-complex"
    assert front.data is None
    assert elapsed < 0.5
    assert peak < 20 * 1024 * 1024


def test_fm005_on_an_alias_bomb_through_the_rules(tree) -> None:
    [finding] = lint_topic(tree, alias_bomb())
    assert (finding.code, finding.line, finding.column) == ("FM005", 2, 5)  # at the first anchor, `&l0`
    assert "anchor `&l0`" in finding.message


@pytest.mark.parametrize(
    "yaml",
    [
        pytest.param("base: &b user\ntype: *b\n", id="anchor-and-alias"),
        pytest.param("x: " + "[" * 5000 + "]" * 5000 + "\n", id="flow-5000-closed"),
        pytest.param("[" * 5000 + "]" * 5000 + "\n", id="top-level-flow-5000"),
        pytest.param("x: " + "[" * 5000 + "\n", id="flow-5000-unclosed"),
        pytest.param("x: " + "{a: " * 5000 + "}" * 5000 + "\n", id="flow-mappings-5000"),
        pytest.param("x:\n  " + "- " * 5000 + "v\n", id="block-sequences-5000"),
        pytest.param("".join(" " * i + f"k{i}:\n" for i in range(40)) + " " * 40 + "v\n", id="block-mappings-40"),
    ],
)
def test_fm005_refuses_anchors_and_deep_nesting(tree, yaml: str) -> None:
    found = lint_topic(tree, f"---\n{yaml}---\nbody\n")
    assert codes(found) == ["FM005"]


def test_deep_nesting_never_raises_recursion_error(tmp_path: Path) -> None:
    front = parsed(tmp_path, "---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    assert front.status == "too-complex"


def flow_nesting(levels: int) -> str:
    return "x: " + "[" * (levels - 1) + "]" * (levels - 1)  # a mapping holding nested sequences


def block_sequences(levels: int) -> str:
    return "x:\n" + "- " * (levels - 1) + "v"


def block_mappings(levels: int) -> str:
    return "".join(" " * i + f"k{i}:\n" for i in range(levels)) + " " * levels + "v"


@pytest.mark.parametrize("nest", [flow_nesting, block_sequences, block_mappings])
@pytest.mark.parametrize("max_depth", [8, 16])
def test_fm005_depth_limit_is_yaml_max_depth(tree, nest, max_depth: int) -> None:
    """Exactly `yaml-max-depth` levels of collections are read; one more is refused."""
    assert lint_topic(tree, f"---\n{nest(max_depth)}\n---\n", yaml_max_depth=max_depth) == []
    over = lint_topic(tree, f"---\n{nest(max_depth + 1)}\n---\n", yaml_max_depth=max_depth)
    assert codes(over) == ["FM005"]
    assert f"deeper than {max_depth}" in over[0].message


@pytest.mark.parametrize(
    "yaml",
    [
        pytest.param("metadata:\n  type: user\n  tags: [a, b]\n", id="ordinary-nesting"),
        pytest.param("description: costs 5 * 3 & more\n", id="star-and-ampersand-in-text"),
        pytest.param('description: "&anchor *alias"\n', id="quoted-indicators"),
    ],
)
def test_fm005_quiet_on_ordinary_frontmatter(tree, yaml: str) -> None:
    assert only(lint_topic(tree, f"---\nname: topic\n{yaml}---\nbody\n"), "FM005") == []


@pytest.mark.parametrize(
    "yaml",
    [
        "name: a\ndescription: >-\n  folded\n  text\ntype: user\n",
        "a: no\nb: 1e3\nc: 2024-01-01\n",
        "x: &a [1]\ny: *a\n",
        "a: [1, 2\n",
        "a: 1\na: 2\n",
        "- a\n- b\n",
    ],
    ids=["block-scalar", "ambiguous", "alias", "invalid", "duplicate", "list"],
)
def test_the_pure_python_loader_reads_like_the_c_one(monkeypatch: pytest.MonkeyPatch, yaml: str) -> None:
    """Without ruamel.yaml.clib (PyPy), the same findings come from ruamel's pure-Python classes."""
    lines = ["---", *yaml.splitlines(), "---"]
    expected = split_and_parse(lines, 16)
    monkeypatch.setattr(frontmatter_module, "_loader_class", frontmatter_module.pure_loader_class())
    actual = split_and_parse(lines, 16)
    assert (actual.status, actual.data) == (expected.status, expected.data)
    # libyaml reports an unclosed flow sequence where the input ends, ruamel's parser where the
    # line ends: both point into the frontmatter.
    assert (actual.error_line is None) == (expected.error_line is None)
    assert [(a.value, a.line, a.column) for a in actual.ambiguous] == [
        (a.value, a.line, a.column) for a in expected.ambiguous
    ]
