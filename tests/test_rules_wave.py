"""WAV001–WAV014 on real rules dirs in tmp_path (issue 9 "Tests"; SPEC §3, §5; READERS.md §2, B).

Each rule fires once and stays quiet once, and where the agents differ, once per agent: the same
rule file is judged under `.wave/rules` (Wave only), under `.claude/rules` of a Claude-only project
(Claude Code only), and under `.claude/rules` of a project that also uses Wave (a `.wave/` dir or
`agents = [...]`), where both agents read it. Every run here must also be free of internal errors:
a rule that raises is a finding lost, which is what the `check` helper asserts first.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import GIT_ENV, git, run_cli, write_tree

from mnemolint.agents import CLAUDE_CODE, WAVE
from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.engine import lint
from mnemolint.kinds.rules import RulesDir
from mnemolint.model import Diagnostic
from mnemolint.project import Project, checkout_relative

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
WAVE_RULES = ".wave/rules"
CLAUDE_RULES = ".claude/rules"
# Where a rule file stands, and the agents that then read it (the reader each finding names).
PLACES = {
    "wave": (WAVE_RULES, {}, ["Wave"]),
    "claude-only": (CLAUDE_RULES, {}, ["Claude Code"]),
    "claude-with-wave-dir": (CLAUDE_RULES, {".wave/.keep": ""}, ["Claude Code", "Wave"]),
    "claude-with-agents-setting": (
        CLAUDE_RULES,
        {"mnemolint.toml": 'agents = ["wave", "claude-code"]\n'},
        ["Claude Code", "Wave"],
    ),
}
SOURCES = {"src/a.ts": "x\n", "src/ui/b.tsx": "x\n", "lib/c.py": "x\n", "README.md": "# project\n"}


def rule(paths: str | None = None, body: str = "Do the thing.\n", extra: str = "") -> str:
    """A rule file: `paths` as written (None: no `paths` key), other keys, then the body."""
    lines = ([f"paths:{paths}"] if paths is not None else []) + ([extra] if extra else [])
    return ("---\n" + "\n".join(lines) + "\n---\n" if lines else "") + body


def check(root: Path, select: str = "WAV", **options: object) -> list[Diagnostic]:
    """Lint `root` like `mnemolint check`, with no internal error allowed."""
    settings = load_settings(None, str(root))
    settings.select = [select] if isinstance(select, str) else list(select)
    for key, value in options.items():
        settings.options[key.replace("_", "-")] = value
    result = lint([str(root)], settings)
    assert result.errors == [], result.errors
    return result.diagnostics


def hits(diagnostics: list[Diagnostic], code: str, root: Path) -> list[tuple[str, int | None, str]]:
    """(path relative to root, line, message) of each `code` finding."""
    return [
        (os.path.relpath(d.path, root).replace(os.sep, "/"), d.line, d.message) for d in diagnostics if d.code == code
    ]


def place(tmp_path: Path, where: str, text: str, name: str = "r.md", files: dict | None = None) -> tuple[Path, str]:
    """A project with SOURCES and one rule file `name` at the place `where`; returns the root and
    the rule's path relative to it."""
    folder, more, _ = PLACES[where]
    rel = f"{folder}/{name}"
    write_tree(tmp_path, {**SOURCES, **more, **(files or {}), rel: text})
    return tmp_path, rel


def readers_of(where: str) -> list[str]:
    return PLACES[where][2]


def named(message: str) -> list[str]:
    """The agents a finding names after `for ` (`for Claude Code and Wave`)."""
    tail = message.split(" for ", 1)[1]
    return [agent for agent in ("Claude Code", "Wave") if agent in tail.split(",")[0].split(":")[0]]


ALL = list(PLACES)


# --- WAV001 rule-paths-type -------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize(
    ("paths", "shape"),
    [
        (" 5", "a number"),
        (" true", "a boolean"),
        (" {a: b}", "a mapping"),
        ('\n  - "src/**"\n  - 3', "a list holding a number"),
    ],
)
def test_wav001_fires_on_paths_that_are_not_strings(tmp_path: Path, where: str, paths: str, shape: str) -> None:
    root, rel = place(tmp_path, where, rule(paths))
    [(path, line, message)] = hits(check(root), "WAV001", root)
    assert (path, line) == (rel, 2)
    assert message.startswith(f"`paths` is {shape}") and ", not a string or a list of strings: " in message


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("paths", [' "src/**"', '\n  - "src/**"\n  - "lib/**"', None])
def test_wav001_is_quiet_on_a_string_or_a_list_of_strings(tmp_path: Path, where: str, paths: str | None) -> None:
    root, _ = place(tmp_path, where, rule(paths))
    assert hits(check(root), "WAV001", root) == []


def test_wav001_is_not_wav010_too(tmp_path: Path) -> None:
    """A list holding a number is WAV001's: Wave reading `3` as "3" is not a second finding with a
    Python list in its message."""
    root, _ = place(tmp_path, "wave", rule('\n  - "src/**"\n  - 3'))
    assert hits(check(root), "WAV010", root) == []


# --- WAV002 rule-glob-unmatched ---------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
def test_wav002_fires_on_a_glob_no_file_matches(tmp_path: Path, where: str) -> None:
    root, rel = place(tmp_path, where, rule('\n  - "src/**"\n  - "docs/**"'))
    [(path, line, message)] = hits(check(root), "WAV002", root)
    assert (path, line) == (rel, 4)
    assert message.startswith("`docs/**` matches no file of the project for ")
    assert named(message) == readers_of(where)


@pytest.mark.parametrize("where", ALL)
def test_wav002_is_quiet_when_every_glob_matches(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule('\n  - "src/**/*.ts"\n  - "lib/**"\n  - "**/*.tsx"'))
    assert hits(check(root), "WAV002", root) == []


def test_wav002_a_root_only_glob_is_dead_for_wave_alone(tmp_path: Path) -> None:
    """`*.ts` with no `.ts` at the root: dead for Wave (no matchBase), live for Claude Code
    (gitignore, any depth). One finding, naming Wave only."""
    root, _ = place(tmp_path, "claude-with-wave-dir", rule('\n  - "*.ts"'))
    [(_, _, message)] = hits(check(root), "WAV002", root)
    assert named(message) == ["Wave"]


def test_wav002_case_only_matches_for_claude_code(tmp_path: Path) -> None:
    """`SRC/**`: Claude Code matches case-insensitively, Wave does not."""
    root, _ = place(tmp_path, "claude-with-wave-dir", rule('\n  - "SRC/**"'))
    [(_, _, message)] = hits(check(root), "WAV002", root)
    assert named(message) == ["Wave"]


