"""The hook lints a write to a memory dir with the written file and its index alone
(commands/hook.py, `_needs_whole_dir`): its reminder must be, byte for byte, the one a run over the
whole memory dir gives, for every file of dirs that hold each thing another topic can change
(secondary indexes, a cut index, relations, links into subfolders, suppression comments,
duplicate titles), with and without preview; and it must read no other topic when it need not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import benchmark
import pytest
from conftest import AUDIT_OPENS, run_cli, write_tree

from mnemolint import engine
from mnemolint.commands import hook
from mnemolint.config import load_settings
from mnemolint.kinds import memory as kinds_memory
from mnemolint.kinds.memory import MemoryDir
from mnemolint.report import shown

AUTO = "home/.claude/projects/-home-me-proj/memory"  # Claude Code's auto memory, under a HOME
TOPIC = "---\nname: {name}\ndescription: {description}\ntype: project\n---\n{body}\n"


def topic(name: str, description: str = "", body: str = "Body.", **fields: str) -> str:
    text = TOPIC.format(name=name, description=description or f"{name} notes", body=body)
    extra = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return text.replace("type: project\n", "type: project\n" + extra, 1)


def rich(root: Path, memory: str = AUTO) -> Path:
    """A memory dir where other topics matter: a secondary index linked from MEMORY.md and one no
    line links, topics discovered only through them, duplicate titles, relations by title and by
    path, body links into a subfolder, a suppression comment, a drifted entry, broken links."""
    index = "\n".join(
        [
            "# Memory",
            "",
            "- [A](a.md) — a notes",
            "- [B](b.md) — b notes",
            "- [Drift](drift.md) — deploys go through the staging cluster first",
            "- [Big](big.md) — big notes",
            "- [Bare](bare.md)",
            "- [Archive](MEMORY-archive.md) — older entries",
            "- [Inner](sub/inner.md) — inner notes",
            "- [Related](related.md) — related notes",
            "- [Linker](linker.md) — linker notes",
            "- [Sup](sup.md) — sup notes",
            "- [One](dup1.md) — twin notes",
            "- [Two](dup2.md) — twin notes",
            "- [A again](a.md) — " + "a very long entry " * 10,
            "- [Gone](gone.md) — removed",
            "- [Both](b.md) and [Missing](missing.md) — two links",
            "- [B](b.md) — b notes",
            "",
            "Some prose that is not a pointer at all, written into the index.",
            "",
        ]
    )
    files: dict[str, str | bytes] = {
        f"{memory}/MEMORY.md": index,
        f"{memory}/a.md": topic("a"),
        f"{memory}/b.md": topic("b", body="See [a](a.md)."),
        f"{memory}/drift.md": topic("drift", "deploys skip staging and go straight to production"),
        f"{memory}/big.md": topic("big", body="word " * 900),
        f"{memory}/bare.md": "---\nname: bare\ntype: user\n---\nBody.\n",
        f"{memory}/MEMORY-archive.md": "# Archive\n\n- [Deep](deep.md) — deep notes\n",
        f"{memory}/deep.md": topic("deep"),
        f"{memory}/archive-old.md": "- [Listed](listed.md) — x\n- [A](a.md) — a\n- [Far](far.md) — far\n",
        f"{memory}/listed.md": topic("listed"),
        f"{memory}/far.md": topic("far"),
        f"{memory}/orphan.md": topic("orphan"),
        f"{memory}/related.md": topic("related", relates_to="[a, nobody]", supersedes="gone.md"),
        f"{memory}/linker.md": topic("linker", body="See [x](sub/missing.md) and [y](a.md) and [z](nowhere.md)."),
        f"{memory}/sub/inner.md": topic("inner"),
        f"{memory}/sup.md": topic("sup", "very " * 70 + "long", body="<!-- mnemolint-disable MEM204 -->\nBody."),
        f"{memory}/dup1.md": topic("twin"),
        f"{memory}/dup2.md": topic("twin"),
    }
    return write_tree(root, files) / memory


def cut(root: Path, memory: str = AUTO) -> Path:
    """An index over its 200-line cap: topics linked only past the cut (MEM101 counts them over
    the whole dir), one of them on the first line cut, and a topic linked before the cut."""
    lines = [f"- [T{number}](t{number}.md) — t{number} notes" for number in range(230)]
    files: dict[str, str | bytes] = {f"{memory}/MEMORY.md": "\n".join(lines) + "\n"}
    files.update({f"{memory}/t{number}.md": topic(f"t{number}") for number in range(0, 230, 7)})
    files.update({f"{memory}/t200.md": topic("t200"), f"{memory}/t3.md": topic("t3")})
    return write_tree(root, files) / memory


def without_index(root: Path, memory: str = AUTO) -> Path:
    """Topics and no MEMORY.md; one of them a secondary index with a broken link."""
    archive = "- [X](x.md) — x notes\n- [A](a.md) — a notes\n- [B](b.md) — b notes\n"
    files: dict[str, str | bytes] = {f"{memory}/a.md": topic("a"), f"{memory}/b.md": topic("b", body="[a](a.md)")}
    return write_tree(root, {**files, f"{memory}/archive.md": archive}) / memory


def wave(root: Path) -> Path:
    return rich(root, ".wave/projects/demo/memory")


def over_the_whole_dir(lint_arguments: dict) -> bool:
    """Whether the hook's call of `engine.lint` walks the memory dir whole (else: the written file
    and its index alone, `hook._alone`)."""
    return getattr(lint_arguments.get("walk"), "func", None) is not hook._alone


def whole(path: str, preview: bool) -> str:
    """The reminder as a run over the whole memory dir gives it (the hook's fallback)."""
    settings = load_settings(None, path)
    settings.preview = preview
    memdir = hook.memory_dir_of(path)
    index = os.path.join(memdir, "MEMORY.md") if memdir else path
    paths = [path] + ([index] if path != index and os.path.isfile(index) else [])
    result = engine.lint(paths, settings)
    about = set()
    for container in result.tree.containers:
        if isinstance(container, MemoryDir) and container.index_path == index:
            rel = next((each.rel for each in container.topics if each.path == path), None)
            about = {line.number for line in container.lines if rel is not None and rel in container.targets([line])}
    return hook.compose(path, shown(hook._reminded(result.diagnostics, path, index, about)))


@pytest.mark.parametrize("make", [rich, cut, without_index, wave])
@pytest.mark.parametrize("preview", [False, True])
def test_the_reminder_is_the_whole_dirs_for_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make, preview: bool
) -> None:
    memdir = make(tmp_path)
    calls: list[bool] = []
    lint = engine.lint

    def counted(*args, **kwargs):
        calls.append(over_the_whole_dir(kwargs))
        return lint(*args, **kwargs)

    said = 0
    for path in sorted(str(path) for path in memdir.rglob("*.md")):
        calls.clear()
        with monkeypatch.context() as patch:
            patch.setattr(engine, "lint", counted)
            text = hook.reminder(path, None, preview)
        assert text == whole(path, preview), path
        said += bool(text)
        assert calls in ([False], [False, True], [True])
    assert said  # the dirs draw reminders: the comparison is not of empty texts


