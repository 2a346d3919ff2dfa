"""`mnemolint check --fix / --unsafe-fixes / --diff / --exit-non-zero-on-fix` on real memory dirs.

Reconciliation keeps what the human wrote and changes only what a rule proves wrong (issue 3):
each test writes a memory dir in tmp_path, runs the real command, and compares the bytes on disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import preview_settings, run_cli, write_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemolint.discover.walk import discover
from mnemolint.fix import fixer, generate, writer
from mnemolint.parse.index_lines import classify
from mnemolint.parse.textutil import utf16_len

MEM = ".claude/projects/p/memory"  # a memory dir by its location, so it exists without MEMORY.md
INDEX = f"{MEM}/MEMORY.md"


def topic(name: str, description: str | None = None, type_: str = "project") -> str:
    described = f"description: {description}\n" if description else ""
    return f"---\nname: {name}\n{described}type: {type_}\n---\n\nBody.\n"


BUILD = topic("Build", "how to build")
DEPLOY = topic("Deploy", "release steps")


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under `root` (relative path → bytes), to compare whole trees."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def fix(root: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli("check", "--fix", *args, cwd=root)


def index_of(root: Path) -> bytes:
    return (root / INDEX).read_bytes()


# --- safe fixes, one rule at a time ---------------------------------------------------------------


def test_mem104_drops_the_broken_line_and_keeps_everything_else(tree) -> None:
    index = "# Memory\n\n## Build\n- [Build](build.md) — how to build\n- [gone](gone.md)\n\n## End\n"
    root = tree({INDEX: index, f"{MEM}/build.md": BUILD})
    result = fix(root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert index_of(root) == b"# Memory\n\n## Build\n- [Build](build.md) \xe2\x80\x94 how to build\n\n## End\n"
    assert result.stdout.endswith("1 fixed, 0 remaining.\n")


def test_mem107_drops_the_later_duplicate(tree) -> None:
    index = "- [Build](build.md) — how to build\n- [Deploy](deploy.md) — release steps\n- [Build](build.md)\n"
    root = tree({INDEX: index, f"{MEM}/build.md": BUILD, f"{MEM}/deploy.md": DEPLOY})
    assert fix(root).returncode == 0
    assert index_of(root).decode() == "- [Build](build.md) — how to build\n- [Deploy](deploy.md) — release steps\n"


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        pytest.param("# Memory\n- [Build](build.md) — how to build\n", None, id="lf"),
        pytest.param("# Memory\n- [Build](build.md) — how to build", None, id="no-final-newline"),
        pytest.param("# Memory\n- [Build](build.md) — how to build\n\n\n", None, id="trailing-blank-lines"),
        pytest.param("# Memory\r\n- [Build](build.md) — how to build\r\n", None, id="crlf"),
        pytest.param(
            "\n\n",
            "- [Build](build.md) — how to build\n- [Deploy](deploy.md) — release steps\n- [Notes](notes.md)\n\n\n",
            id="blank",
        ),
    ],
)
def test_mem105_appends_the_orphans_lines_after_the_last_entry(tree, index: str, expected: str | None) -> None:
    root = tree({INDEX: index, f"{MEM}/build.md": BUILD, f"{MEM}/deploy.md": DEPLOY, f"{MEM}/notes.md": topic("Notes")})
    result = fix(root, "--ignore", "MEM203")  # notes.md has no description: its line is the link alone
    assert result.returncode == 0, result.stdout + result.stderr
    if expected is None:
        eol = "\r\n" if "\r\n" in index else "\n"
        added = f"- [Deploy](deploy.md) — release steps{eol}- [Notes](notes.md)"
        body = index.rstrip("\r\n")
        if index.endswith(("\n\n\n")):
            expected = f"{body}\n{added}\n\n\n"
        elif index.endswith("\n"):
            expected = f"{body}{eol}{added}{eol}"
        else:
            expected = f"{body}\n{added}"  # still no final newline
    assert index_of(root).decode() == expected
    assert f"{3 if not index.strip() else 2} fixed, 0 remaining." in result.stdout


def test_mem105_keeps_to_the_budget_and_lists_what_did_not_fit_in_one_finding(tree) -> None:
    topics = {f"{MEM}/t{number}.md": topic(f"T{number}", "short") for number in range(1, 6)}
    root = tree({INDEX: "- [T1](t1.md) — short\n", **topics, ".mnemolint.toml": "index-target-lines = 3\n"})
    result = fix(root)
    assert index_of(root).decode() == "- [T1](t1.md) — short\n- [T2](t2.md) — short\n- [T3](t3.md) — short\n"
    notes = [line for line in result.stdout.splitlines() if "Not fixed" in line]
    assert notes == [
        f"{INDEX}: MEM105 Not fixed by --fix (`t4.md`, `t5.md`): no room left in the index's budget of 3 lines "
        "/ 17,500 characters: make room in MEMORY.md, then run --fix again."
    ]
    assert result.stdout.endswith("2 fixed, 3 remaining.\n")  # two MEM105 findings and the note
    assert result.returncode == 1


def test_mem106_generates_the_missing_index_and_diff_shows_it_first(tree) -> None:
    root = tree({f"{MEM}/build.md": BUILD, f"{MEM}/deploy.md": topic("Deploy", "release steps", "user")})
    diff = run_cli("check", "--diff", cwd=root)
    assert diff.returncode == 1
    assert diff.stdout == (
        f"--- /dev/null\n+++ b/{INDEX}\n@@ -0,0 +1,2 @@\n"
        "+- [Deploy](deploy.md) — release steps\n+- [Build](build.md) — how to build\n"
    )
    assert "1 would be fixed, 0 would remain." in diff.stderr
    assert not (root / INDEX).exists()
    result = fix(root)
    assert result.returncode == 0
    assert index_of(root).decode() == "- [Deploy](deploy.md) — release steps\n- [Build](build.md) — how to build\n"


def test_mem106_left_out_topics_are_listed_in_one_finding(tree) -> None:
    topics = {f"{MEM}/t{number}.md": topic(f"T{number}", "short") for number in range(1, 6)}
    root = tree({**topics, ".mnemolint.toml": "index-target-lines = 2\n"})
    result = fix(root)
    assert index_of(root).decode() == "- [T1](t1.md) — short\n- [T2](t2.md) — short\n"
    assert [line for line in result.stdout.splitlines() if "Not fixed" in line] == [
        f"{INDEX}: MEM105 Not fixed by --fix (`t3.md`, `t4.md`, `t5.md`): no room left in the index's budget of "
        "2 lines / 17,500 characters: make room in MEMORY.md, then run --fix again."
    ]


def test_nothing_is_created_without_an_indexable_topic(tree, tmp_path: Path) -> None:
    root = tree({f"{MEM}/a[1].md": BUILD})
    (root / ".claude/projects/q/memory").mkdir(parents=True)  # no topic at all
    result = fix(root)
    assert not (root / INDEX).exists() and not (root / ".claude/projects/q/memory/MEMORY.md").exists()
    assert "Not fixed by --fix (`MEMORY.md`): no topic file can be written as an index line (see MEM207)." in (
        result.stdout
    )
    assert result.returncode == 1


def test_txt001_and_txt003_fix_text_hygiene(tree) -> None:
    mixed = "---\r\nname: Build\r\ndescription: how to build\r\ntype: project\r\n---\r\nBody.\r\nMore.\n"
    root = tree({INDEX: "\ufeff- [Build](build.md) — how to build\n", f"{MEM}/build.md": mixed})
    result = fix(root)
    assert result.returncode == 0, result.stdout
    assert index_of(root) == "- [Build](build.md) — how to build\n".encode()
    assert (root / MEM / "build.md").read_bytes() == mixed.replace("More.\n", "More.\r\n").encode()
    assert "2 fixed, 0 remaining." in result.stdout


# --- unsafe fixes --------------------------------------------------------------------------------


LONG = "all the details of the build that belong in the topic file " * 3
LONG_BUILD = topic("Build", LONG.strip())


def test_unsafe_fixes_replace_lines_only_when_asked_and_keep_crlf(tree) -> None:
    """MEM103 regenerates a long line that only copies its topic; MEM109's entry, words a person
    wrote, stays: no fix rewrites them."""
    long_line = "- [Build](build.md) — " + LONG.strip()
    drifted = "- [Deploy](deploy.md) — release steps were dropped in March"
    index = f"# Memory\r\n{long_line}\r\n{drifted}\r\n"
    root = tree({INDEX: index, f"{MEM}/build.md": LONG_BUILD, f"{MEM}/deploy.md": DEPLOY})
    safe = fix(root, "--preview")  # MEM109 is a preview rule
    assert index_of(root).decode() == index and safe.returncode == 1
    assert sorted(line.split()[1] for line in safe.stdout.splitlines()[:-2]) == ["MEM103", "MEM109"]
    assert "0 fixed, 2 remaining." in safe.stdout
    unsafe = fix(root, "--preview", "--unsafe-fixes")
    assert unsafe.returncode == 0, unsafe.stdout  # MEM109 is an info
    first, cut, kept, rest = index_of(root).decode().split("\r\n")
    assert (first, kept, rest) == ("# Memory", drifted, "")
    assert cut.startswith("- [Build](build.md) — all the details") and cut.endswith("…") and len(cut) <= 150
    assert "1 fixed, 1 remaining." in unsafe.stdout


def test_overlapping_fixes_settle_over_rounds(tree) -> None:
    """MEM103 rewrites a line that MEM107 then drops; TXT003 and MEM104 edit one line ending."""
    root = tree({f"{MEM}/build.md": LONG_BUILD, f"{MEM}/deploy.md": DEPLOY, INDEX: ""})
    generated = run_cli("index", MEM, cwd=root).stdout.splitlines()[0]  # the Build line, cut to fit
    index = (
        f"{generated}\r\n- [Build](build.md) — {LONG.strip()}\r\n- [gone](gone.md)\n"
        "- [Deploy](deploy.md) — release steps\r\n"
    )
    (root / INDEX).write_bytes(index.encode())
    result = fix(root, "--unsafe-fixes")
    assert result.returncode == 0, result.stdout
    assert index_of(root).decode() == f"{generated}\r\n- [Deploy](deploy.md) — release steps\r\n"


# --- idempotence, output, exit codes ---------------------------------------------------------------


MESSY = {
    INDEX: "\ufeff# Memory\r\n- [Build](build.md) — how to build\r\n- [gone](gone.md)\r\n- [Build](build.md)\n",
    f"{MEM}/build.md": BUILD,
    f"{MEM}/deploy.md": topic("Deploy", "release steps 🚀 " * 12, "user"),
    f"{MEM}/sub/notes.md": "\ufeff" + topic("Notes"),
    f"{MEM}/bad(1).md": BUILD,
    ".claude/projects/q/memory/only.md": topic("Only", ">\n  folded\n  text"),
}


def test_a_second_fix_changes_nothing(tree, tmp_path: Path) -> None:
    root = tree(MESSY)
    first = fix(root, "--unsafe-fixes")
    after_first = files_of(root)
    assert after_first != {rel: text.encode() if isinstance(text, str) else text for rel, text in MESSY.items()}
    second = fix(root, "--unsafe-fixes")
    assert files_of(root) == after_first
    assert "0 fixed" in second.stdout and first.stdout.split("fixed")[0] != "0 "
    assert run_cli("check", "--diff", "--unsafe-fixes", cwd=root).stdout == ""


def test_exit_non_zero_on_fix_and_exit_zero(tree) -> None:
    root = tree({INDEX: "- [gone](gone.md)\n"})
    assert fix(root, "--exit-non-zero-on-fix").returncode == 1  # fixed, and nothing remains
    assert fix(root, "--exit-non-zero-on-fix").returncode == 0  # nothing to fix
    (root / INDEX).write_text("- [gone](gone.md)\n")
    assert fix(root, "--exit-non-zero-on-fix", "--exit-zero").returncode == 0
    assert (root / INDEX).read_text() == ""


def test_json_output_stays_json_and_the_summary_goes_to_stderr(tree) -> None:
    root = tree({INDEX: "- [gone](gone.md)\n", f"{MEM}/build.md": BUILD})
    result = fix(root, "--output-format", "json")
    assert json.loads(result.stdout) == []
    assert result.stderr == "2 fixed, 0 remaining.\n"


def test_diff_writes_nothing_and_exits_0_when_there_is_nothing_to_fix(tree) -> None:
    root = tree({INDEX: "# Memory\n- [gone](gone.md)", f"{MEM}/build.md": BUILD})
    before = files_of(root)
    result = run_cli("check", "--diff", cwd=root)
    assert result.returncode == 1 and files_of(root) == before
    assert result.stdout == (
        f"--- a/{INDEX}\n+++ b/{INDEX}\n@@ -1,2 +1,2 @@\n # Memory\n-- [gone](gone.md)\n"
        "\\ No newline at end of file\n+- [Build](build.md) — how to build\n\\ No newline at end of file\n"
    )
    fix(root)
    assert run_cli("check", "--diff", cwd=root).returncode == 0


def test_a_topic_passed_alone_gets_its_line_added(tree) -> None:
    """The pre-commit case: only the new topic file is passed; its fix edits MEMORY.md."""
    root = tree({INDEX: "- [Build](build.md) — how to build\n", f"{MEM}/build.md": BUILD, f"{MEM}/deploy.md": DEPLOY})
    result = run_cli("check", "--fix", "--exit-non-zero-on-fix", f"{MEM}/deploy.md", cwd=root)
    assert result.returncode == 1 and "1 fixed, 0 remaining." in result.stdout
    assert index_of(root).decode() == "- [Build](build.md) — how to build\n- [Deploy](deploy.md) — release steps\n"


def test_a_file_that_is_not_utf8_is_never_rewritten(tree) -> None:
    index = b"- [gone](gone.md)\n- [Build](build.md) \xff\n"
    root = tree({INDEX: index, f"{MEM}/build.md": BUILD})
    result = fix(root)
    assert index_of(root) == index
    assert "MEM104 Not fixed by --fix (line 1): the file is not readable UTF-8 text" in result.stdout
    assert result.returncode == 1


def test_plain_check_never_imports_the_fixer_writer_or_generator(tree) -> None:
    root = tree({INDEX: "- [gone](gone.md)\n", f"{MEM}/build.md": BUILD})
    code = (
        "import sys; from mnemolint.cli import main; main(['check', '-q', '.']); "
        "print(sorted(m for m in sys.modules "
        "if m in ('mnemolint.fix.fixer', 'mnemolint.fix.writer', 'mnemolint.fix.generate')))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "[]"


def test_a_file_changed_since_it_was_read_is_fixed_again_not_clobbered(tree, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent appends a line between the fixer's read and its write: the write is refused, the fix is
    computed again from the new content, and both the agent's line and the fix are kept."""
    root = tree({INDEX: "- [Build](build.md) — how to build\n- [gone](gone.md)\n", f"{MEM}/build.md": BUILD})
    publish, calls = writer.publish, []

    def agent_writes_first(path: str, *args: object) -> None:
        if not calls:
            with open(path, "a", encoding="utf-8") as handle:
                handle.write("- [also](also.md)\n")
        calls.append(path)
        publish(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(writer, "publish", agent_writes_first)
    outcome = fixer.fix([str(root)], preview_settings(root))
    assert len(calls) == 2
    assert index_of(root).decode() == "- [Build](build.md) — how to build\n"
    assert len(outcome.fixed) == 2 and outcome.diagnostics == []


# --- two fixers at once --------------------------------------------------------------------------


def test_two_concurrent_fix_runs_leave_a_valid_index_and_no_lock_or_temp(tmp_path: Path) -> None:
    topics = {f"{MEM}/t{number:02d}.md": topic(f"T{number}", f"topic {number}") for number in range(40)}
    for attempt in range(6):
        root = write_tree(tmp_path / str(attempt), {INDEX: "# Memory\n- [gone](gone.md)\n", **topics})
        env = {**os.environ, "NO_COLOR": "1"}
        command = [sys.executable, "-m", "mnemolint", "check", "--preview", "--fix", "."]
        runs = [subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [(run.communicate(timeout=120)[0], run.returncode) for run in runs]
        for output, code in outputs:
            if code == 0:
                assert output.endswith("remaining.\n") and " 0 remaining." in output
            else:  # the other run held the lock: said so, and nothing else is wrong
                assert code == 1, output
                assert "MEMORY.md.lock` exists: another mnemolint is writing this file" in output
        assert sorted(path.name for path in (root / MEM).iterdir() if not path.name.endswith(".md")) == []
        check = run_cli("check", ".", cwd=root)
        assert check.returncode == 0, check.stdout
        text = index_of(root).decode()
        assert text.startswith("# Memory\n") and text.count("\n") == 41 and "gone.md" not in text


# --- property: random memory dirs ----------------------------------------------------------------

_NAME = st.text(st.sampled_from("ab z-_.#%?:~`[]()é漢🚀\n"), min_size=1, max_size=8)
_TEXT = st.text(st.sampled_from("ab z`[]()<!->—漢🚀\t\n:#"), max_size=200)


@st.composite
def memory_dirs(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, int]]:
    names = draw(st.lists(_NAME.map(lambda name: name.strip("/") + ".md"), max_size=8, unique=True))
    files: dict[str, str] = {}
    for name in names:
        if name in ("MEMORY.md", "README.md", "AGENTS.md", "CLAUDE.md") or name.startswith("."):
            continue
        fields = {
            "name": draw(st.one_of(st.none(), _TEXT)),
            "description": draw(st.one_of(st.none(), _TEXT)),
            "type": draw(st.sampled_from([None, "user", "feedback", "project", "reference", "other"])),
        }
        front = "".join(
            f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in fields.items() if value is not None
        )
        files[name] = f"---\n{front}---\nBody.\n"
    if draw(st.booleans()):
        eol = draw(st.sampled_from(["\n", "\r\n"]))
        pieces = ["# Memory", "", "- [gone](gone.md)", "not a pointer", "- [x](x.md) — " + "y" * 160]
        pieces += [f"- [Dup]({name}) — d" for name in list(files)[:3]]
        lines = draw(st.lists(st.sampled_from(pieces), max_size=12))
        files["MEMORY.md"] = eol.join(lines) + (eol if draw(st.booleans()) else "")
    budget = {"index-target-lines": draw(st.integers(2, 12)), "index-target-chars": draw(st.integers(200, 2000))}
    return files, budget


def _run(root: Path, budget: dict[str, int], unsafe: bool) -> fixer.Outcome:
    configured = preview_settings(root)
    configured.options.update(budget)
    return fixer.fix([str(root)], configured, unsafe=unsafe)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memory_dirs(), st.booleans())
