"""Rule globs read and matched per agent (parse/globs.py; READERS.md §2 and B, SPEC §5).

Wave: a string is one pattern, minimatch `{dot: true}` on the workdir-relative path (no
matchBase, case-sensitive, no `./` normalisation). Claude Code: a list or a comma string, braces
expanded without numeric ranges, a trailing `/**` dropped, gitignore matching (any depth,
case-insensitive, a leading `/` anchors). The tables below are those facts, one row each.
"""

from __future__ import annotations

import re
import time

import pytest

from mnemolint.parse import globs
from mnemolint.parse.globs import NEGATED, OUTSIDE, SYNTAX, GlobError

LIMIT = 1_000


def wave_matches(pattern: str, rel: str) -> bool:
    glob = globs.compile_wave(pattern, LIMIT)
    return glob.problem is None and glob.matches(rel)


def claude_matches(pattern: str, rel: str) -> bool:
    return any(glob.problem is None and glob.matches(rel) for glob in globs.compile_claude(pattern, LIMIT))


# (pattern, project-relative path, Wave matches, Claude Code matches)
MATCHING = [
    ("src/**", "src/a.ts", True, True),
    ("src/**/*.ts", "src/a.ts", True, True),  # `**` matches no directory too
    ("src/**/*.ts", "src/deep/er/a.ts", True, True),
    ("src/*.ts", "src/deep/a.ts", False, False),
    ("*.ts", "a.ts", True, True),
    ("*.ts", "src/a.ts", False, True),  # no matchBase for Wave; gitignore: any depth (WAV012)
    ("SRC/**", "src/a.ts", False, True),  # Wave is case-sensitive, Claude Code is not
    ("**/*.ts", ".hidden/a.ts", True, True),  # dot: true
    ("{src,lib}/**", "lib/x.ts", True, True),
    ("src/{1..3}.ts", "src/2.ts", True, False),  # Claude Code expands no numeric range
    ("/src/**", "src/a.ts", False, True),  # absolute for Wave; anchored to the folder for Claude Code
    ("./src/**", "src/a.ts", False, False),  # no `./` normalisation (WAV003)
    ("docs", "docs/x.md", False, True),  # gitignore: a name matches the directory's files
    ("[ab].ts", "a.ts", True, True),
    ("[a, b]", "a", True, False),  # Wave's literal flow list: a character class; as a string,
    # Claude Code splits it into `[a` and `b]` (it reads the YAML list `a`, `b` instead)
    ("[a, b]", "[a, b]", False, False),
    ("src/** lib/**", "src/a.ts", False, False),  # a folded scalar: one pattern with a space
    ("src/**/*.ts, lib/**", "lib/a.ts", False, True),  # Wave never splits a comma string
]


@pytest.mark.parametrize(("pattern", "rel", "wave", "claude"), MATCHING)
def test_each_agent_matches_a_glob_its_own_way(pattern: str, rel: str, wave: bool, claude: bool) -> None:
    """The same pattern against the same path, as Wave and as Claude Code match it."""
    parts = globs.claude_values(pattern)
    assert wave_matches(pattern, rel) is wave
    assert any(claude_matches(part, rel) for part in parts) is claude


def test_wave_takes_a_string_as_one_pattern_and_a_list_as_its_strings() -> None:
    """Wave never splits: a comma string is one pattern (MemoryRuleService.ts:19-25)."""
    assert globs.wave_values("src/**, lib/**") == ["src/**, lib/**"]
    assert globs.wave_values(["a", "b"]) == ["a", "b"]
    assert globs.wave_values("") == []
    assert globs.wave_values(None) == []


def test_claude_splits_a_string_on_commas_outside_braces() -> None:
    """Claude Code splits a comma string, keeping the commas inside `{}` (frontmatterParser.ts)."""
    assert globs.claude_values("src/**/*.{ts,tsx}, lib/**,") == ["src/**/*.{ts,tsx}", "lib/**"]
    assert globs.claude_values([" a ", "", 3, "b"]) == ["a", "b"]
    assert globs.split_commas("{a,{b,c}},d") == ["{a,{b,c}}", "d"]


@pytest.mark.parametrize(
    ("pattern", "expanded"),
    [
        ("src/{a,b}/{c,d}.ts", ["src/a/c.ts", "src/a/d.ts", "src/b/c.ts", "src/b/d.ts"]),
        ("{a,{b,c}}x", ["ax", "bx", "cx"]),
        ("{x{a,b}y,z}", ["xay", "xby", "z"]),
        ("{{a,b}", ["{a", "{b"]),
        ("a{b}c{d,e}", ["a{b}cd", "a{b}ce"]),  # a group without a comma is literal
        ("src/{1..3}.ts", ["src/{1..3}.ts"]),  # no numeric ranges
        ("{,}", ["", ""]),
    ],
)
def test_claude_brace_expansion(pattern: str, expanded: list[str]) -> None:
    """The first group each time, recursively, as Claude Code expands it."""
    assert globs.expand_braces(pattern, LIMIT) == expanded


def test_brace_expansion_past_the_limit_is_an_error_not_a_blow_up() -> None:
    """11 groups of two are 2,048 patterns: over the limit, refused before they are all made."""
    with pytest.raises(GlobError, match="more than 1,000 patterns"):
        globs.expand_braces("{a,b}" * 11, LIMIT)
    assert len(globs.expand_braces("{a,b}" * 9, LIMIT)) == 512