def test_wav002_a_brace_pattern_is_live_when_one_expansion_matches(tmp_path: Path) -> None:
    """Claude Code expands `src/**/*.{ts,tsx,vue}` into three patterns: the rule is live if any
    matches. It used to be reported dead (and "for Claude Code and Claude Code") because one
    expansion matched nothing."""
    root, _ = place(tmp_path, "claude-only", rule(' "src/**/*.{ts,vue}, {docs,test}/**"'))
    [(_, _, message)] = hits(check(root), "WAV002", root)
    assert message.startswith("`{docs,test}/**` matches no file of the project for Claude Code,")
    root_ok, _ = place(tmp_path / "ok", "claude-only", rule(' "src/**/*.{ts,vue}"'))
    assert hits(check(root_ok), "WAV002", root_ok) == []


def test_wav002_is_not_repeated_for_what_wav010_reports(tmp_path: Path) -> None:
    """Wave's literal `[src/**, lib/**]` never matches, but WAV010 says why: no WAV002 on top."""
    root, _ = place(tmp_path, "wave", rule(" [src/**, lib/**]"))
    diagnostics = check(root)
    assert hits(diagnostics, "WAV002", root) == []
    assert len(hits(diagnostics, "WAV010", root)) == 1


def test_wav002_matches_relative_to_the_folder_holding_claude(tmp_path: Path) -> None:
    """A nested `pkg/.claude/rules` matches against `pkg`: `src/**` means `pkg/src/**`."""
    write_tree(tmp_path, {"pkg/src/a.ts": "x\n", "pkg/.claude/rules/r.md": rule('\n  - "src/**"\n  - "pkg/**"')})
    [(path, _, message)] = hits(check(tmp_path), "WAV002", tmp_path)
    assert path == "pkg/.claude/rules/r.md" and message.startswith("`pkg/**` matches no file")


def test_wav002_in_a_linked_wave_worktree_counts_by_checkout_path(tmp_path: Path) -> None:
    """`.wave/worktrees/x/src/a.ts` is `src/a.ts` of the checkout (seed 000, path rules 6)."""
    write_tree(tmp_path, {".wave/worktrees/x/src/a.ts": "x\n", ".wave/rules/r.md": rule('\n  - "src/**"')})
    assert hits(check(tmp_path), "WAV002", tmp_path) == []
    write_tree(tmp_path, {".wave/rules/r.md": rule('\n  - "worktrees/**"')})
    assert len(hits(check(tmp_path), "WAV002", tmp_path)) == 1


@pytest.fixture
def git_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The git that the project listing runs sees none of the user's config either."""
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def test_wav002_in_a_git_repo_counts_untracked_files_but_not_ignored_ones(tmp_path: Path, git_env: None) -> None:
    """`git ls-files --cached --others --exclude-standard`: a file never added still counts, an
    ignored one does not — even though it is on disk and the walk meets it."""
    write_tree(
        tmp_path,
        {
            ".gitignore": "build/\n",
            "tracked/a.ts": "x\n",
            "untracked/b.ts": "x\n",
            "build/c.ts": "x\n",
            ".wave/rules/r.md": rule('\n  - "tracked/**"\n  - "untracked/**"\n  - "build/**"'),
        },
    )
    git("init", "-q", cwd=tmp_path)
    git("add", "tracked", ".gitignore", cwd=tmp_path)
    git("commit", "-q", "-m", "init", cwd=tmp_path)
    [(_, line, message)] = hits(check(tmp_path), "WAV002", tmp_path)
    assert (line, message.split(" matches")[0]) == (5, "`build/**`")


def test_wav002_in_a_real_linked_worktree_counts_its_files(tmp_path: Path, git_env: None) -> None:
    """A worktree Wave made with `git worktree add .wave/worktrees/x` is a work tree of its own:
    `git ls-files --others` lists it as the one entry `.wave/worktrees/x/`. Its files still count,
    by their checkout path: `feature/**` is live through `.wave/worktrees/x/feature/new.ts` (it was
    reported dead)."""
    write_tree(tmp_path, {"README.md": "x\n", ".wave/rules/r.md": rule('\n  - "feature/**"\n  - "nothing/**"')})
    git("init", "-q", cwd=tmp_path)
    git("add", "-A", cwd=tmp_path)
    git("commit", "-q", "-m", "init", cwd=tmp_path)
    git("worktree", "add", "-q", ".wave/worktrees/x", cwd=tmp_path)
    write_tree(tmp_path, {".wave/worktrees/x/feature/new.ts": "x\n"})
    found = hits(check(tmp_path), "WAV002", tmp_path)
    assert [(path, message.split(" matches")[0]) for path, _, message in found if path == ".wave/rules/r.md"] == [
        (".wave/rules/r.md", "`nothing/**`")
    ]
    assert "feature/new.ts" in Project(str(tmp_path), {}).files()


def test_wav002_a_tracked_file_that_is_also_ignored_counts(tmp_path: Path, git_env: None) -> None:
    """`--cached` lists what the repository has: a file added before the ignore line still counts."""
    write_tree(tmp_path, {"build/c.ts": "x\n", ".wave/rules/r.md": rule('\n  - "build/**"')})
    git("init", "-q", cwd=tmp_path)
    git("add", "build", cwd=tmp_path)
    write_tree(tmp_path, {".gitignore": "build/\n"})
    assert hits(check(tmp_path), "WAV002", tmp_path) == []


def test_wav002_without_git_honours_gitignore_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a work tree the walked files count, less those a `.gitignore` on their way
    ignores (the root one and a nested one)."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no enclosing repository
    write_tree(
        tmp_path,
        {
            ".gitignore": "build/\n",
            "pkg/.gitignore": "*.gen.ts\n",
            "build/c.ts": "x\n",
            "pkg/a.gen.ts": "x\n",
            "pkg/b.ts": "x\n",
            ".wave/rules/r.md": rule('\n  - "build/**"\n  - "pkg/*.gen.ts"\n  - "pkg/b.ts"'),
        },
    )
    assert {message.split(" matches")[0] for _, _, message in hits(check(tmp_path), "WAV002", tmp_path)} == {
        "`build/**`",
        "`pkg/*.gen.ts`",
    }


# --- WAV003 rule-glob-never-matches -----------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("pattern", ["./src/**", "../shared/**", "C:/repo/src/**"])
def test_wav003_fires_for_every_agent_on_forms_no_relative_path_has(tmp_path: Path, where: str, pattern: str) -> None:
    root, rel = place(tmp_path, where, rule(f'\n  - "src/**"\n  - "{pattern}"'))
    [(path, line, message)] = hits(check(root), "WAV003", root)
    assert (path, line) == (rel, 4)
    assert message.startswith(f"`{pattern}` never matches for ")
    assert named(message) == readers_of(where)