def test_property_fix_is_idempotent_loses_no_topic_that_fits_and_writes_valid_lines(
    example: tuple[dict[str, str], dict[str, int]], unsafe: bool
) -> None:
    files, budget = example
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        memory = root / MEM
        memory.mkdir(parents=True)
        for rel, text in files.items():
            (memory / rel).write_bytes(text.encode("utf-8", "surrogatepass"))
        before = (memory / "MEMORY.md").read_text("utf-8") if "MEMORY.md" in files else ""
        _run(root, budget, unsafe)
        once = files_of(root)
        second = _run(root, budget, unsafe)
        assert files_of(root) == once, "a second --fix changed files"
        assert second.fixed == []
        if not (memory / "MEMORY.md").exists():
            return
        after = (memory / "MEMORY.md").read_text("utf-8")
        configured = preview_settings(root)
        configured.options.update(budget)
        [memdir] = discover([str(root)], configured).containers
        kept = {line.rstrip("\r") for line in before.split("\n")}
        written = [line for line in classify(after.split("\n"), 0) if line.text.strip() and line.text not in kept]
        for line in written:  # every line the fixer wrote is one pointer to a topic, within 150 units
            assert utf16_len(line.text) <= 150, line.text
            assert line.entry and len(line.links) == 1, line.text
            resolved = memdir.resolve(line.links[0].target)
            assert resolved is not None and resolved.rel in memdir.topic_by_rel, line.text
        linked = memdir.linked()
        room = generate.Appender(memdir, configured.options)
        for topic_file in memdir.topics:  # a topic not linked could not be: unlinkable, or no room
            if topic_file.rel not in linked:
                assert isinstance(room.edits_for(topic_file), str), topic_file.rel


