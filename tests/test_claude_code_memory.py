"""Claude Code's memory facts (agents/claude_code.py), checked against what the real client 2.1.332
did: the warning texts are the ones it sent in the oracle cases named, the second try's rewrites are
what its own rewriting function returned for each block, the slug hashes are Java's hashCode."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from conftest import codes, only, run_cli, run_lint, write_tree

from mnemolint.agents import CLAUDE_CODE
from mnemolint.agents import claude_code as cc
from mnemolint.load import load

# (block, what Claude Code 2.1.332's own rewrite made of it), recorded by running the client's
# function on each block; the port must give the same text.
REWRITES = [
    ("description: Build: use pnpm", 'description: "Build: use pnpm"'),
    ("description: Use `pnpm` not npm", 'description: "Use `pnpm` not npm"'),
    ("description: *star*", 'description: "*star*"'),
    ("type: project # note", 'type: "project # note"'),
    ('description: "quoted"', 'description: "quoted"'),
    ("description: 'single'", "description: 'single'"),
    ('description: "', 'description: "'),
    ("tags: [a, b]", "tags: [a, b]"),
    ("tags: [a, b", 'tags: "[a, b"'),
    ("tags: [a: b]", "tags: [a: b]"),
    ("  - **/*.md", "  - **/*.md"),
    ("paths:\n  - **/*.md", "paths:\n  - **/*.md"),
    ("x.y: a: b", "x.y: a: b"),
    ("key2: a: b", "key2: a: b"),
    ("_k-ey: @home", '_k-ey: "@home"'),
    ("description: Build: pnpm   ", 'description: "Build: pnpm   "'),
    ('description: a\\b: "c"', 'description: "a\\\\b: \\"c\\""'),
    ("description:Build: x", "description:Build: x"),
    ("description:  two  spaces: x", 'description: "two  spaces: x"'),
    ("description: line\r", "description: line\r"),
    ("\tname: x", "  name: x"),
    ("\t\tname: x\n\tother: y", "    name: x\n  other: y"),
    ("name:\t@x", 'name: "@x"'),
    ("description: 100%", 'description: "100%"'),
    ("description: a > b", 'description: "a > b"'),
    ("description: a | b", 'description: "a | b"'),
    ("description: trailing:", "description: trailing:"),
    ("description: ok", "description: ok"),
    ("description: {a: 1}", 'description: "{a: 1}"'),
    ("description: !tag x", 'description: "!tag x"'),
    ("description: & amp", 'description: "& amp"'),
    ("description: a\u2028b: c", "description: a\u2028b: c"),
    ("description: café: au lait", 'description: "café: au lait"'),
]


@pytest.mark.parametrize(("block", "client"), REWRITES)
def test_the_second_try_rewrites_a_block_as_the_client_does(block: str, client: str) -> None:
    assert cc.requote(block, lambda value: cc._is_list(value, 20)) == client


@pytest.mark.parametrize(
    ("block", "fields", "how"),
    [
        ("description: Build: use pnpm\n", {"description": "Build: use pnpm"}, cc.RETRIED),
        (
            "description: a: b\ntype: feedback # a note\n",
            {"description": "a: b", "type": "feedback # a note"},
            cc.RETRIED,
        ),
        ("description: *alias\n", {"description": "*alias"}, cc.RETRIED),  # an alias with no anchor fails first
        ("paths:\n  - **/*.ts\n", {}, cc.FAILED),  # an indented item is never quoted (cl32a)
        ('description: "unclosed\n', {}, cc.FAILED),
        ("description: fine\n", {"description": "fine"}, cc.YAML),
        ("- a\n- b\n", {}, cc.FAILED),  # not a mapping: no fields, no second try
    ],
)
def test_what_claude_code_reads_of_a_block(block: str, fields: dict, how: str) -> None:
    assert cc.read_frontmatter(block, 20) == (fields, how)


def test_the_block_ends_at_the_first_dashes_even_inside_a_value() -> None:
    assert cc.split_frontmatter("---\ntitle: a---b\n---\n\n  body\n") == ("title: a", "b\n---\n\n  body\n")
    assert cc.split_frontmatter("\ufeff---\nname: x\n---\nbody") == ("name: x\n", "body")
    assert cc.split_frontmatter("--- x\nname: y\n---\n") == (None, "--- x\nname: y\n---\n")  # no newline after it
    assert cc.split_frontmatter("no block") == (None, "no block")


def test_the_scan_reads_the_first_30_lines_only() -> None:
    late = "---\n" + "".join(f"k{n}: v\n" for n in range(30)) + "description: late\n---\n"
    assert "description" not in cc.scan_fields(late, 20)
    assert cc.scan_fields("---\r\ndescription: Build: crlf\r\n---\r\n", 20) == {"description": "Build: crlf"}


# The texts Claude Code 2.1.332 appended to MEMORY.md in the oracle cases named.
def _entry(number: int, tail: str = "") -> str:
    return f"- [Topic {number:03d}](t{number:03d}.md) — note {number:03d} MARK-L{number:03d}{tail}\n"


PAD = " " + "x" * 230
CLIENT_WARNINGS = [
    (
        "cl01a_mem250",
        "".join(_entry(n) for n in range(1, 251)),
        "> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut off, "
        'starting at line 201 ("- [Topic 201](t201.md) — note 201 MARK-L201"). Keep index entries to one line '
        "under ~200 chars; move detail into topic files.",
    ),
    (
        "cl01b_mem150_40kb",
        "".join(_entry(n, PAD) for n in range(1, 151)),
        "> WARNING: MEMORY.md is 40.3KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: "
        '60 of 150 lines were cut off, starting at line 91 ("- [Topic 091](t091.md) — note 091 MARK-L091…"). '
        "Keep index entries to one line under ~200 chars; move detail into topic files.",
    ),
    (
        "cl01c_mem250_40kb",
        "".join(_entry(n, PAD) for n in range(1, 251)),
        "> WARNING: MEMORY.md is 250 lines and 67.1KB. Only part of it was loaded: 160 of 250 lines were cut off, "
        'starting at line 91 ("- [Topic 091](t091.md) — note 091 MARK-L091…"). Keep index entries to one line '
        "under ~200 chars; move detail into topic files.",
    ),
]


@pytest.mark.parametrize(("case", "text", "client"), CLIENT_WARNINGS, ids=[case for case, _, _ in CLIENT_WARNINGS])
def test_the_warning_is_the_clients_byte_for_byte(case: str, text: str, client: str) -> None:
    assert load(text, CLAUDE_CODE).warning == client


def test_a_cut_inside_line_one_says_so() -> None:
    loaded = load("- " + "y" * 30_000 + "\n", CLAUDE_CODE)
    assert loaded.in_line and loaded.loaded_lines == 1
    assert "Only part of it was loaded: everything after the first 25000 characters of line 1 was cut off." in (
        loaded.warning or ""
    )


def test_a_long_second_line_is_cut_at_the_first_newline() -> None:
    loaded = load("- short\n- " + "w " * 15_000 + "\n- third\n", CLAUDE_CODE)
    assert not loaded.in_line and loaded.loaded_lines == 1
    assert "2 of 3 lines were cut off, starting at line 2 (" in (loaded.warning or "")


def test_a_blank_line_after_the_cut_is_not_quoted() -> None:
    text = "".join(_entry(n) for n in range(1, 201)) + "\n" + "".join(_entry(n) for n in range(201, 221))
    assert "lines were cut off, starting at line 201. Keep" in (load(text, CLAUDE_CODE).warning or "")


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("short", "short"),
        ("- " + "z" * 150, "- " + "z" * 77 + "…"),  # no space past half: the hard cut, trimmed
        ("word " * 30, ("word " * 15).rstrip() + "…"),
        ("a" * 70 + " " + "b" * 20, "a" * 70 + "…"),
        ("e" * 64 + "\U0001f600" * 9, "e" * 64 + "\U0001f600" * 7 + "…"),  # 79 units end inside a pair: dropped
    ],
)
def test_the_quoted_line_is_shortened_at_a_word(line: str, shown: str) -> None:
    assert cc.shorten_at_word(line, 80) == shown


@pytest.mark.parametrize(
    ("key", "slug"),
    [
        ("/work/oracle-h5/work/claude-cl01a_mem250", "-work-oracle-h5-work-claude-cl01a-mem250"),
        ("/tmp/x.y/sub_dir/é", "-tmp-x-y-sub-dir--"),
        ("/tmp/\U0001f600", "-tmp---"),  # two UTF-16 units, two dashes
    ],
)
def test_the_slug_replaces_every_unit_outside_letters_and_digits(key: str, slug: str) -> None:
    assert cc.project_slug(key) == slug


def test_a_slug_past_200_units_ends_in_the_keys_hash() -> None:
    key = "/" + "a" * 250
    value = 0
    for char in key:
        value = (value * 31 + ord(char)) % (1 << 32)
    signed = value - (1 << 32) if value >= 1 << 31 else value
    assert cc.project_slug(key) == "-" + "a" * 199 + "-" + cc._base36(abs(signed))
    assert cc._base36(2147483648) == "zik0zk"  # |Integer.MIN_VALUE|, the one hash whose abs is past int


def test_auto_memory_location_and_switches(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = write_tree(tmp_path / "proj", {".git/HEAD": "ref\n", "sub/x.txt": "x"})
    env = {"HOME": str(home)}
    expected = home / ".claude" / "projects" / cc.project_slug(str(project)) / "memory"
    assert cc.auto_memory_dir(str(project / "sub"), {**env, "CLAUDE_CONFIG_DIR": str(home / ".claude")}) == str(
        expected
    )
    assert cc.auto_memory_off(str(project), env) is None
    assert "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1" in (
        cc.auto_memory_off(str(project), {**env, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}) or ""
    )
    write_tree(project, {".claude/settings.json": json.dumps({"autoMemoryEnabled": False})})
    assert "autoMemoryEnabled: false" in (cc.auto_memory_off(str(project), env) or "")
    assert cc.auto_memory_off(str(project), {**env, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}) is None  # forced on


def test_check_auto_memory_lints_the_projects_memory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = write_tree(tmp_path / "my_project", {"CLAUDE.md": "# project\n"})
    memory = home / ".claude" / "projects" / cc.project_slug(str(project)) / "memory"
    write_tree(
        memory,
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: A\ndescription: Build: pnpm\ntype: project\n---\nA\n"},
    )
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    plain = run_cli("check", "--no-cache", str(project), env=env)
    assert "FM001" not in plain.stdout
    found = run_cli("check", "--no-cache", "--auto-memory", str(project), env=env)
    assert "a.md:3:19: FM001" in found.stdout and "second try" in found.stdout
    off = run_cli(
        "check", "--no-cache", "--auto-memory", str(project), env={**env, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}
    )
    assert "FM001" not in off.stdout and "auto memory is off" in off.stderr


TOPIC_RETRIED = "---\nname: Build\ndescription: Build: use pnpm, not npm\ntype: project\n---\nRun pnpm.\n"


def test_fm001_is_a_warning_with_the_clients_quoting_when_the_second_try_reads_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"memory/MEMORY.md": "- [Build](build.md) — b\n", "memory/build.md": TOPIC_RETRIED})
    found = only(run_lint(root), "FM001")
    assert [finding.severity for finding in found] == ["warning"]
    assert found[0].fix is not None and found[0].fix.applicability == "safe"
    run_cli("check", "--no-cache", "--fix", "--select", "FM001", str(root / "memory"))
    assert 'description: "Build: use pnpm, not npm"' in (root / "memory/build.md").read_text()
    assert only(run_lint(root), "FM001") == []


def test_recovered_fields_feed_the_other_rules(tmp_path: Path) -> None:
    long = "Build: " + "very long description " * 20
    root = write_tree(
        tmp_path,
        {
            "memory/MEMORY.md": "- [Build](build.md) — b\n",
            "memory/build.md": f"---\nname: Build\ndescription: {long}\n---\nx\n",
        },
    )
    assert "MEM205" in codes(run_lint(root))  # no `type`: only known once the fields are read


def test_an_inline_comment_makes_the_quoting_unsafe(tmp_path: Path) -> None:
    text = "---\nname: Z\ndescription: Build: pnpm\ntype: project # note\n---\nz\n"
    root = write_tree(tmp_path, {"memory/MEMORY.md": "- [Z](z.md) — z\n", "memory/z.md": text})
    (finding,) = only(run_lint(root), "FM001")
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert 'It reads `type` as "project # note"' in finding.message


def test_fm001_is_an_error_where_the_second_try_fails_too(tmp_path: Path) -> None:
    rules = {
        ".claude/rules/item.md": "---\npaths:\n  - **/*.ts\n---\nrule\n",  # never quoted: no paths (cl32a)
        ".claude/rules/crlf.md": "---\r\npaths: **/*.ts\r\n---\r\nrule\r\n",  # CR lines are not quoted (cl32a)
        ".claude/rules/top.md": "---\npaths: **/*.ts\n---\nrule\n",  # quoted: conditional (cl32a)
    }
    found = {os.path.basename(d.path): d.severity for d in only(run_lint(write_tree(tmp_path, rules)), "FM001")}
    assert found == {"item.md": "error", "crlf.md": "error", "top.md": "warning"}


def test_manifest_and_api_read_what_claude_code_reads(tmp_path: Path) -> None:
    from mnemolint import api

    root = write_tree(tmp_path, {".claude/projects/p/memory/MEMORY.md": "- [B](build.md) — b\n"})
    topic = root / ".claude/projects/p/memory/build.md"
    topic.write_text(TOPIC_RETRIED)
    post = api.read(topic, agent="claude-code")
    assert post["description"] == "Build: use pnpm, not npm" and post.content == "Run pnpm.\n"
    shown = run_cli("manifest", str(root / ".claude/projects/p/memory"))
    assert "[project] build.md (" in shown.stdout and "): Build: use pnpm, not npm" in shown.stdout


def test_the_second_try_is_linear_in_a_megabyte_line(tmp_path: Path) -> None:
    """issue 20 `fmvalue-redos`: the old requoting pattern took 4.3 s on 40,000 spaces."""
    line = "paths: @a" + " " * (1 << 20) + "b"
    started = time.perf_counter()
    cc.requote(line, lambda value: False)
    cc.read_frontmatter(line + "\n", 20)
    assert time.perf_counter() - started < 5
    root = write_tree(
        tmp_path,
        {
            ".claude/rules/r.md": f"---\n{line}\n---\nbody\n",
            "memory/MEMORY.md": "- [T](t.md) — t\n",
            "memory/t.md": f"---\nname: T\ndescription: @a{' ' * (1 << 20)}b\ntype: user\n---\nbody\n",
        },
    )
    started = time.perf_counter()
    assert codes(run_lint(root, select=["FM001", "MEM2"])).count("FM001") == 2  # the globs are not compiled here
    assert time.perf_counter() - started < 10


def test_a_settings_env_turns_auto_memory_off(tmp_path: Path) -> None:
    """cl34a: `env` in ~/.claude/settings.json reaches the client's process before it decides."""
    home = tmp_path / "home"
    write_tree(home, {".claude/settings.json": json.dumps({"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}})})
    project = write_tree(tmp_path / "p", {"CLAUDE.md": "x\n"})
    assert "turns it off" in (cc.auto_memory_off(str(project), {"HOME": str(home)}) or "")


def test_preview_auto_memory_names_the_projects_memory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = write_tree(tmp_path / "proj", {"CLAUDE.md": "x\n"})
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    missing = run_cli("preview", "--auto-memory", str(project), env=env)
    memory = home / ".claude" / "projects" / cc.project_slug(str(project)) / "memory"
    assert missing.returncode == 2 and str(memory) in missing.stderr and "does not exist" in missing.stderr
    write_tree(memory, {"MEMORY.md": "".join(_entry(n) for n in range(1, 251))})
    shown = run_cli("preview", "--auto-memory", "--output-format", "json", str(project), env=env)
    facts = json.loads(shown.stdout)
    assert facts["agent"] == "claude-code" and facts["warning"] == CLIENT_WARNINGS[0][2]
    off = run_cli("preview", "--auto-memory", str(project), env={**env, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "true"})
    assert off.returncode == 2 and "auto memory is off" in off.stderr


SHARED_CASES = {
    "cl01a_mem250",
    "cl01b_mem150_40kb",
    "cl01c_mem250_40kb",
    "cl01e_automem_default_on",
    "cl02a_mem_fm_comment",
}


def test_every_fact_names_the_version_and_a_case_that_exists(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "cases_claude_memory", Path(__file__).resolve().parent.parent / "tools" / "oracle" / "cases_claude_memory.py"
    )
    assert spec is not None and spec.loader is not None
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    written = cases.write_cases(str(tmp_path))
    assert written and all(name.startswith("cl3") for name in written)
    for name in written:  # the layout the harness reads
        assert (tmp_path / name / "client").read_text() == "claude\n" and (tmp_path / name / "project").is_dir()
    assert cc.AGENT.verified.version == cc.VERSION and cc.AGENT.facts == cc.VERIFIED
    memory = {case for cases in cc.VERIFIED.values() for case in cases if case.startswith(("cl01", "cl02", "cl3"))}
    assert len(memory) > 10 and all(hasattr(cc, fact) for fact in cc.VERIFIED)
    assert memory <= set(written) | SHARED_CASES, memory - set(written) - SHARED_CASES


def test_project_settings_are_never_read_through_a_link_to_a_sensitive_place(tmp_path: Path) -> None:
    """A project's `.claude` linked into a `.git` folder (whose `config` can hold credentials) is not
    read for its settings, as no command reads through such a link; a link to an ordinary folder is
    followed, as the client follows it."""
    home = tmp_path / "home"
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    settings = json.dumps({"autoMemoryEnabled": False})
    write_tree(tmp_path, {"vault/.git/claude/settings.json": settings, "shared/claude/settings.json": settings})
    hidden = write_tree(tmp_path / "hidden", {"CLAUDE.md": "x\n"})
    (hidden / ".claude").symlink_to(tmp_path / "vault" / ".git" / "claude")
    assert cc.auto_memory_off(str(hidden), env) is None  # nothing read there: on, the default
    shared = write_tree(tmp_path / "linked", {"CLAUDE.md": "x\n"})
    (shared / ".claude").symlink_to(tmp_path / "shared" / "claude")
    assert "autoMemoryEnabled: false" in (cc.auto_memory_off(str(shared), env) or "")
