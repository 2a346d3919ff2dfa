"""`mnemolint hook post-tool-use`: one real event JSON per branch (tests/hook_events/), fed on stdin
to the real CLI in a subprocess, against real memory dirs in tmp_path.

Seed 000, "自动记忆容量治理" 3–6 and 11–12: a write to MEMORY.md or a topic gets a notice of what it
did, the write always stands, and a write elsewhere costs no file read and says nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import AUDIT_OPENS, run_cli, write_tree

EVENTS = Path(__file__).resolve().parent / "hook_events"
MEMORY = ".claude/projects/demo/memory"
TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\n{1}\n"


def event(name: str, cwd: Path) -> str:
    """The fixture `name`, with its `cwd` set to the test's directory."""
    data = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    data["cwd"] = str(cwd)
    return json.dumps(data)


def index_of(count: int, width: int = 0) -> str:
    """An index of `count` pointer lines, each padded to at least `width` characters."""
    lines = []
    for number in range(count):
        line = f"- [T{number}](t{number}.md) — t{number} notes"
        lines.append(line + " " + "x" * (width - len(line) - 1) if width > len(line) else line)
    return "\n".join(lines) + "\n"


def memory(root: Path, index: str | None, topics: dict[str, str] | None = None, count: int = 0) -> Path:
    """A Claude Code memory dir under `root` with `count` linked topics t0.md… and `topics`."""
    files: dict[str, str | bytes] = {
        f"{MEMORY}/t{number}.md": TOPIC.format(f"t{number}", "Body.") for number in range(count)
    }
    if index is not None:
        files[f"{MEMORY}/MEMORY.md"] = index
    files.update({f"{MEMORY}/{name}": text for name, text in (topics or {}).items()})
    return write_tree(root, files)