@pytest.mark.parametrize(("where", "agents"), [("wave", ["Wave"]), ("claude-with-wave-dir", ["Wave"])])
def test_wav003_an_absolute_glob_never_matches_for_wave(tmp_path: Path, where: str, agents: list[str]) -> None:
    """`/src/**`: Wave matches the relative path, so never; Claude Code's gitignore matching
    anchors a leading `/` to the folder holding `.claude`, so it matches there."""
    root, _ = place(tmp_path, where, rule('\n  - "/src/**"'))
    [(_, line, message)] = hits(check(root), "WAV003", root)
    assert line == 3 and named(message) == agents and "it is absolute" in message


def test_wav003_an_absolute_glob_is_fine_for_claude_code_alone(tmp_path: Path) -> None:
    root, _ = place(tmp_path, "claude-only", rule('\n  - "/src/**"'))
    diagnostics = check(root)
    assert hits(diagnostics, "WAV003", root) == [] and hits(diagnostics, "WAV002", root) == []


def test_wav003_points_at_the_line_of_each_pattern(tmp_path: Path) -> None:
    """`/src/**` is also a substring of `./src/**` on the line above: each finding still names
    its own line (both used to point at the first)."""
    root, _ = place(tmp_path, "wave", rule('\n  - ./src/**\n  - "/src/**"'))
    assert [line for _, line, _ in hits(check(root), "WAV003", root)] == [3, 4]


@pytest.mark.parametrize("where", ALL)
def test_wav003_is_quiet_on_relative_globs(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule('\n  - "src/**"\n  - "**/*.ts"'))
    assert hits(check(root), "WAV003", root) == []


# --- WAV004 rule-glob-syntax ------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize(("pattern", "why"), [("src/{a,b", "a `{` is never closed"), ("src/[ab", "is never closed")])
def test_wav004_fires_on_unbalanced_globs(tmp_path: Path, where: str, pattern: str, why: str) -> None:
    root, rel = place(tmp_path, where, rule(f'\n  - "{pattern}"'))
    [(path, line, message)] = hits(check(root), "WAV004", root)
    assert (path, line) == (rel, 3) and why in message and named(message) == readers_of(where)


@pytest.mark.parametrize("where", ALL)
def test_wav004_a_million_way_brace_range_is_a_finding_in_bounded_time(tmp_path: Path, where: str) -> None:
    """`{1..1000}{1..1000}`: Wave's minimatch expands ranges, a million patterns, over
    `glob-max-expansions`; Claude Code has no ranges (a literal, so WAV002 instead). The
    whole run stays fast and raises nothing."""
    root, _ = place(tmp_path, where, rule('\n  - "src/{1..1000}{1..1000}.ts"'))
    started = time.perf_counter()
    diagnostics = check(root)
    assert time.perf_counter() - started < 10
    found = hits(diagnostics, "WAV004", root)
    if "Wave" in readers_of(where):
        [(_, _, message)] = found
        assert "its braces expand to more than 1,000 patterns" in message and named(message) == ["Wave"]
    else:
        assert found == []
        assert len(hits(diagnostics, "WAV002", root)) == 1


def test_wav004_the_limit_is_the_glob_max_expansions_option(tmp_path: Path) -> None:
    """2,048 expansions: over the default 1,000 for both agents, fine under a raised limit."""
    root, _ = place(tmp_path, "claude-with-wave-dir", rule('\n  - "' + "{a,b}" * 11 + '"'))
    [(_, _, message)] = hits(check(root), "WAV004", root)
    assert named(message) == ["Claude Code", "Wave"]
    assert hits(check(root, glob_max_expansions=5_000), "WAV004", root) == []


@pytest.mark.parametrize("where", ALL)
def test_wav004_is_quiet_on_balanced_globs(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule('\n  - "src/{a,b}/[!x]*.ts"'))
    assert hits(check(root), "WAV004", root) == []


def test_wav004_leaves_wave_flow_literals_to_wav010(tmp_path: Path) -> None:
    """`[src/**, {a,b]` is a typo for Wave only because it is a flow list: WAV010 explains it."""
    root, _ = place(tmp_path, "wave", rule(' ["src/**", "lib/**"]'))
    diagnostics = check(root)
    assert hits(diagnostics, "WAV004", root) == [] and len(hits(diagnostics, "WAV010", root)) == 1


# --- WAV005 rule-unknown-key ------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
def test_wav005_fires_on_cursor_globs_with_did_you_mean(tmp_path: Path, where: str) -> None:
    root, rel = place(tmp_path, where, rule(extra='globs: "src/**"\nalwaysApply: false\nteam: web'))
    found = hits(check(root), "WAV005", root)
    assert [(path, line) for path, line, _ in found] == [(rel, 2), (rel, 3), (rel, 4)]
    assert "did you mean `paths`?" in found[0][2]
    assert found[2][2] == "`team`: no agent reads it from a rule file; only `paths` scopes a rule."


@pytest.mark.parametrize("where", ALL)
def test_wav005_is_quiet_on_the_keys_rules_use(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule(' "src/**"', extra="priority: 1\ndescription: d\nname: n"))
    assert hits(check(root), "WAV005", root) == []


# --- WAV006 rule-priority-invalid -------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize(
    ("value", "shape"),
    [
        ("high", "a string"),
        ('"5"', "a string"),
        ("1.5", "a number"),
        ("", "a null value"),  # was "a NoneType"
        ("[]", "a list"),  # `[]` and `[high]` raised StopIteration inside the rule
        ("[high]", "a list"),
        ("[1]", "a list holding a number"),
    ],
)
def test_wav006_fires_on_a_priority_that_is_not_an_integer(tmp_path: Path, where: str, value: str, shape: str) -> None:
    root, rel = place(tmp_path, where, rule(extra=f"priority: {value}"))
    [(path, line, message)] = hits(check(root), "WAV006", root)
    assert (path, line) == (rel, 2)
    assert message.startswith(f"`priority` is {shape}, not an integer.")
    assert "no agent orders rules by it today" in message


@pytest.mark.parametrize("where", ALL)
def test_wav006_is_quiet_on_an_integer_priority(tmp_path: Path, where: str) -> None:
    """YAML's `5` is an integer; that Wave's reader takes it as "5" changes nothing (unused)."""
    root, _ = place(tmp_path, where, rule(extra="priority: 5"))
    assert hits(check(root), "WAV006", root) == []


# --- WAV007 rule-empty-body -------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("text", [rule(' "src/**"', body=""), rule(' "src/**"', body="\n   \n"), ""])
def test_wav007_fires_on_a_rule_with_no_text(tmp_path: Path, where: str, text: str) -> None:
    root, rel = place(tmp_path, where, text)
    assert [(path, line) for path, line, _ in hits(check(root), "WAV007", root)] == [(rel, None)]


@pytest.mark.parametrize("where", ALL)
def test_wav007_is_quiet_on_a_rule_with_text(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule(' "src/**"', body="Use tabs.\n"))
    assert hits(check(root), "WAV007", root) == []