def changes(memdir: Path) -> Iterator[str]:
    """What happens to a memory dir between two hook calls, each kept: nothing, a topic's title,
    description and links edited, a topic created with another's title, one deleted, and the index
    edited (an entry dropped, one added, one's summary changed to the same length)."""
    topics = sorted(path for path in memdir.rglob("*.md") if path.name != "MEMORY.md")
    yield "nothing"
    topics[0].write_text(topic("twin", "now about something else", body="See [b](b.md) and [x](sub/x.md)."))
    yield "a topic edited"
    (memdir / "new.md").write_text(topic("twin", "a new one"))
    yield "a topic created"
    topics[-1].unlink()
    yield "a topic deleted"
    index = memdir / "MEMORY.md"
    if index.exists():
        lines = index.read_text(encoding="utf-8").splitlines(keepends=True)
        linked = [number for number, line in enumerate(lines) if "](" in line]
        lines[linked[-1]] = lines[linked[-1]].replace("notes", "NOTES")
        del lines[linked[0]]
        index.write_text("".join(lines) + "- [New](new.md) — a new one\n", encoding="utf-8")
        yield "the index edited"


def differences(memdir: Path, preview: bool) -> list[tuple[str, str]]:
    """Each change (`changes`) and file whose reminder, by the hook with what it keeps between
    calls (the index facts, the check cache), is not what a run over the whole dir says."""
    found = []
    for change in changes(memdir):
        for path in sorted(str(path) for path in memdir.rglob("*.md")):
            if hook.reminder(path, None, preview) != whole(path, preview):
                found.append((change, os.path.relpath(path, memdir)))
    return found