def hook(name: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli("hook", "post-tool-use", *args, stdin=event(name, cwd), cwd=cwd)


def context(process: subprocess.CompletedProcess) -> str:
    """The reminder Claude Code adds to the model's context, checking the answer's shape."""
    assert (process.returncode, process.stderr) == (0, ""), process.stderr
    answer = json.loads(process.stdout)
    assert list(answer) == ["hookSpecificOutput"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    return answer["hookSpecificOutput"]["additionalContext"]


def unchanged(root: Path, before: dict[str, bytes]) -> None:
    """The hook never changes a file: every file is byte for byte what it was."""
    assert {str(path): path.read_bytes() for path in root.rglob("*") if path.is_file()} == before


def snapshot_of(root: Path) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in root.rglob("*") if path.is_file()}


def test_index_at_80_percent_is_told_to_compact(tmp_path: Path) -> None:
    memory(tmp_path, index_of(165), count=165)
    text = context(hook("index-near", tmp_path))
    assert text.startswith(
        f"mnemolint, on the write to {tmp_path}/{MEMORY}/MEMORY.md: The write succeeded and is on disk"
    )
    assert "MEM102 (warning): MEMORY.md is at 82% of its load cap (165 of 200 lines" in text
    assert "compress it below 140 lines / 17,500 characters" in text


def test_index_over_its_cap_says_the_write_succeeded_but_the_tail_is_invisible(tmp_path: Path) -> None:
    memory(tmp_path, index_of(230), count=230)
    before = snapshot_of(tmp_path)
    text = context(hook("index-over", tmp_path))
    first, second = text.splitlines()[:2]
    assert "The write succeeded, but MEMORY.md is now over the agent's load cap" in first
    assert "silently dropped at every load, so its last entries are already invisible. Rewrite it now." in first
    assert second.startswith("- MEM101 (error) line 201: MEMORY.md is 230 lines (limit: 200): Claude Code loads only")
    assert '("- [T200](t200.md) — t200 notes")' in second
    assert "30 topics are linked only past the cut, so the agent never discovers them: `t200.md`, `t201.md`" in second
    assert "MEM105" not in text  # one finding says where the cut is and what it costs
    unchanged(tmp_path, before)  # a notice, not a refusal: the file stays as written


def test_long_index_lines_name_five_then_count_the_rest(tmp_path: Path) -> None:
    memory(tmp_path, index_of(7, width=170), count=7)
    text = context(hook("index-long-lines", tmp_path))
    assert "- MEM103 (warning) on 7 lines (1, 2, 3, 4, 5, +2 more); line 1: Index line is 170 characters" in text


def test_a_link_the_write_broke_is_reported(tmp_path: Path) -> None:
    memory(tmp_path, index_of(2) + "- [Gone](gone.md) — removed\n", count=2)
    text = context(hook("index-broken-link", tmp_path))
    assert "- MEM104 (error) line 3: `gone.md` does not exist in the memory dir" in text


def test_topic_over_its_cap(tmp_path: Path) -> None:
    memory(tmp_path, "- [Big](big.md) — big notes\n", {"big.md": TOPIC.format("big", "word " * 900)})
    text = context(hook("topic-over", tmp_path))
    assert "The write succeeded, but this topic file is over its cap. Rewrite it now." in text.splitlines()[0]
    assert "- MEM201 (error): Topic file is over its cap (4," in text


def test_topic_near_its_cap(tmp_path: Path) -> None:
    memory(tmp_path, "- [Big](big.md) — big notes\n", {"big.md": TOPIC.format("big", "word " * 700)})
    text = context(hook("topic-near", tmp_path))
    assert "- MEM202 (warning): Topic file is at 87% of its cap" in text
    assert "One file, one thing" in text


def test_topic_without_description(tmp_path: Path) -> None:
    memory(tmp_path, "- [Bare](bare.md)\n", {"bare.md": "---\nname: bare\ntype: user\n---\nBody.\n"})
    text = context(hook("topic-no-description", tmp_path))
    assert "- MEM203 (warning) line 1: Topic frontmatter has no `description`" in text


def test_topic_with_a_long_description(tmp_path: Path) -> None:
    wordy = "---\nname: wordy\ndescription: " + "very " * 70 + "long\ntype: user\n---\nBody.\n"
    memory(tmp_path, "- [Wordy](wordy.md) — very very\n", {"wordy.md": wordy})
    text = context(hook("topic-long-description", tmp_path))
    assert "- MEM204 (warning) line 3: Description is 354 characters (limit: 300)" in text
    assert "compress it to about 150" in text


def test_a_secret_just_written_is_never_echoed(tmp_path: Path) -> None:
    """The index line linking the topic no longer says what its description says (MEM109, which
    quotes the description): the quoted token is masked."""
    keys = "---\nname: keys\ndescription: deploy with AKIAIOSFODNN7EXAMPLE\ntype: reference\n---\nBody.\n"
    memory(tmp_path, "- [Keys](keys.md) — deploying by hand is no longer allowed\n", {"keys.md": keys})
    (tmp_path / ".mnemolint.toml").write_text("preview = true\n", encoding="utf-8")  # MEM109 is a preview rule
    text = context(hook("topic-secret", tmp_path))
    assert (
        "- MEM109 (info) in MEMORY.md line 1: Entry text says something other than the description of `keys.md`" in text
    )
    assert "AKIA***" in text and "AKIAIOSFODNN7EXAMPLE" not in text


def test_a_new_topic_no_index_line_links_is_an_orphan(tmp_path: Path) -> None:
    memory(tmp_path, index_of(1), {"fresh.md": TOPIC.format("fresh", "Body.")}, count=1)
    text = context(hook("topic-orphan", tmp_path))
    assert text.splitlines()[1:] == [
        "- MEM105 (warning): No line of MEMORY.md links to `fresh.md`: the index is the agent's only way to "
        "discover a topic, so this one is never read."
    ]


def test_tool_input_path_is_accepted_and_a_clean_write_says_nothing(tmp_path: Path) -> None:
    memory(
        tmp_path, index_of(1) + "- [Fresh](fresh.md) — fresh notes\n", {"fresh.md": TOPIC.format("fresh", "Body.")}, 1
    )
    assert (hook("topic-path-key", tmp_path).returncode, hook("topic-path-key", tmp_path).stdout) == (0, "")
    (tmp_path / MEMORY / "MEMORY.md").write_text(index_of(1), encoding="utf-8")
    assert "links to `fresh.md`" in context(hook("topic-path-key", tmp_path))


def test_wave_gets_the_reminder_on_stderr_with_exit_2(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            ".wave/projects/demo/memory/MEMORY.md": "- [Big](big.md) — big notes\n",
            ".wave/projects/demo/memory/big.md": TOPIC.format("big", "word " * 900),
        },
    )
    process = hook("wave-topic", tmp_path)  # the agent is taken from the path
    assert (process.returncode, process.stdout) == (2, "")
    assert process.stderr.startswith("mnemolint, on the write to ")
    assert "The write succeeded, but this topic file is over its cap" in process.stderr
    assert hook("wave-topic", tmp_path, "--agent", "claude-code").returncode == 0  # asked for: Claude's answer