# --- WAV008 rule-empty-paths ------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("paths", ["", ' ""', " []"])
def test_wav008_fires_on_empty_paths(tmp_path: Path, where: str, paths: str) -> None:
    root, rel = place(tmp_path, where, rule(paths))
    [(path, line, message)] = hits(check(root), "WAV008", root)
    assert (path, line) == (rel, 2)
    for agent in readers_of(where):
        assert f"{agent} " in message


def test_wav008_says_what_each_agent_does_with_an_empty_flow_list(tmp_path: Path) -> None:
    """`paths: []`: Claude Code reads an empty list (always on); Wave the literal pattern `[]`
    (never injected). The two effects are opposite, and the message gives both."""
    root, _ = place(tmp_path, "claude-with-wave-dir", rule(" []"))
    [(_, _, message)] = hits(check(root), "WAV008", root)
    assert "Claude Code takes it as no condition and injects the rule for every file" in message
    assert "Wave reads the literal pattern `[]` and never injects it" in message


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("paths", [' "src/**"', None])
def test_wav008_is_quiet_on_paths_with_globs_or_no_paths(tmp_path: Path, where: str, paths: str | None) -> None:
    root, _ = place(tmp_path, where, rule(paths))
    assert hits(check(root), "WAV008", root) == []


# --- WAV009 rule-not-loaded -------------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize(
    ("name", "hint"),
    [("notes.txt", ""), ("style.MD", "rename it to `style.md`"), ("react.mdc", "Cursor's `.mdc` rules")],
)
def test_wav009_fires_on_files_no_agent_loads(tmp_path: Path, where: str, name: str, hint: str) -> None:
    root, _ = place(tmp_path, where, "Use tabs.\n", name=name)
    [(path, line, message)] = hits(check(root), "WAV009", root)
    assert path.endswith(f"rules/{name}") and line is None
    assert message.startswith("Not a `.md` file: ") and hint in message
    agents = " and ".join(readers_of(where))
    assert message.startswith(f"Not a `.md` file: {agents} {'skip' if ' and ' in agents else 'skips'} it")


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("name", ["style.md", ".gitkeep", ".DS_Store"])
def test_wav009_is_quiet_on_rules_and_dotfiles(tmp_path: Path, where: str, name: str) -> None:
    root, _ = place(tmp_path, where, "Use tabs.\n", name=name)
    assert hits(check(root), "WAV009", root) == []


# --- WAV010 rule-paths-misread ----------------------------------------------------------------

MISREAD = {
    "flow-list": (" [src/**, lib/**]", "a flow list stays the one literal pattern `[src/**, lib/**]`"),
    "comma-string": (' "src/**/*.ts, lib/**"', "a string is one pattern, never split on commas"),
    "folded-scalar": (" >-\n  src/**\n  lib/**", "a string is one pattern, never split on spaces"),
    "continuation": (" src/**\n  lib/**", "it reads `src/**` where YAML reads `src/** lib/**`"),
    "inline-comment": (
        '\n  - src/** # the sources\n  - "lib/**"',
        "it keeps the inline `# comment` in the value: it reads `src/** # the sources`, `lib/**`",
    ),
}


@pytest.mark.parametrize("case", list(MISREAD))
@pytest.mark.parametrize("where", ["wave", "claude-with-wave-dir", "claude-with-agents-setting"])
def test_wav010_fires_where_wave_reads_paths(tmp_path: Path, where: str, case: str) -> None:
    """Each way Wave's reader takes `paths` differently from YAML, wherever Wave reads the file."""
    paths, why = MISREAD[case]
    root, rel = place(tmp_path, where, rule(paths))
    [(path, line, message)] = hits(check(root), "WAV010", root)
    assert (path, line) == (rel, 2)
    assert message.startswith(f"Wave misreads `paths`: {why}")
    advice = "Move the comment to a line of its own" if case == "inline-comment" else "Write a block list"
    assert advice in message


@pytest.mark.parametrize("case", list(MISREAD))
def test_wav010_is_quiet_where_only_claude_code_reads(tmp_path: Path, case: str) -> None:
    """The same files under `.claude/rules` of a project without Wave: Claude Code reads YAML."""
    root, _ = place(tmp_path, "claude-only", rule(MISREAD[case][0]))
    assert hits(check(root), "WAV010", root) == []


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize(
    "paths", ['\n  - "src/**"\n  - "lib/**"', "\n- src/**\n- lib/**", ' "src/**"', " >-\n  src/**"]
)
def test_wav010_is_quiet_on_what_every_reader_gets_right(tmp_path: Path, where: str, paths: str) -> None:
    root, _ = place(tmp_path, where, rule(paths))
    assert hits(check(root), "WAV010", root) == []


def test_wav010_a_bom_hides_paths_from_wave(tmp_path: Path) -> None:
    """Behind a BOM Wave sees no frontmatter: the rule is always on for it. The message says
    that (it used to say "it reads `None`") and that the fix is the BOM, not a block list."""
    root, rel = place(tmp_path, "wave", "\ufeff" + rule('\n  - "src/**"'))
    [(path, line, message)] = hits(check(root), "WAV010", root)
    assert (path, line) == (rel, 2)
    assert message == (
        "Wave misreads `paths`: it finds no `paths` (a byte-order mark hides the whole frontmatter from it), "
        "so it applies the rule to every file. Save the file without the byte-order mark (TXT001 fixes it)."
    )


# --- WAV011 rule-shadowed ---------------------------------------------------------------------


def test_wav011_fires_on_a_claude_rule_that_a_wave_rule_replaces(tmp_path: Path) -> None:
    """Wave loads `.claude/rules` then `.wave/rules`; the ids match (`web/style.md`)."""
    write_tree(tmp_path, {".claude/rules/web/style.md": "Two spaces.\n", ".wave/rules/web/style.md": "Tabs.\n"})
    [(path, line, message)] = hits(check(tmp_path), "WAV011", tmp_path)
    assert (path, line) == (".claude/rules/web/style.md", None)
    assert message.startswith("Wave loads `.wave/rules/web/style.md` after this file")
    assert "(`web/style.md`)" in message


def test_wav011_is_quiet_for_different_ids(tmp_path: Path) -> None:
    write_tree(tmp_path, {".claude/rules/style.md": "Two spaces.\n", ".wave/rules/web/style.md": "Tabs.\n"})
    assert hits(check(tmp_path), "WAV011", tmp_path) == []