@pytest.mark.parametrize("make", [rich, cut, without_index, wave])
@pytest.mark.parametrize("preview", [False, True])
def test_what_the_hook_keeps_between_calls_follows_every_change(tmp_path: Path, make, preview: bool) -> None:
    assert differences(make(tmp_path), preview) == []


def test_index_facts_trusted_whatever_the_text_would_remind_wrongly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above fails where the index facts are given back for a text they were not made
    of: the check that the text is the same is what keeps the reminders right."""
    from mnemolint import cache

    def trusting(facts: cache.IndexFacts, index: object) -> object:
        entry = facts.stored.get(index.path)  # type: ignore[attr-defined]
        lines = index.lines  # type: ignore[attr-defined]
        return None if entry is None else (cache._thaw_lines(entry[1], lines), dict(entry[2]))

    monkeypatch.setattr(cache.IndexFacts, "recall", trusting)
    wrong = differences(rich(tmp_path), False)
    assert wrong and {change for change, _ in wrong} == {"the index edited"}


def test_the_rich_dir_takes_each_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which writes need the whole dir: those whose reminder depends on the others. A run is
    `False` when it holds the written file and its index alone, `True` over the whole dir."""
    memdir = rich(tmp_path)
    ways: dict[tuple[str, bool], list[bool]] = {}
    lint = engine.lint

    def counted(*args, **kwargs):
        ways.setdefault((name, preview), []).append(over_the_whole_dir(kwargs))
        return lint(*args, **kwargs)

    monkeypatch.setattr(engine, "lint", counted)
    names = ("a.md", "drift.md", "big.md", "orphan.md", "listed.md", "related.md", "linker.md", "sup.md", "MEMORY.md")
    for name in names:
        for preview in (False, True):
            hook.reminder(str(memdir / name), None, preview)
    alone, then_whole, whole = [False], [False, True], [True]
    assert ways == {
        **{(name, False): alone for name in names},  # the default rules read no other topic
        ("sup.md", False): then_whole,  # whether a comment silences anything is the whole run's
        **{(name, True): whole for name in names},  # MEM208, MEM209: every topic's title; MEM105 on an index
    }
    ways.clear()
    monkeypatch.setattr(
        hook,
        "_memory_dir_rules",
        lambda settings, chosen=hook._memory_dir_rules: [
            rule for rule in chosen(settings) if rule.code not in ("MEM208", "MEM209")
        ],
    )
    for name in names:
        preview = True
        hook.reminder(str(memdir / name), None, preview)
    assert ways == {
        ("a.md", True): alone,  # linked from the index: nothing about it depends on another topic
        ("drift.md", True): alone,  # what the index says of it is its own description against the line
        ("big.md", True): alone,
        ("orphan.md", True): then_whole,  # no line of MEMORY.md links it: a secondary index might
        ("listed.md", True): then_whole,
        ("related.md", True): then_whole,  # a relation by title is judged against every topic's title
        ("linker.md", True): then_whole,  # a link into a folder is judged against the dir's folders
        ("sup.md", True): then_whole,
        ("MEMORY.md", True): whole,  # the topics it no longer links, and what it says of each
    }


# Reads of files under the memory dir, by a real hook process.
AUDIT = (
    AUDIT_OPENS
    + """
from mnemolint.cli import main
code = main(["hook", "post-tool-use", *sys.argv[2:]])
print(json.dumps(sorted(set(map(str, opened)))), file=sys.stderr)
"""
)