@pytest.mark.parametrize("name", ["outside", "outside-md", "read-tool"])
def test_anything_else_is_silent(tmp_path: Path, name: str) -> None:
    memory(tmp_path, index_of(230), count=230)  # would draw a reminder if it were the written file
    write_tree(tmp_path, {"src/app.py": "print(1)\n", "docs/notes.md": "# Notes\n"})
    process = hook(name, tmp_path)
    assert (process.returncode, process.stdout, process.stderr) == (0, "", "")


def test_malformed_json_is_one_line_on_stderr_and_exit_0(tmp_path: Path) -> None:
    process = run_cli("hook", "post-tool-use", stdin=(EVENTS / "malformed.json").read_text(encoding="utf-8"))
    assert (process.returncode, process.stdout) == (0, "")
    assert process.stderr == "mnemolint hook: the hook event on stdin is not JSON; nothing was checked\n"


@pytest.mark.parametrize(
    "stdin", ["", "[]", '"x"', '{"tool_name": "Write"}', '{"tool_name": "Write", "tool_input": {"file_path": 3}}']
)
def test_events_of_another_shape_are_silent(stdin: str) -> None:
    process = run_cli("hook", "post-tool-use", stdin=stdin)
    assert process.returncode == 0 and process.stdout == ""


def test_a_bad_config_never_breaks_the_agent(tmp_path: Path) -> None:
    memory(tmp_path, index_of(230), count=230)
    (tmp_path / ".mnemolint.toml").write_text("select = 3\n", encoding="utf-8")
    process = hook("index-over", tmp_path)
    assert (process.returncode, process.stdout) == (0, "")
    assert process.stderr.startswith("mnemolint hook: ") and process.stderr.count("\n") == 1


AUDIT = (
    AUDIT_OPENS
    + """
from mnemolint.cli import main
code = main(["hook", "post-tool-use"])
kinds = sorted(name for name in sys.modules if name.startswith("mnemolint.kinds."))
print(code, opened, kinds, file=sys.stderr)
"""
)


