"""Wave's hand-written frontmatter reader (parse/wave_frontmatter.py) against the facts in
READERS.md §1 (W-IDX `utils/frontmatterYaml.ts`). The WAV rules compare this reading with the
YAML 1.2 truth, so each quirk the reader has must be reproduced exactly: a reader that is "better"
than Wave's would hide the very findings WAV010 exists for.
"""

from __future__ import annotations

import pytest

from mnemolint.parse.wave_frontmatter import block, parse, read

# name → (file text, what Wave's reader takes from it); each is a fact of READERS.md §1.
FACTS: dict[str, tuple[str, object]] = {
    # "Flow lists: `paths: [a, b]` stays the literal string `[a, b]`."
    "flow-list-literal": ("---\npaths: [a, b]\n---\nbody\n", {"paths": "[a, b]"}),
    # "`description: a\n  b`: the value is `a`" — the continuation is dropped ...
    "continuation-lost": ("---\ndescription: a\n  b\n---\n", {"description": "a"}),
    # ... and a continuation holding `: ` becomes a top-level key of its own.
    "continuation-becomes-key": ("---\ndescription: a\n  key: b\n---\n", {"description": "a", "key": "b"}),
    # "Inline `# comment`: kept as part of the value."
    "comment-kept": ("---\ndescription: hello # note\n---\n", {"description": "hello # note"}),
    # "stripQuotes ... strips one leading and one trailing quote independently, even when unbalanced".
    "unbalanced-leading-quote": ('---\ndescription: "unbalanced\n---\n', {"description": "unbalanced"}),
    "quote-then-comment": ('---\ndescription: "a" # c\n---\n', {"description": 'a" # c'}),
    # "Duplicate keys: the last one wins. A second `paths:` block list replaces the first."
    "duplicate-keys-last-wins": ("---\npaths:\n  - a\npaths:\n  - b\n---\n", {"paths": ["b"]}),
    "duplicate-keys-same-indent": ("---\npaths:\n- a\npaths:\n- b\n---\n", {"paths": ["b"]}),
    # "Types: only strings or string[]; nothing is coerced".
    "priority-is-a-string": ("---\npriority: 5\n---\n", {"priority": "5"}),
    "boolean-is-a-string": ("---\nflag: true\n---\n", {"flag": "true"}),
    "bare-key-is-empty-list": ("---\nempty:\n---\n", {"empty": []}),
    # "The key is the text before the first `:`".
    "url-value": ("---\ndescription: see http://x\n---\n", {"description": "see http://x"}),
    # Value on the next lines: joined with spaces; a `: ` inside is kept as text.
    "next-line-joined": ("---\ndescription:\n  a: b\n  c\n---\n", {"description": "a: b c"}),
    # Block lists: only `- ` items count in the next-line form.
    "dash-without-space": ("---\npaths:\n  -src/**\n---\n", {"paths": "-src/**"}),
    "items-at-key-indent": ("---\npaths:\n- a\n- b\n---\n", {"paths": ["a", "b"]}),
    "stray-item-takes-the-key": ("---\nname: x\n- y\n---\n", {"name": ["y"]}),
    # "Nesting: `metadata:\n  type: user` → `metadata = "type: user"`, a string."
    "no-nested-maps": ("---\nmetadata:\n  type: user\n---\n", {"metadata": "type: user"}),
    # Block scalars: folded or kept, always trimmed (chomping has no effect).
    "folded-scalar": ("---\ndescription: >\n  a\n  b\n\n  c\n---\n", {"description": "a b\nc"}),
    "folded-strip-two-globs": ("---\npaths: >-\n  src/**\n  lib/**\n---\n", {"paths": "src/** lib/**"}),
    "literal-keep-two-globs": ("---\npaths: |+\n  src/**\n  lib/**\n\n---\n", {"paths": "src/**\nlib/**"}),
    # Block split: CRLF works, a closing `---` at the end of the file is accepted.
    "crlf": ("---\r\npaths: a\r\n---\r\nbody", {"paths": "a"}),
    "closing-fence-at-eof": ("---\npaths: a\n---", {"paths": "a"}),
    # Blank lines and `#` lines are skipped.
    "comment-lines-skipped": ("---\n# paths: no\n\npaths: yes\n---\n", {"paths": "yes"}),
}


@pytest.mark.parametrize("name", list(FACTS))
def test_wave_reads_frontmatter_as_its_source_does(name: str) -> None:
    """Each READERS.md §1 fact, reproduced on the text that shows it."""
    text, expected = FACTS[name]
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\ufeff---\npaths: a\n---\nbody\n", id="bom"),
        pytest.param("---\n---\nbody\n", id="empty-block"),
        pytest.param("no frontmatter\n", id="none"),
        pytest.param("---\npaths: a\n", id="unclosed"),
        pytest.param(" ---\npaths: a\n---\n", id="indented-fence"),
    ],
)
def test_wave_sees_no_frontmatter(text: str) -> None:
    """A BOM hides the whole block from Wave's regex; so do an empty block and an unclosed one:
    the rule then has no `paths` for Wave and is always on."""
    assert read(text) is None
    assert block(text) is None


def test_block_is_the_text_between_the_fences() -> None:
    """What `parse` is given: the lines between the fences, without them."""
    assert block("---\na: 1\nb: 2\n---\nbody\n") == "a: 1\nb: 2"


def test_a_block_list_under_a_scalar_key_keeps_going_after_a_blank_line() -> None:
    """The main loop appends any `-` line to the current key, so a list interrupted by a blank
    line goes on (the next-line reader stops at the blank, the main loop picks the rest up)."""
    assert parse("paths:\n  - a\n\n  - b") == {"paths": ["a", "b"]}


def test_block_scalar_ends_at_the_key_indent() -> None:
    """A block scalar takes the lines deeper than its key, and the next key starts a new field:
    continuation lines never become keys (seed 000, path rules 4)."""
    fields = parse("paths: >-\n  src/**\n  lib/**\npriority: 3")
    assert fields == {"paths": "src/** lib/**", "priority": "3"}


def test_quoted_list_items_lose_their_quotes() -> None:
    """`- "src/**"` is the pattern `src/**`, as every reader takes it."""
    assert parse("paths:\n  - \"src/**\"\n  - 'lib/**'") == {"paths": ["src/**", "lib/**"]}


def test_a_huge_block_is_read_in_linear_time() -> None:
    """A rule file of many thousand lines is read at once: no quadratic rescans."""
    import time

    text = "paths:\n" + "".join(f"  - dir{index}/**\n" for index in range(50_000))
    started = time.perf_counter()
    fields = parse(text)
    assert len(fields["paths"]) == 50_000
    assert time.perf_counter() - started < 5