def test_wav011_is_quiet_when_wave_is_not_an_agent_of_the_project(tmp_path: Path) -> None:
    """`agents = ["claude-code"]`: no one loads both dirs, so nothing replaces anything for the
    `.claude` rule (Claude Code never reads `.wave/rules`)."""
    write_tree(
        tmp_path,
        {
            "mnemolint.toml": 'agents = ["claude-code"]\n',
            ".claude/rules/style.md": "Two spaces.\n",
            ".wave/rules/style.md": "Tabs.\n",
        },
    )
    assert hits(check(tmp_path), "WAV011", tmp_path) == []


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of its own: user-level rules dirs are `$HOME/.claude/rules` and `$HOME/.wave/rules`."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    return path


def test_wav011_across_user_and_project_with_user_rules(tmp_path: Path, home: Path) -> None:
    """Load order `~/.claude/rules` → `~/.wave/rules` → `.claude/rules` → `.wave/rules`: each
    earlier `style.md` is replaced by the project's `.wave/rules/style.md`, named as the winner."""
    project = tmp_path / "project"
    for folder in (home / ".claude/rules", home / ".wave/rules", project / ".claude/rules", project / ".wave/rules"):
        write_tree(folder, {"style.md": f"style from {folder}\n"})
    write_tree(home / ".wave/rules", {"mine.md": "Only mine.\n"})
    found = hits(check(project, user_rules=True), "WAV011", project)
    assert sorted(path for path, _, _ in found) == [
        "../home/.claude/rules/style.md",
        "../home/.wave/rules/style.md",
        ".claude/rules/style.md",
    ]
    assert all(message.startswith("Wave loads `.wave/rules/style.md` after this file") for _, _, message in found)


def test_user_rules_are_linted_only_with_the_flag(tmp_path: Path, home: Path) -> None:
    """Without `--user-rules` nothing under HOME is read; with it, a user rule's globs are matched
    against the project being linted (the session's folder)."""
    write_tree(home / ".wave/rules", {"mine.md": rule('\n  - "nowhere/**"\n  - "src/**"')})
    project = write_tree(tmp_path / "project", {**SOURCES, ".wave/rules/ok.md": "Fine.\n"})
    without = run_cli("check", "--select", "WAV", ".", cwd=project, env={"HOME": str(home)})
    assert (without.returncode, without.stderr) == (0, "")
    with_flag = run_cli("check", "--select", "WAV", "--user-rules", ".", cwd=project, env={"HOME": str(home)})
    assert (with_flag.returncode, with_flag.stderr) == (1, "")
    assert "../home/.wave/rules/mine.md:3:1: WAV002 `nowhere/**` matches no file of the project for Wave" in (
        with_flag.stdout
    )
    assert "src/**" not in with_flag.stdout


def test_user_level_claude_rules_go_by_the_project_agents(tmp_path: Path, home: Path) -> None:
    """`~/.claude/rules` is read by the agents the linted project uses: a comma string there is
    WAV010 only when the project uses Wave."""
    write_tree(home / ".claude/rules", {"mine.md": rule(' "src/**, lib/**"')})
    claude_only = write_tree(tmp_path / "claude-only", {**SOURCES, "CLAUDE.md": "# rules\n"})
    assert hits(check(claude_only, user_rules=True), "WAV010", claude_only) == []
    both = write_tree(tmp_path / "both", {**SOURCES, "CLAUDE.md": "# rules\n", ".wave/.keep": ""})
    assert len(hits(check(both, user_rules=True), "WAV010", both)) == 1


# --- WAV012 rule-glob-root-only ---------------------------------------------------------------


@pytest.mark.parametrize("where", ["wave", "claude-with-wave-dir", "claude-with-agents-setting"])
def test_wav012_fires_on_a_bare_glob_wave_reads(tmp_path: Path, where: str) -> None:
    root, rel = place(tmp_path, where, rule('\n  - "README.md"\n  - "*.ts"'))
    found = hits(check(root), "WAV012", root)
    assert [(path, line) for path, line, _ in found] == [(rel, 3), (rel, 4)]
    assert found[1][2].startswith("`*.ts` has no `/`, so for Wave (minimatch without matchBase)")
    assert "Write `**/*.ts` to match at any depth" in found[1][2]


def test_wav012_does_not_apply_to_claude_code(tmp_path: Path) -> None:
    """Claude Code matches `.claude/rules` globs with gitignore semantics: `*.ts` at any depth."""
    root, _ = place(tmp_path, "claude-only", rule('\n  - "*.ts"'))
    diagnostics = check(root)
    assert hits(diagnostics, "WAV012", root) == [] and hits(diagnostics, "WAV002", root) == []


@pytest.mark.parametrize("where", ALL)
@pytest.mark.parametrize("paths", ['\n  - "**/*.ts"\n  - "src/*.ts"', " [a.ts, b.ts]"])
def test_wav012_is_quiet_on_globs_with_a_slash_or_a_wave_flow_literal(tmp_path: Path, where: str, paths: str) -> None:
    """`[a.ts, b.ts]` is WAV010's finding for Wave; WAV012 used to add "write `**/[a.ts, b.ts]`"."""
    root, _ = place(tmp_path, where, rule(paths))
    assert hits(check(root), "WAV012", root) == []


# --- WAV013 rule-glob-negated -----------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
def test_wav013_fires_on_a_lone_negated_glob(tmp_path: Path, where: str) -> None:
    """Alone, `!lib/**` is every file but `lib/` for Wave, and no file for Claude Code."""
    root, rel = place(tmp_path, where, rule('\n  - "!lib/**"'))
    found = hits(check(root), "WAV013", root)
    assert {(path, line) for path, line, _ in found} == {(rel, 3)}
    effects = {message.split(": ", 1)[1].split(",")[0] for _, _, message in found}
    expected = {
        "wave": {"Wave matches each pattern on its own"},
        "claude-only": {"Claude Code's gitignore matching only takes files back out with `!`"},
    }
    both = expected["wave"] | expected["claude-only"]
    assert effects == expected.get(where, both)


def test_wav013_beside_a_positive_glob_is_an_exclusion_for_claude_code(tmp_path: Path) -> None:
    """`src/**` then `!src/gen/**`: Claude Code excludes, as meant; Wave still ORs the two."""
    root, _ = place(tmp_path, "claude-with-wave-dir", rule('\n  - "src/**"\n  - "!src/gen/**"'))
    [(_, line, message)] = hits(check(root), "WAV013", root)
    assert line == 4 and message.startswith("`!src/gen/**`: Wave matches each pattern on its own")
    root_claude, _ = place(tmp_path / "c", "claude-only", rule('\n  - "src/**"\n  - "!src/gen/**"'))
    assert hits(check(root_claude), "WAV013", root_claude) == []


@pytest.mark.parametrize("where", ALL)
def test_wav013_is_quiet_without_negation(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, rule('\n  - "src/**"'))
    assert hits(check(root), "WAV013", root) == []


# --- WAV014 rule-readme-loaded ----------------------------------------------------------------