def reads(memdir: Path, written: Path, *args: str) -> tuple[str, list[str]]:
    """The hook's answer to an Edit of `written`, and the files under `memdir` it opened; HOME is
    the one holding an auto-memory dir (`HOME/.claude/projects/<id>/memory`)."""
    event = {"hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": {"file_path": str(written)}}
    home = str(memdir.parents[3]) if memdir.parent.parent.name == "projects" else os.environ.get("HOME", "")
    process = subprocess.run(
        [sys.executable, "-c", "import json\n" + AUDIT, str(memdir), *args],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": home},
    )
    return process.stdout, json.loads(process.stderr.splitlines()[-1])


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,000 topics and a 1,962-line index in sections (tests/benchmark.py's tree), where
    Claude Code keeps auto memory."""
    root = tmp_path_factory.mktemp("large")
    benchmark.make_tree(str(root / "p"), 2_000)
    memdir = root / AUTO
    memdir.parent.mkdir(parents=True)
    (root / "p" / "memory").rename(memdir)
    return memdir


@pytest.mark.parametrize("preview", ["--no-preview", "--preview"])
def test_a_topic_write_in_2000_topics(large: Path, preview: str) -> None:
    """With the default rules it reads the topic and the index only; with every rule the whole
    dir (MEM208 and MEM209 compare its title with every other topic's), and says the same."""
    written = large / benchmark.topic_name(1_000)
    written.write_text(benchmark.topic(1_000).replace("description: What", "description: " + "Long " * 70))
    alone = [str(large / "MEMORY.md"), str(written)]
    try:
        stdout, opened = reads(large, written, preview)
        assert (opened == alone) is (preview == "--no-preview")
        assert len(opened) == (2 if preview == "--no-preview" else 2_001)
        text = json.loads(stdout)["hookSpecificOutput"]["additionalContext"] if stdout else ""
        assert text == whole(str(written), preview == "--preview")
        assert ("MEM204 (warning) line 3: Description is" in text) is (preview == "--preview")  # a preview rule
    finally:
        written.write_text(benchmark.topic(1_000))
    assert reads(large, written, "--no-preview") == ("", alone)  # a clean write: silent


def test_an_index_write_that_drops_links_names_the_topics_it_no_longer_links(large: Path) -> None:
    index = large / "MEMORY.md"
    before = index.read_text(encoding="utf-8")
    dropped = [benchmark.topic_name(number) for number in (5, 6, 7)]
    index.write_text("".join(line for line in before.splitlines(True) if not any(n in line for n in dropped)))
    try:
        event = json.dumps({"tool_name": "Write", "tool_input": {"file_path": str(index)}})
        home = {"HOME": str(large.parents[3])}
        with_preview = run_cli("hook", "post-tool-use", stdin=event, env=home)
        text = json.loads(with_preview.stdout)["hookSpecificOutput"]["additionalContext"]
        assert text == whole(str(index), True)
        # the index links 1,849 of the 2,000: 151 topics were orphans already, 3 more now
        assert "- MEM105 (warning) in 154 files (topic_000005.md, topic_000006.md, topic_000007.md, topic_0018" in text
        assert "- MEM101 (error) line 201: MEMORY.md is 186,900 characters (limit: 25,000) and 1,958 lines" in text
        default = run_cli("hook", "post-tool-use", "--no-preview", stdin=event, env=home)
        assert (default.returncode, default.stdout, default.stderr) == (0, "", "")  # MEM105 is a preview rule
        assert whole(str(index), False) == ""
        _, opened = reads(large, index, "--no-preview")
        assert opened == [str(index)]  # the default rules read the index alone: links resolve by stat
    finally:
        index.write_text(before)


def test_a_project_memory_dir(tmp_path: Path) -> None:
    """A memory dir known by its MEMORY.md (`memory/` in a project): an index write is reminded,
    as the whole dir's run says; a topic there is not memory by its name, so its write reads nothing."""
    memdir = rich(tmp_path, "proj/memory")
    (tmp_path / "proj" / ".git").mkdir()
    for preview in (False, True):
        text = hook.reminder(str(memdir / "MEMORY.md"), None, preview)
        assert text == whole(str(memdir / "MEMORY.md"), preview) and "MEM104 (error)" in text
    stdout, opened = reads(memdir, memdir / "a.md")
    assert (stdout, opened) == ("", [])


def test_a_memory_dir_inside_another_is_linted_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A topic in a subfolder that holds a MEMORY.md of its own, and a MEMORY.md in a rules dir:
    the file is not in the one memory dir the hook judges alone, so the dir is linted whole."""
    memdir = rich(tmp_path)
    write_tree(memdir, {"sub/MEMORY.md": "- [Inner](inner.md) — inner notes\n"})
    rules = write_tree(tmp_path, {"proj/.claude/rules/MEMORY.md": "- [Gone](gone.md) — removed\n"})
    calls: list[bool] = []
    lint = engine.lint
    monkeypatch.setattr(engine, "lint", lambda *a, **k: calls.append(over_the_whole_dir(k)) or lint(*a, **k))
    for path in (memdir / "sub" / "inner.md", rules / "proj/.claude/rules/MEMORY.md"):
        for preview in (False, True):
            calls.clear()
            text = hook.reminder(str(path), None, preview)
            assert calls == ([True] if preview else [False, True])  # every rule: the whole dir at once
            assert text == whole(str(path), preview)


def test_a_memory_dir_rule_that_declares_nothing_is_judged_over_the_whole_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new memory-dir rule that says nothing of the other topics (`reads_other_members`) may
    depend on any of them: the hook then lints every write of the dir whole, topic or index."""
    from mnemolint.kinds.memory import MEMORY_DIR
    from mnemolint.model import WARNING
    from mnemolint.rules.base import OTHERS_ALWAYS, rule

    @rule("MEM299", "new-memory-dir-rule", WARNING, reads=MEMORY_DIR, summary="A new memory-dir rule.")
    def new_rule(memdir: MemoryDir, options: dict) -> Iterator:
        return iter(())

    settings = load_settings(None, str(tmp_path))
    assert new_rule.reads_other_members == OTHERS_ALWAYS
    assert hook._judged_after(settings, False) is not None  # the default rules: a topic write alone
    monkeypatch.setattr(
        hook, "_memory_dir_rules", lambda settings, chosen=hook._memory_dir_rules: [*chosen(settings), new_rule]
    )
    assert hook._judged_after(settings, False) is None
    assert hook._judged_after(settings, True) is None


def test_the_index_facts_keep_no_text_and_nothing_of_an_index_with_a_secret(tmp_path: Path) -> None:
    """The hook's cache holds a digest of the index, never its text; an index that looks as if it
    holds a secret keeps nothing, so no link title or target of it is copied into the cache."""
    from mnemolint import cache

    memdir = rich(tmp_path)
    index = memdir / "MEMORY.md"
    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"  # a GitHub token's shape
    hook.reminder(str(memdir / "a.md"), None, False)
    settings = load_settings(None, str(index))
    facts = cache.IndexFacts.open(settings)
    assert str(index) in facts.stored  # kept: the check below is not of an empty file
    held = Path(facts.path).read_bytes()
    assert b"Some prose that is not a pointer" not in held and b"a very long entry" not in held

    index.write_text(index.read_text(encoding="utf-8") + f"- [Deploy {token}](a.md) — deploy\n", encoding="utf-8")
    hook.reminder(str(memdir / "a.md"), None, False)
    facts = cache.IndexFacts.open(settings)
    assert str(index) not in facts.stored
    assert token.encode() not in Path(facts.path).read_bytes()


def test_an_index_text_is_scanned_for_secrets_once_and_its_facts_then_recalled_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret scan of a large index is milliseconds on every write: `keep` scans a text before it
    keeps its facts, so a later write recalls them by the text's digest alone, reminding as before."""
    from mnemolint import cache

    memdir = rich(tmp_path)
    first = hook.reminder(str(memdir / "a.md"), None, False)
    scanned: list[str] = []
    real = cache.find_secrets
    index = memdir / "MEMORY.md"

    def scan(text: str) -> object:
        if text.startswith("# Memory"):  # the index's text, not what the check cache screens
            scanned.append(text)
        return real(text)

    monkeypatch.setattr(cache, "find_secrets", scan)
    recalled: list[object] = []
    recall = cache.IndexFacts.recall
    monkeypatch.setattr(
        cache.IndexFacts, "recall", lambda self, index: recalled.append(recall(self, index)) or recalled[-1]
    )
    assert hook.reminder(str(memdir / "a.md"), None, False) == first
    assert recalled and recalled[0] is not None
    assert not scanned
    index.write_text(index.read_text(encoding="utf-8") + "- [New](a.md) — new notes\n", encoding="utf-8")
    hook.reminder(str(memdir / "a.md"), None, False)
    assert scanned == [index.read_text(encoding="utf-8")]  # a new text: scanned before its facts are kept


def test_the_index_facts_give_back_what_classifying_the_text_gives(tmp_path: Path) -> None:
    """Each line's kind, links and whether it is an entry (asked of every line by the index rules,
    so kept found, not found again), as `classify` makes them of the same text."""
    from mnemolint import cache
    from mnemolint.parse.document import Document
    from mnemolint.parse.index_lines import classify

    memdir = rich(tmp_path)
    index = memdir / "MEMORY.md"
    hook.reminder(str(memdir / "a.md"), None, False)
    settings = load_settings(None, str(index))
    document = Document(str(index), kinds_memory.INDEX, settings.options, MemoryDir(str(memdir)))
    known = cache.IndexFacts.open(settings).recall(document)
    assert known is not None
    recalled, made = known[0], classify(document.lines, 0)
    assert all(line._entry is not None for line in recalled)  # given, not worked out again
    assert [(line.number, line.text, line.kind, line.entry) for line in recalled] == [
        (line.number, line.text, line.kind, line.entry) for line in made
    ]
    assert [[vars_of(link) for link in line.links] for line in recalled] == [
        [vars_of(link) for link in line.links] for line in made
    ]
    assert any(line.entry for line in made) and not all(line.entry for line in made)


def test_index_facts_that_call_a_line_without_links_an_entry_are_not_believed() -> None:
    """A damaged or crafted `hook.cache` may say anything of a line; the index rules read an
    entry's first link, so a line without one is no entry whatever the file says."""
    from mnemolint import cache
    from mnemolint.parse.index_lines import HEADING, POINTER

    lines = cache._thaw_lines(
        ((HEADING, (), True), (POINTER, (("A", "a.md", 3, 12),), True)), ["# Memory", "- [A](a.md)"]
    )
    assert [line.entry for line in lines] == [False, True]


def test_index_facts_of_a_crafted_shape_are_ignored_not_a_crash(tmp_path: Path) -> None:
    """A crafted `hook.cache` whose line holds a mapping of one link, not a tuple of them: the
    facts are not recalled (the index is classified again), and the run goes on."""
    from mnemolint import cache
    from mnemolint.kinds.memory import INDEX
    from mnemolint.parse.document import Document

    memdir = rich(tmp_path)
    index = memdir / "MEMORY.md"
    hook.reminder(str(memdir / "a.md"), None, False)  # keeps the index's facts
    settings = load_settings(None, str(index))
    facts = cache.IndexFacts.open(settings)
    digest, lines, names = facts.stored[str(index)]
    document = Document(str(index), INDEX, settings.options)
    assert facts.recall(document) is not None  # the facts as kept are recalled
    crafted = tuple((kind, {1: links[0]} if len(links) == 1 else links, entry) for kind, links, entry in lines)
    facts.stored[str(index)] = (digest, crafted, names)
    assert facts.recall(Document(str(index), INDEX, settings.options)) is None


def vars_of(link: object) -> tuple:
    return tuple(getattr(link, name) for name in ("title", "target", "column", "end_column"))


def test_the_index_facts_keep_no_link_target_of_another_file(tmp_path: Path) -> None:
    """What the hook keeps of a run is the index's own targets: a target met in a secondary index
    (or a topic's body) is not checked for secrets with the index's text, and is not kept."""
    from mnemolint import cache

    memdir = rich(tmp_path)
    token = "ghp_" + "Q9w8E7r6T5" * 3 + "y4U3i2"  # a GitHub token's shape
    archive = memdir / "MEMORY-archive.md"
    archive.write_text(f"# Archive\n\n- [Deep](deep.md) — deep notes\n- [Old](old.md?k={token}) — old\n")
    assert token not in hook.reminder(str(archive), None, False)
    facts = cache.IndexFacts.open(load_settings(None, str(memdir / "MEMORY.md")))
    assert str(memdir / "MEMORY.md") in facts.stored  # kept: the check below is not of an empty file
    assert token.encode() not in Path(facts.path).read_bytes()