@pytest.mark.parametrize("name", ["outside", "outside-unreadable", "outside-md"])
def test_a_write_elsewhere_reads_no_file(tmp_path: Path, name: str) -> None:
    """Capacity scenario 6: decided by the path alone, even for a path no one may read, with no
    kind's module imported (what the walk knows of every kind without them is enough)."""
    write_tree(tmp_path, {"src/app.py": "print(1)\n", "docs/notes.md": "# Notes\n", "locked/secret/notes.md": "x\n"})
    write_tree(tmp_path, {".mnemolint.toml": 'select = ["ALL"]\n'})
    locked = tmp_path / "locked"
    locked.chmod(0)
    try:
        process = subprocess.run(
            [sys.executable, "-c", AUDIT, str(tmp_path)],
            input=event(name, tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        locked.chmod(0o755)
    assert (process.stdout, process.stderr) == ("", "0 [] ['mnemolint.kinds.manifest', 'mnemolint.kinds.registry']\n")


def test_a_write_to_memory_does_read_it(tmp_path: Path) -> None:
    """The probe above sees reads when there are some."""
    memory(tmp_path, index_of(230), count=230)
    process = subprocess.run(
        [sys.executable, "-c", AUDIT, str(tmp_path)],
        input=event("index-over", tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert f"{tmp_path}/{MEMORY}/MEMORY.md" in process.stderr


def test_the_hook_path_imports_no_rich_markdown_or_wcmatch(tmp_path: Path) -> None:
    memory(tmp_path, index_of(230), {"fresh.md": TOPIC.format("fresh", "Body.")}, count=230)
    for name in ("index-over", "topic-orphan"):
        process = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "mnemolint", "hook", "post-tool-use", "--preview"],
            input=event(name, tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "NO_COLOR": "1"},
        )
        assert "additionalContext" in process.stdout
        imported = [
            line.rsplit("|", 1)[-1].strip() for line in process.stderr.splitlines() if line.startswith("import time:")
        ]
        heavy = [
            module for module in imported if module.split(".")[0] in ("rich", "markdown_it", "wcmatch", "frontmatter")
        ]
        assert heavy == []


def test_the_installed_console_script_answers_a_real_event(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "mnemolint"
    memory(tmp_path, index_of(1), {"fresh.md": TOPIC.format("fresh", "Body.")}, count=1)
    process = subprocess.run(
        [str(script), "hook", "post-tool-use", "--preview"],
        input=event("topic-orphan", tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "links to `fresh.md`" in context(process)


def test_the_settings_snippets_install_the_hook_for_write_edit_and_multiedit() -> None:
    hooks = Path(__file__).resolve().parent.parent / "hooks"
    for agent in ("claude-code", "wave"):
        settings = json.loads((hooks / agent / "settings.json").read_text(encoding="utf-8"))
        [entry] = settings["hooks"]["PostToolUse"]
        assert entry["matcher"] == "Write|Edit|MultiEdit"
        [command] = entry["hooks"]
        assert command == {"type": "command", "command": f"mnemolint hook post-tool-use --agent {agent}"}
        assert (hooks / agent / "README.md").is_file()


def test_the_readme_example_is_what_the_hook_says(tmp_path: Path) -> None:
    """README "Use it from your agent": an index of 230 lines, 7 of them long."""
    lines = []
    for number in range(230):
        line = f"- [T{number}](t{number}.md) — t{number} notes"
        lines.append(line + " " + "detail " * 27 if number in (2, 8, 11, 39, 40, 90, 91) else line)
    home = "home/me/.claude/projects/p/memory"
    files: dict[str, str | bytes] = {f"{home}/MEMORY.md": "\n".join(lines) + "\n"}
    files.update({f"{home}/t{number}.md": TOPIC.format(f"t{number}", "Body.") for number in range(230)})
    write_tree(tmp_path, files)
    stdin = json.dumps(
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": f"{tmp_path}/{home}/MEMORY.md"},
        }
    )
    text = context(run_cli("hook", "post-tool-use", stdin=stdin))
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    shown = readme.split("Wave on stderr):\n\n```text\n", 1)[1].split("```", 1)[0]
    assert text.replace(str(tmp_path), "") + "\n" == shown


@pytest.mark.parametrize(
    ("path", "memory"),
    [
        ("/h/.claude/projects/p/memory/MEMORY.md", True),
        ("/h/.claude/projects/p/memory/sub/topic.md", True),
        ("/h/.wave/projects/p/memory/topic.md", True),
        ("/repo/notes/MEMORY.md", True),
        ("/repo/.wave/rules/ts.md", True),
        ("/repo/.claude/rules/deep/ts.md", True),
        ("/repo/.wave/rules/notes.txt", True),  # not loaded as a rule: a finding of its own
        ("/repo/.ai-memory/20261201/daily.md", True),
        ("/repo/packages/api/AGENTS.md", True),
        ("/repo/CLAUDE.local.md", True),
        ("/h/.claude/projects/p/memory/data.json", False),
        ("/repo/notes/topic.md", False),  # a memory dir known only by its MEMORY.md: not by name
        ("/repo/src/rules/a.md", False),
        ("/repo/README.md", False),
    ],
)
def test_memory_is_recognised_by_its_path_alone(path: str, memory: bool) -> None:
    from mnemolint.commands.hook import in_memory

    assert in_memory(path) is memory


def test_an_instruction_file_with_nothing_to_say_is_silent(tmp_path: Path) -> None:
    write_tree(tmp_path, {"CLAUDE.md": "# Project\n"})
    stdin = json.dumps({"tool_name": "Edit", "tool_input": {"file_path": "CLAUDE.md"}, "cwd": str(tmp_path)})
    process = run_cli("hook", "post-tool-use", stdin=stdin)
    assert (process.returncode, process.stdout, process.stderr) == (0, "", "")


def test_a_relative_path_without_a_cwd_is_not_guessed(tmp_path: Path) -> None:
    memory(tmp_path, index_of(230), count=230)
    stdin = json.dumps({"tool_name": "Write", "tool_input": {"file_path": f"{MEMORY}/MEMORY.md"}})
    process = run_cli("hook", "post-tool-use", stdin=stdin, cwd=tmp_path)
    assert (process.returncode, process.stdout) == (0, "")


def test_the_hook_names_the_container_types_the_registry_has() -> None:
    """`in_memory` asks for a memory, ai-memory or rules dir by its type's name, so that a write
    elsewhere imports none of their modules."""
    from mnemolint.commands import hook
    from mnemolint.kinds.ai_memory import AI_MEMORY_DIR
    from mnemolint.kinds.memory import MEMORY_DIR
    from mnemolint.kinds.rules import RULES_DIR

    assert (hook._MEMORY_DIR, hook._AI_MEMORY_DIR, hook._RULES_DIR) == (
        MEMORY_DIR.name,
        AI_MEMORY_DIR.name,
        RULES_DIR.name,
    )
    assert hook.in_memory("/p/.claude/projects/x/memory/MEMORY.md") and hook.in_memory("/p/memory/MEMORY.md")
    assert hook.in_memory("/p/.claude/rules/style.md") and not hook.in_memory("/p/src/rules/style.md")