@pytest.mark.parametrize("where", ALL)
def test_wav014_fires_on_a_readme_in_a_rules_dir(tmp_path: Path, where: str) -> None:
    root, rel = place(tmp_path, where, "# Our rules\n\nOne file per topic.\n", name="README.md")
    [(path, line, message)] = hits(check(root), "WAV014", root)
    assert (path, line) == (rel, None)
    agents = " and ".join(readers_of(where))
    verb = "load" if len(readers_of(where)) > 1 else "loads"
    assert message.startswith(f"{agents} {verb} README.md as a rule, for every file: no agent skips it.")


def test_wav014_a_scoped_readme_is_loaded_when_its_paths_match(tmp_path: Path) -> None:
    root, _ = place(tmp_path, "wave", rule('\n  - "src/**"'), name="sub/README.md")
    [(_, _, message)] = hits(check(root), "WAV014", root)
    assert "as a rule, when its `paths` match" in message


@pytest.mark.parametrize("where", ALL)
def test_wav014_is_quiet_on_other_names(tmp_path: Path, where: str) -> None:
    root, _ = place(tmp_path, where, "# Our rules\n", name="readme-first.md")
    assert hits(check(root), "WAV014", root) == []


# --- The same file, judged per reader ---------------------------------------------------------


def test_the_same_rule_file_is_judged_differently_per_place(tmp_path: Path) -> None:
    """One file with a comma string, a bare `*.ts` and an absolute glob. Under `.wave/rules`
    Wave reads it: WAV010 (the comma string is one pattern). Under `.claude/rules` of a
    Claude-only project: no finding (Claude Code splits on commas, matches `*.ts` at any depth
    and anchors `/src`). With `.wave/` beside it: Wave's findings come back."""
    text = rule(' "*.ts, /src/**"')
    results = {}
    for where in ("wave", "claude-only", "claude-with-wave-dir"):
        root, _ = place(tmp_path / where, where, text)
        results[where] = sorted({d.code for d in check(root)})
    assert results == {"wave": ["WAV010"], "claude-only": [], "claude-with-wave-dir": ["WAV010"]}


def test_agents_setting_overrides_detection(tmp_path: Path) -> None:
    """`agents = ["wave"]` without a `.wave/` dir: `.claude/rules` is read by Wave only."""
    root, _ = place(tmp_path, "claude-only", rule(' "src/**, lib/**"'), files={"mnemolint.toml": 'agents = ["wave"]\n'})
    tree = discover([str(root)], load_settings(None, str(root)))
    [rules_dir] = [c for c in tree.containers if isinstance(c, RulesDir)]
    assert rules_dir.readers == (WAVE,)
    assert len(hits(check(root), "WAV010", root)) == 1


def test_an_unknown_agent_is_a_usage_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"mnemolint.toml": 'agents = ["wav"]\n', ".claude/rules/r.md": "x\n"})
    result = run_cli("check", ".", cwd=tmp_path)
    assert result.returncode == 2 and "`agents` must be a list of wave, claude-code" in result.stderr


@pytest.mark.parametrize(
    ("files", "readers"),
    [
        ({".wave/.keep": ""}, (WAVE,)),
        ({".claude/.keep": ""}, (CLAUDE_CODE,)),
        ({"CLAUDE.md": "x\n"}, (CLAUDE_CODE,)),
        ({".wave/.keep": "", "CLAUDE.md": "x\n"}, (WAVE, CLAUDE_CODE)),
        ({}, ()),
    ],
)
def test_which_agents_a_project_uses(tmp_path: Path, files: dict, readers: tuple) -> None:
    """Wave where `.wave/` exists, Claude Code where `.claude/` or `CLAUDE.md` does."""
    write_tree(tmp_path, files)
    assert Project(str(tmp_path), {}).readers == readers
    assert Project(str(tmp_path), {"agents": ["claude-code"]}).readers == (CLAUDE_CODE,)


def test_checkout_relative_paths(tmp_path: Path) -> None:
    """Seed 000 path rules 6 and 7: a worktree path maps to its checkout path; a path outside
    the project cannot be said relative to it (None: the rule does not apply, explicitly)."""
    assert checkout_relative(".wave/worktrees/x/src/a.ts") == "src/a.ts"
    assert checkout_relative(".wave/worktrees/x") == ".wave/worktrees/x"
    assert checkout_relative("src/.wave/worktrees/x/a.ts") == "src/.wave/worktrees/x/a.ts"
    project = Project(str(tmp_path / "p"), {})
    assert project.relative(str(tmp_path / "p/.wave/worktrees/w/src/a.ts")) == "src/a.ts"
    assert project.relative(str(tmp_path / "p-other/a.ts")) is None
    assert project.relative(str(tmp_path / "a.ts")) is None


# --- The parsed rule objects ------------------------------------------------------------------

PARSED = {
    "block-list.md": rule('\n  - "src/**/*.ts"\n  - lib/**'),
    "block-list-at-key-indent.md": rule("\n- src/**\n- lib/**"),
    "folded.md": rule(" >-\n  src/**\n  lib/**"),
    "folded-one.md": rule(" >-\n  src/**/*.{ts,tsx}"),
    "literal.md": rule(" |\n  src/**\n  lib/**"),
    "flow.md": rule(" [src/**, lib/**]"),
    "comma.md": rule(' "src/**/*.{ts,tsx}, lib/**, docs/**"'),
    "continuation.md": rule(" src/**\n  lib/**"),
    "globstar-only.md": rule('\n  - "**"\n  - "**/**"'),
    "negated.md": rule('\n  - "src/**"\n  - "!src/gen/**"'),
    "forms.md": rule('\n  - ./src/**\n  - /src/**\n  - "../x/**"\n  - "src/{a,b"'),
    "priority.md": rule(' "src/**"', extra="priority: 5"),
    "none.md": "Always on.\n",
    "bom.md": "\ufeff" + rule('\n  - "src/**"'),
    # Unquoted globs that break the YAML (FM001): Claude Code's second try quotes only top-level
    # `key: value` lines, never an indented item (oracle cl32a: such a rule loads at start), and
    # Wave's reader never parsed YAML in the first place.
    "alias.md": rule("\n  - **/*.md"),
    "flow-mapping.md": rule("\n  - {src,lib}/**"),
}


def readings(root: Path) -> dict[str, object]:
    """Each rule's YAML `paths`, Wave's reader output and each agent's Reading, as plain data."""
    from mnemolint.parse import wave_frontmatter

    tree = discover([str(root)], load_settings(None, str(root)))
    [rules_dir] = [c for c in tree.containers if isinstance(c, RulesDir)]
    out: dict[str, object] = {}
    for document in rules_dir.rules:
        data = document.frontmatter.data
        out[document.rel] = {
            "yaml paths": data.get("paths", "(none)") if isinstance(data, dict) else "(no mapping)",
            "wave reader": wave_frontmatter.read(document.text or ""),
            "readings": {
                reading.reader.title: {
                    "value": reading.value,
                    "unconditional": reading.unconditional,
                    "globs": [(glob.written, glob.pattern, glob.problem) for glob in reading.globs],
                }
                for reading in rules_dir.reading(document, 1_000)
            },
        }
    return out