# --- what review found: nothing the human meant is dropped unasked, dry runs tell the truth ----------


def test_an_existing_target_out_of_the_memory_dir_is_never_dropped(tree) -> None:
    index = "- [Runbook](../../../../shared/runbook.md) — ops\n- [Design](https://example.com/design) — doc\n"
    root = tree({INDEX: index, "shared/runbook.md": "exists\n"})
    assert fix(root).returncode == 1 and index_of(root) == index.encode()
    assert fix(root, "--unsafe-fixes").returncode == 1 and index_of(root) == index.encode()


def test_markdown_escapes_and_entities_in_a_link_resolve(tree) -> None:
    index = "- [AB](a\\_b.md)\n- [P](x\\(1\\).md)\n- [ST](a\\*b.md)\n- [AMP](a&amp;b.md)\n"
    names = ["a_b.md", "x(1).md", "a*b.md", "a&b.md"]
    root = tree({INDEX: index, **{f"{MEM}/{name}": topic(name) for name in names}})
    result = run_cli("check", "--output-format", "json", "--select", "MEM104,MEM105", cwd=root)
    assert (result.returncode, result.stdout) == (0, "[]\n")


@pytest.mark.parametrize("obstacle", ["lock", "symlink"])
def test_diff_shows_only_what_fix_can_write(tree, obstacle: str) -> None:
    index = "- [Build](build.md) — how to build\n- [gone](gone.md)\n"
    root = tree({f"{MEM}/build.md": BUILD, "real-index.md": index})
    if obstacle == "lock":
        (root / INDEX).write_text(index, encoding="utf-8")
        (root / f"{INDEX}.lock").write_text("1\n")
    else:
        (root / INDEX).symlink_to(root / "real-index.md")
    dry, real = run_cli("check", "--diff", cwd=root), fix(root)
    remain = 2 if obstacle == "lock" else 4  # the absolute link in the memory dir is LNK001 and LNK005 too
    assert (dry.returncode, dry.stdout, dry.stderr) == (0, "", f"0 would be fixed, {remain} would remain.\n")
    assert "Not fixed: " in real.stdout and real.stdout.endswith(f"0 fixed, {remain} remaining.\n")
    assert (root / "real-index.md").read_text(encoding="utf-8") == index


def test_a_symlinked_directory_inside_the_memory_dir_adds_no_topic_twice(tree) -> None:
    root = tree({INDEX: "- [A](real/a.md) — a\n", f"{MEM}/real/a.md": topic("A", "a")})
    (root / MEM / "alias").symlink_to("real", target_is_directory=True)
    result = run_cli("check", "--output-format", "json", "--ignore", "LNK001", cwd=root)  # the link is LNK001's
    assert (result.returncode, json.loads(result.stdout)) == (0, [])


def test_a_fix_that_cannot_be_made_is_told_under_its_own_rule(tree) -> None:
    """Two rules' fixes blocked by one reason (an index that is not UTF-8) are two notes, each
    under its own code, not one note under the first rule's code."""
    root = tree(
        {INDEX: b"- [gone](gone.md)\n- [Build](build.md) \xff\n", f"{MEM}/build.md": BUILD, f"{MEM}/c.md": DEPLOY}
    )
    notes = [line for line in fix(root).stdout.splitlines() if "Not fixed by --fix" in line]
    assert [note.split()[1] for note in notes] == ["MEM104", "MEM105"]
    assert "(line 1)" in notes[0] and "(`c.md`)" in notes[1]