def test_a_million_way_range_is_bounded_for_both_agents() -> None:
    """`{1..1000}{1..1000}` (the issue's edge case): Wave's minimatch expands ranges, so it is
    over the limit, a SYNTAX problem; Claude Code has no ranges, so it is one literal pattern.
    Neither takes long, neither raises."""
    started = time.perf_counter()
    wave = globs.compile_wave("{1..1000}{1..1000}", LIMIT)
    claude = globs.compile_claude("{1..1000}{1..1000}", LIMIT)
    assert time.perf_counter() - started < 2
    assert (wave.problem, wave.why) == (SYNTAX, "its braces expand to more than 1,000 patterns")
    assert [(glob.pattern, glob.problem) for glob in claude] == [("{1..1000}{1..1000}", None)]


def test_deeply_nested_braces_are_expanded_in_linear_time() -> None:
    """100,000 nested braces holding no comma: one pass, not a scan from every `{` (that was
    quadratic: 10,000 characters took two seconds, a 1 MB rule file would hang the run)."""
    pattern = "{" * 50_000 + "}" * 50_000
    started = time.perf_counter()
    assert globs.expand_braces(pattern, LIMIT) == [pattern]
    globs.compile_claude(pattern, LIMIT)
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("src/{a,b", "a `{` is never closed"),
        ("src/a}", "the `}` at character 6 closes no `{`"),
        ("src/[ab", "the `[` at character 5 is never closed"),
    ],
)
def test_unbalanced_braces_and_brackets_are_syntax_for_both(pattern: str, why: str) -> None:
    """WAV004's input: both agents get a pattern that does not pair up."""
    assert globs.unbalanced(pattern) == why
    assert (globs.compile_wave(pattern, LIMIT).problem, globs.compile_wave(pattern, LIMIT).why) == (SYNTAX, why)
    assert [(glob.problem, glob.why) for glob in globs.compile_claude(pattern, LIMIT)] == [(SYNTAX, why)]


def test_balanced_patterns_and_escapes_are_not_syntax() -> None:
    assert globs.unbalanced("src/{a,b}/[!x]*.ts") is None
    assert globs.unbalanced(r"src/\{a") is None
    assert globs.unbalanced("[]]") is None


def test_a_pattern_minimatch_refuses_for_its_length() -> None:
    """minimatch throws on a pattern over 65,536 characters: Wave never matches it."""
    glob = globs.compile_wave("a" * 70_000, LIMIT)
    assert glob.problem == SYNTAX and "65,536" in glob.why


@pytest.mark.parametrize(
    ("pattern", "wave", "claude"),
    [
        ("/src/**", OUTSIDE, None),  # gitignore anchors a leading `/` to the folder holding `.claude`
        ("./src/**", OUTSIDE, OUTSIDE),
        ("../shared/**", OUTSIDE, OUTSIDE),
        ("src/../lib/**", OUTSIDE, OUTSIDE),
        ("C:/repo/src/**", OUTSIDE, OUTSIDE),
        ("\\src\\**", OUTSIDE, OUTSIDE),
        ("src/**", None, None),
    ],
)
def test_forms_a_relative_path_never_has(pattern: str, wave: str | None, claude: str | None) -> None:
    """WAV003: absolute, `./`, `..` and drive forms, judged per agent."""
    assert globs.compile_wave(pattern, LIMIT).problem == wave
    assert {glob.problem for glob in globs.compile_claude(pattern, LIMIT)} == {claude}


def test_a_negated_pattern_per_agent() -> None:
    """`!lib/**`: Wave matches every file except those (WAV013); for Claude Code a `!` pattern
    only takes files back out, so it selects nothing on its own; its expression is what it takes out."""
    wave = globs.compile_wave("!lib/**", LIMIT)
    assert wave.problem == NEGATED and wave.negated and wave.matches("lib/a.ts")
    [claude] = globs.compile_claude("!lib/**", LIMIT)
    assert (claude.problem, claude.pattern) == (NEGATED, "!lib")
    assert claude.matches("lib/a.ts") and not claude.matches("src/a.ts")


def test_claude_drops_a_trailing_globstar_and_keeps_what_it_wrote() -> None:
    """`src/**` is held as `src`, and the finding still quotes `src/**` (the written form)."""
    [glob] = globs.compile_claude("src/**", LIMIT)
    assert (glob.written, glob.pattern, glob.problem) == ("src/**", "src", None)
    assert glob.matches("src/deep/a.ts") and glob.matches("lib/src/a.ts")


@pytest.mark.parametrize(
    ("patterns", "unconditional"),
    [([], True), (["**"], True), (["**", "**/**", "/**"], True), (["**", "src/**"], False), (["*.md"], False)],
)
def test_claude_treats_globstars_only_as_no_condition(patterns: list[str], unconditional: bool) -> None:
    assert globs.unconditional_for_claude(patterns) is unconditional


def test_claude_regexes_can_be_joined_into_one() -> None:
    """WAV002 joins every pending pattern into one expression; pathspec names a group (`ps_d`)
    in each of its regexes, which made the joined expression a `re.error` (an internal error
    in WAV002 on every `.claude/rules` dir with two patterns)."""
    compiled = [glob for part in ("*.ts", "docs/", "/src/a.ts") for glob in globs.compile_claude(part, LIMIT)]
    joined = re.compile("|".join(f"(?:{glob.regex.pattern})" for glob in compiled), re.IGNORECASE)
    assert joined.match("deep/a.ts") and joined.match("docs/x.md") and not joined.match("lib/b.md")


def test_a_glob_without_a_regex_matches_nothing() -> None:
    glob = globs.compile_wave("./src/**", LIMIT)
    assert glob.regex is None and not glob.matches("src/a.ts")
    assert repr(glob) == "<Glob './src/**' outside>"