def test_parsed_rules_per_reader(tmp_path: Path, snapshot) -> None:
    """Block scalars and block lists parsed to their real values, never their indicators
    (seed 000 path rules 4), and what each agent makes of them: Wave's reader output and each
    Reading's globs, for a `.claude/rules` dir both agents read."""
    write_tree(tmp_path, {".wave/.keep": "", **{f"{CLAUDE_RULES}/{name}": text for name, text in PARSED.items()}})
    parsed = readings(tmp_path)
    assert parsed["folded.md"]["yaml paths"] == "src/** lib/**"  # the folded value, not ">-"
    assert parsed["block-list.md"]["wave reader"] == {"paths": ["src/**/*.ts", "lib/**"]}
    assert parsed["alias.md"]["yaml paths"] == "(no mapping)"
    assert parsed["alias.md"]["readings"]["Claude Code"]["globs"] == []  # no `paths`: it loads at start
    assert parsed == snapshot


# --- Symlinked rule folders -------------------------------------------------------------------


def test_a_linked_folder_outside_the_repo_is_loaded_and_linted(tmp_path: Path) -> None:
    """Sharing rules across projects through a link (seed 000, subdirectory rules 2): its rules
    are rules of this dir (id `shared/…`), and linted like the others."""
    shared = write_tree(tmp_path / "shared", {"web.md": rule('\n  - "nowhere/**"'), "ok.md": "Fine.\n"})
    root = write_tree(tmp_path / "repo", {**SOURCES, ".wave/rules/own.md": "Own.\n"})
    os.symlink(shared, root / ".wave/rules/shared")
    tree = discover([str(root)], load_settings(None, str(root)))
    [rules_dir] = [c for c in tree.containers if isinstance(c, RulesDir)]
    assert [document.rel for document in rules_dir.rules] == ["own.md", "shared/ok.md", "shared/web.md"]
    [(path, line, _)] = hits(check(root), "WAV002", root)
    assert (path, line) == (".wave/rules/shared/web.md", 3)


def test_a_link_loop_is_reported_once_and_the_walk_ends(tmp_path: Path) -> None:
    """A link to its own folder, a link to the rules dir's parent, and two links pointing at
    each other: each loop is reported once (LNK004), nothing is walked twice, and the run ends."""
    root = write_tree(tmp_path / "repo", {".wave/rules/a.md": "A.\n", ".wave/rules/sub/b.md": "B.\n"})
    rules = root / ".wave/rules"
    os.symlink(".", rules / "self")
    os.symlink("../..", rules / "sub/up")
    os.symlink("ping", rules / "pong")
    os.symlink("pong", rules / "ping")
    started = time.perf_counter()
    diagnostics = check(root, select="LNK")
    assert time.perf_counter() - started < 10
    found = sorted(hits(diagnostics, "LNK004", root))
    assert [(path, line, message.split(". ")[0]) for path, line, message in found] == [
        (".wave/rules/ping", None, "Symlink loop: `pong` resolves back to itself"),
        (".wave/rules/pong", None, "Symlink loop: `ping` resolves back to itself"),
        (".wave/rules/self", None, "Symlink loop: `.` points back to a directory it is inside"),
        (".wave/rules/sub/up", None, "Symlink loop: `../..` points back to a directory it is inside"),
    ]
    tree = discover([str(root)], load_settings(None, str(root)))
    [rules_dir] = [c for c in tree.containers if isinstance(c, RulesDir)]
    assert [document.rel for document in rules_dir.rules] == ["a.md", "sub/b.md"]


def test_a_loop_through_an_outside_folder_ends(tmp_path: Path) -> None:
    """A linked outside folder that links back into the rules dir: followed once, then a loop."""
    outside = write_tree(tmp_path / "outside", {"x.md": "X.\n"})
    root = write_tree(tmp_path / "repo", {".claude/rules/a.md": "A.\n"})
    os.symlink(outside, root / ".claude/rules/ext")
    os.symlink(root / ".claude/rules", outside / "back")
    found = hits(check(root, select="LNK"), "LNK004", root)
    assert [path for path, _, _ in found] == [".claude/rules/ext/back"]


def never_loaded(root: Path, link: str) -> dict[str, list[str]]:
    tree = discover([str(root)], load_settings(None, str(root)))
    [record] = [record for record in tree.links if record.path == str(root / link)]
    assert record.problem == "dangling"
    [rules_dir] = [c for c in tree.containers if isinstance(c, RulesDir) and str(root / link).startswith(c.path)]
    return {reader.title: sorted(ids) for reader, ids in rules_dir.never_loaded(record.path).items()}


def test_a_dangling_link_loses_the_later_entries_for_wave(tmp_path: Path) -> None:
    """Wave stops scanning the directory at the dangling link: the entries after it by name
    (`c.md`, the folder `d/`) are never loaded; `a.md` before it is (MemoryRuleManager.ts:114-119)."""
    root = write_tree(tmp_path, {".wave/rules/a.md": "A.\n", ".wave/rules/c.md": "C.\n", ".wave/rules/d/x.md": "X.\n"})
    os.symlink(tmp_path / "gone", root / ".wave/rules/b-link")
    assert never_loaded(root, ".wave/rules/b-link") == {"Wave": ["c.md", "d/x.md"]}


def test_a_dangling_link_loses_the_whole_level_for_claude_code(tmp_path: Path) -> None:
    """Claude Code's `processMdRules` returns nothing for that level, subfolders included
    (claudemd.ts:712-787); Wave, which reads this dir too (`.wave/` exists), loses what follows
    the link by name. A sibling level keeps its rules for both."""
    root = write_tree(
        tmp_path,
        {
            ".wave/.keep": "",
            ".claude/rules/a.md": "A.\n",
            ".claude/rules/z.md": "Z.\n",
            ".claude/rules/sub/s.md": "S.\n",
            ".claude/rules/other/o.md": "O.\n",
        },
    )
    os.symlink(tmp_path / "gone", root / ".claude/rules/m-link")
    assert never_loaded(root, ".claude/rules/m-link") == {
        "Claude Code": ["a.md", "other/o.md", "sub/s.md", "z.md"],
        "Wave": ["other/o.md", "sub/s.md", "z.md"],
    }
    os.symlink(tmp_path / "gone", root / ".claude/rules/sub/0-link")
    assert never_loaded(root, ".claude/rules/sub/0-link") == {"Claude Code": ["sub/s.md"], "Wave": ["sub/s.md"]}


def test_a_missing_or_empty_rules_dir_is_not_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {".wave/.keep": "", ".claude/rules/.gitkeep": ""})
    assert check(tmp_path, select="ALL") == []


# --- Unreadable rule files --------------------------------------------------------------------


def test_an_unreadable_rule_file_is_nst002_and_the_run_goes_on(tmp_path: Path) -> None:
    if IS_ROOT:
        pytest.skip("root reads files whatever their mode")
    root, rel = place(tmp_path, "claude-with-wave-dir", rule('\n  - "docs/**"'))
    write_tree(root, {".wave/rules/dead.md": rule('\n  - "nowhere/**"')})
    (root / rel).chmod(0)
    try:
        diagnostics = check(root, select=["WAV", "NST"])
    finally:
        (root / rel).chmod(0o644)
    assert [path for path, _, _ in hits(diagnostics, "NST002", root)] == [rel]
    assert [path for path, _, _ in hits(diagnostics, "WAV002", root)] == [".wave/rules/dead.md"]


def test_a_rule_file_too_large_to_read_is_nst002_and_the_run_goes_on(tmp_path: Path) -> None:
    """The unread path without chmod (root reads any mode): over `max-file-bytes`, the file is
    not read; no WAV rule trips over its missing text, the other rule files are still linted."""
    root, rel = place(tmp_path, "claude-with-wave-dir", rule('\n  - "docs/**"', body="x" * 5_000), name="README.md")
    write_tree(root, {".wave/rules/dead.md": rule('\n  - "nowhere/**"')})
    diagnostics = check(root, select=["WAV", "NST"], max_file_bytes=1_000)
    [(path, _, message)] = hits(diagnostics, "NST002", root)
    assert path == rel and "over max-file-bytes" in message
    assert [path for path, _, _ in hits(diagnostics, "WAV002", root)] == [".wave/rules/dead.md"]


def test_wav011_a_rule_a_dangling_link_keeps_out_replaces_nothing(tmp_path: Path) -> None:
    """Wave stops scanning `.wave/rules` at `a-link.md`, so its `shared.md` never loads and the
    `.claude/rules/shared.md` it would have replaced stays."""
    write_tree(tmp_path, {".claude/rules/shared.md": "one\n", ".wave/rules/shared.md": "two\n"})
    assert len(hits(check(tmp_path), "WAV011", tmp_path)) == 1
    os.symlink(tmp_path / "gone.md", tmp_path / ".wave" / "rules" / "a-link.md")
    assert hits(check(tmp_path), "WAV011", tmp_path) == []


def test_an_empty_or_null_paths_is_wav008s_alone(tmp_path: Path) -> None:
    """Wave reads `paths: ~` as the string `~`: WAV008 says so, no dead-glob or root-only finding."""
    write_tree(tmp_path, {**SOURCES, ".wave/rules/r.md": rule(" ~")})
    assert sorted({d.code for d in check(tmp_path)}) == ["WAV008"]


def test_a_literal_tail_prefilter_keeps_dead_and_live_patterns_apart(tmp_path: Path) -> None:
    """`**/*.py` is live through `lib/c.py`; `**/*.rs` and `src/*.py` are dead: the pre-filter on
    the literal end of a pattern changes what is tried, never the verdict."""
    write_tree(tmp_path, {**SOURCES, ".wave/rules/r.md": rule('\n  - "**/*.py"\n  - "**/*.rs"\n  - "src/*.py"')})
    dead = sorted(message.split("`")[1] for _, _, message in hits(check(tmp_path), "WAV002", tmp_path))
    assert dead == ["**/*.rs", "src/*.py"]


def test_the_rules_of_a_linked_worktree_are_not_linted_twice(tmp_path: Path) -> None:
    """`.wave/worktrees/<name>/` is a checkout of the same repository: its rules are copies."""
    copy = rule('\n  - "/src/**"')
    write_tree(tmp_path, {**SOURCES, ".wave/rules/r.md": copy, ".wave/worktrees/x/.wave/rules/r.md": copy})
    assert [path for path, _, _ in hits(check(tmp_path), "WAV003", tmp_path)] == [".wave/rules/r.md"]


def test_a_bom_on_a_rule_file_costs_its_paths(tmp_path: Path) -> None:
    """TXT001 names what the kind loses: a rule file's `paths` (a topic's name, description, type)."""
    write_tree(tmp_path, {**SOURCES, ".wave/rules/r.md": "\ufeff" + rule('\n  - "src/**"')})
    [bom] = [d for d in check(tmp_path, select="TXT001") if d.code == "TXT001"]
    assert bom.message.endswith("misses the frontmatter, and with it `paths`, so the rule applies to every file.")


def test_wav002_judges_a_rule_named_alone_against_the_whole_project(tmp_path: Path) -> None:
    """pre-commit passes the changed rule file only: its globs still see every file of the project
    (here outside git, through the project's own listing), so `*.ts` is dead for Wave alone."""
    write_tree(tmp_path, {"src/a.ts": "x\n", ".claude/rules/star.md": rule(' "*.ts"'), ".wave/.keep": ""})
    settings = load_settings(None, str(tmp_path))
    settings.select = ["WAV002"]
    result = lint([str(tmp_path / ".claude" / "rules" / "star.md")], settings)
    assert [d.message.split(" for ")[1].split(",")[0] for d in result.diagnostics] == ["Wave"]


def test_wav011_holds_when_one_rule_file_is_named_alone(tmp_path: Path) -> None:
    """The rules dirs beside the named file's are walked too: the shadowing is still seen."""
    write_tree(tmp_path, {".claude/rules/shared.md": "one\n", ".wave/rules/shared.md": "two\n"})
    settings = load_settings(None, str(tmp_path))
    settings.select = ["WAV011"]
    result = lint([str(tmp_path / ".claude" / "rules" / "shared.md")], settings)
    assert [os.path.relpath(d.path, tmp_path) for d in result.diagnostics] == [".claude/rules/shared.md"]


def test_the_home_folder_s_own_rules_are_project_rules_when_it_is_linted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dotfiles repository at `$HOME`: its `.wave/rules` are the project's, not user-level ones."""
    write_tree(tmp_path, {".wave/rules/r.md": "r\n"})
    monkeypatch.setenv("HOME", str(tmp_path))
    tree = discover([str(tmp_path)], load_settings(None, str(tmp_path)))
    assert [container.user for container in tree.containers if isinstance(container, RulesDir)] == [False]


def test_an_agents_setting_without_wave_leaves_wave_rules_unjudged(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {**SOURCES, "mnemolint.toml": 'agents = ["claude-code"]\n', ".wave/rules/r.md": rule(' "*.ts"')}
    )
    assert [d.code for d in check(tmp_path) if d.code in ("WAV002", "WAV012")] == []
