"""`mnemolint hook post-tool-use`: the reminder an agent gets right after it writes a memory file.

Wave's capacity rules ask that a write to `MEMORY.md` or a topic
file be followed by a notice of what it did to capacity, "a notice, not a refusal", and that a
write anywhere else cost nothing: no extra file read, no reminder. This command reads one hook
event (Claude Code's PostToolUse JSON on stdin), decides by the written path alone whether it is a
memory file, and if so runs the engine on that file (and on the lines of its index that speak of
it), so every word of the reminder is the message `mnemolint check` prints for the same finding.
A write to a memory dir is linted with the written file and its index alone, the other topics
neither listed nor read, unless a finding in the reminder could depend on them (`reminder`).

Claude Code takes the reminder as `hookSpecificOutput.additionalContext` on stdout, exit 0; Wave
passes a PostToolUse hook's stderr to the model only on exit 2 (its hooks reference: "Shows stderr
to Wave and allows AI to continue (tool already ran)"). A hook must never break the agent: bad
input, a bad config or a bug is one line on stderr and exit 0, and the file is never changed.
"""

from __future__ import annotations

import os
import sys

from mnemolint.commands import EXIT_CLEAN
from mnemolint.commands.common import add_config_argument, add_preview_argument

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse

    from mnemolint.cache import IndexFacts
    from mnemolint.config import Settings
    from mnemolint.discover.tree import Tree
    from mnemolint.engine import Result
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.model import Diagnostic
    from mnemolint.rules.base import Rule

NAME = "hook"
HELP = "answer an agent's post-write hook event with the reminders for the file it wrote"

EVENT = "post-tool-use"
HOOK_EVENT_NAME = "PostToolUse"
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
EXIT_WAVE_FEEDBACK = 2  # Wave shows a PostToolUse hook's stderr to the model on this code only
MAX_EVENT_BYTES = 8 << 20  # an event is a path and the text written: anything longer is not one to answer
MAX_SHOWN = 10  # lines of findings in one reminder, the last one a count of the rest when there are more

# Where memory lives, by name alone: rules dirs, `.ai-memory`, instruction files and the
# index anywhere; topics inside an agent's own memory dir (`<home>/projects/<id>/memory/`).

# Only the hook knows that a write has just happened; what the write caused is the rule's message.
_AFTER_WRITE = {
    "MEM101": "The write succeeded, but MEMORY.md is now over the agent's load cap: everything past it is "
    "silently dropped at every load, so its last entries are already invisible. Rewrite it now.",
    "MEM201": "The write succeeded, but this topic file is over its cap. Rewrite it now.",
}
_NOTICE = "The write succeeded and is on disk; this is a notice, not a refusal."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("event", choices=(EVENT,), help="the hook event read on stdin")
    parser.add_argument(
        "--agent",
        choices=("claude-code", "wave"),
        help="how to answer: default wave for a path under .wave/, else claude-code",
    )
    add_config_argument(parser)
    add_preview_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Read the event, and answer with the reminder when the written file is a memory file."""
    try:
        path = written_path(_read_event())
    except ValueError as error:
        _tell(f"{error}; nothing was checked")
        return EXIT_CLEAN
    if path is None or not in_memory(path):
        return EXIT_CLEAN  # decided by the path alone: nothing is read for a write elsewhere
    try:
        text = reminder(path, args.config, args.preview)
    except Exception as error:  # noqa: BLE001 - a config error or a bug must not break the agent
        from mnemolint.parse.textutil import visible

        _tell(f"{visible(str(error)) or type(error).__name__}; nothing was checked")
        return EXIT_CLEAN
    if not text:
        return EXIT_CLEAN
    from mnemolint.agents import WAVE, memory_reader

    if (args.agent or memory_reader(path).name) == WAVE.name:
        sys.stderr.write(text + "\n")
        return EXIT_WAVE_FEEDBACK
    import json

    answer = {"hookSpecificOutput": {"hookEventName": HOOK_EVENT_NAME, "additionalContext": text}}
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return EXIT_CLEAN


def _tell(message: str) -> None:
    print(f"mnemolint hook: {message}", file=sys.stderr)


def _read_event() -> object:
    """The event on stdin: at most `MAX_EVENT_BYTES` are read (a stream that never ends is
    refused, not held in memory), and a terminal is not waited on (an agent pipes the event)."""
    import json

    stdin = sys.stdin
    if stdin is None:
        data = b""
    elif stdin.isatty():
        raise ValueError(
            "the hook event is read on stdin, as an agent pipes it (`echo '{...}' | mnemolint hook post-tool-use`)"
        )
    else:
        data = stdin.buffer.read(MAX_EVENT_BYTES + 1)
        if len(data) > MAX_EVENT_BYTES:
            raise ValueError(f"the hook event on stdin is over {MAX_EVENT_BYTES >> 20} MB")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise ValueError("the hook event on stdin is not JSON") from None


def written_path(event: object) -> str | None:
    """The absolute path a PostToolUse event of Write, Edit or MultiEdit wrote; None for any other event."""
    if not isinstance(event, dict):
        return None
    if event.get("hook_event_name", HOOK_EVENT_NAME) != HOOK_EVENT_NAME or event.get("tool_name") not in WRITE_TOOLS:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    path = tool_input.get("file_path") or tool_input.get("path")  # a null `file_path` is no path
    if not isinstance(path, str) or not path or "\0" in path:
        return None
    cwd = event.get("cwd")
    if not os.path.isabs(path):
        if not isinstance(cwd, str) or not os.path.isabs(cwd):
            return None  # relative to nothing known: guessing could check the wrong file
        path = os.path.join(cwd, path)
    return os.path.normpath(path)


def in_memory(path: str) -> bool:
    """Whether `path` is a memory file, by its name alone (no file is read or even looked at)."""
    from mnemolint.agents import instruction_names
    from mnemolint.kinds.registry import MARKERS

    name = os.path.basename(path)
    if name in instruction_names() or MARKERS.get(name) == _MEMORY_DIR:  # `MEMORY.md`
        return True
    if _inside_a(path, _AI_MEMORY_DIR, _RULES_DIR):
        return True
    return name.endswith(".md") and memory_dir_of(path) is not None


# The container types a write may fall in, by name (`kinds/manifest.py`): a type's module is
# imported only for a folder that may be one, so a write elsewhere imports none of them.
_MEMORY_DIR, _AI_MEMORY_DIR, _RULES_DIR = "memory dir", "ai-memory dir", "rules dir"


def memory_dir_of(path: str) -> str | None:
    """The agent's own memory dir (`<home>/projects/<id>/memory`) holding `path`, by name alone."""
    return _inside_a(path, _MEMORY_DIR)


def _inside_a(path: str, *types: str) -> str | None:
    """The nearest folder above `path` that is a container of one of the types named `types` by
    where it is (the registry's `located`, which looks at the names only), or None."""
    from mnemolint.kinds.registry import located
    from mnemolint.paths import upwards

    for folder in upwards(os.path.dirname(path)):
        found = located(folder)
        if found is not None and found.name in types:
            return folder
    return None


def reminder(path: str, config: str | None = None, preview: bool | None = None) -> str:
    """The reminder for a write to `path` ("" when there is nothing to say): the findings on the
    file, and those on the lines of its index that link it (a drifted entry, say), most severe first.

    A write to a memory dir is linted first with the written file and its index alone, the other
    topics neither listed nor read (links to them resolve by `stat`); only when the reminder could
    then differ from one over the whole dir (`_needs_whole_dir`) is the dir linted whole. Either
    way, what the index's text classifies into is taken from the last run that saw that text
    (`cache.IndexFacts`)."""
    from functools import partial

    from mnemolint.cache import IndexFacts
    from mnemolint.config import load_settings
    from mnemolint.engine import lint
    from mnemolint.kinds.memory import INDEX_NAME
    from mnemolint.report import shown

    if not os.path.isfile(path) or os.path.islink(path):
        return ""  # gone since, or a link: `check` judges a link where it stands, the hook has nothing to add
    settings = load_settings(config, path)
    if preview is not None:  # --preview / --no-preview over the config's `preview`
        settings.preview = preview
    paths = [path]
    memdir = memory_dir_of(path)
    index = os.path.join(memdir, INDEX_NAME) if memdir else path
    if path != index and os.path.isfile(index):
        paths.append(index)
    alone = os.path.basename(index) == INDEX_NAME and not os.path.islink(index)
    conditional = _judged_after(settings, path == index) if alone else None
    facts = IndexFacts.open(settings) if alone else None
    if conditional is not None:
        result = lint(paths, settings, walk=partial(_alone, index=index, facts=facts))
        about = _lines_linking(result.tree, path, index)
    if conditional is None or _needs_whole_dir(result, path, index, about, conditional):
        walk = partial(_whole, index=index, facts=facts) if facts is not None else None
        result = lint(paths, settings, cache=alone, walk=walk)  # what a `check` knows of the unchanged topics
        about = _lines_linking(result.tree, path, index)
    if facts is not None:
        _keep(result.tree, index, facts)
    return compose(path, shown(_reminded(result.diagnostics, path, index, about)))


def _whole(paths: list[str], settings: Settings, index: str, facts: IndexFacts) -> Tree:
    """The named files, each container walked whole (`engine.lint`'s own walk)."""
    from mnemolint.discover.walk import discover

    return _recalled(discover(paths, settings), index, facts)


def _alone(paths: list[str], settings: Settings, index: str, facts: IndexFacts | None) -> Tree:
    """The named files, each container holding them alone; a memory dir, not walked, is listed
    once, so that links to its other topics resolve from that."""
    from mnemolint.discover.walk import discover
    from mnemolint.kinds.memory import MemoryDir

    tree = discover(paths, settings, whole_containers=False)
    for container in tree.containers:
        if isinstance(container, MemoryDir):
            container.list_entries()
    return _recalled(tree, index, facts)


def _index_dir(tree: Tree, index: str) -> MemoryDir | None:
    """The memory dir of the run whose index is `index`, when it holds a readable one."""
    from mnemolint.kinds.memory import MemoryDir

    for container in tree.containers:
        if isinstance(container, MemoryDir) and container.index_path == index and container.index is not None:
            return container
    return None


def _recalled(tree: Tree, index: str, facts: IndexFacts | None) -> Tree:
    """`tree`, its memory dir given what an earlier run found of the same text of its index."""
    memdir = _index_dir(tree, index)
    if facts is not None and memdir is not None and memdir.index is not None:
        known = facts.recall(memdir.index)
        if known is not None:
            memdir.recall_index(*known)
    return tree


def _keep(tree: Tree, index: str, facts: IndexFacts) -> None:
    """Keep what this run found of an index text no earlier run had seen."""
    memdir = _index_dir(tree, index)
    if memdir is not None and memdir.index is not None:
        facts.keep(memdir.index, *memdir.index_facts())


def _reminded(diagnostics: list[Diagnostic], path: str, index: str, about: set[int]) -> list[Diagnostic]:
    """What the write can have changed: for a topic, the findings on it and on the index lines
    that link it (what its index says of it); for an index, the findings on it and the topics it
    no longer links (the topics' own titles and links are not what an index write changes)."""
    if path == index:
        return [each for each in diagnostics if each.path == index or each.code == _UNLINKED]
    return [each for each in diagnostics if each.path == path or (each.path == index and each.line in about)]


# A topic no line of the index links (MEM105): what an index write tells of the other files.
_UNLINKED = "MEM105"


def _judged_after(settings: Settings, index_write: bool) -> tuple[Rule, ...] | None:
    """The memory-dir rules in force whose finding in the reminder depends on the other topics
    only in some cases (`Rule.reads_other_members`), judged once the run over the written file
    and its index alone is done (`_needs_whole_dir`); None when one always does, and the dir is
    linted whole at once."""
    from mnemolint.rules import base

    conditional = []
    for rule in _memory_dir_rules(settings):
        if index_write and rule.reports_on == base.ON_MEMBERS and rule.code != _UNLINKED:
            continue  # about the topics' own titles and links: never in an index write's reminder
        others = rule.reads_other_members
        if others == base.OTHERS_NEVER or others == base.OTHERS_LINKED and not index_write:
            continue  # what it says of the written topic reads that topic and the index alone
        if others not in (base.OTHERS_WHEN_FOUND, base.OTHERS_UNLINKED, base.OTHERS_MARKED):
            return None  # every topic's title (MEM208, MEM209), or every topic the index links
        if index_write and others == base.OTHERS_UNLINKED:
            return None  # the topics an index no longer links
        conditional.append(rule)
    return tuple(conditional)


def _memory_dir_rules(settings: Settings) -> list[Rule]:
    """The memory-dir rules in force, importing only their families (not every rule's)."""
    from mnemolint.engine import active
    from mnemolint.kinds.memory import MEMORY_DIR
    from mnemolint.rules import loaded

    return loaded(listed for listed in active(settings) if listed.runs_on == (MEMORY_DIR.name,))


def _needs_whole_dir(result: Result, path: str, index: str, about: set[int], conditional: tuple[Rule, ...]) -> bool:
    """Whether the run over `path` and its index alone could remind of something other than a run
    over the whole memory dir would: a rule whose finding here depends on the other topics."""
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.parse.document import CITES, MARKS
    from mnemolint.rules import base

    containers = result.tree.containers
    if len(containers) != 1 or not isinstance(containers[0], MemoryDir) or containers[0].index_path != index:
        return True  # the file is in another container, or in one inside the memory dir: judged whole
    documents = [document for document in result.tree.documents if document.path in (path, index)]
    if any(document.suppressions is not None for document in documents):
        return True  # what a comment silences, and whether it silences anything (SUP001), is the whole run's
    topic = next((document for document in documents if document.path == path), None)
    reminded = {each.code for each in _reminded(result.diagnostics, path, index, about)}
    for rule in conditional:
        others = rule.reads_other_members
        if others == base.OTHERS_WHEN_FOUND and rule.code in reminded:
            return True  # the topics linked only past the cut are counted over the whole dir
        if others == base.OTHERS_UNLINKED and not about:
            return True  # linked from the index: never an orphan, whatever else links it
        if others == base.OTHERS_MARKED and (
            topic is None or any(topic.holds(mark) for mark in MARKS if mark != CITES)
        ):
            return True  # a link to a folder, or a relation by title, is judged against the others
    return False


def _lines_linking(tree: object, topic: str, index: str) -> set[int]:
    """Lines of the index `index` that link the topic at `topic` (each link resolved as the
    index rules resolved it, `MemoryDir.targets`)."""
    from mnemolint.kinds.memory import MemoryDir

    for container in tree.containers:  # type: ignore[attr-defined]
        if isinstance(container, MemoryDir) and container.index_path == index:
            rel = next((each.rel for each in container.topics if each.path == topic), None)
            if rel is None:
                return set()
            resolve = container.resolve
            return {
                line.number
                for line in container.lines
                for link in line.links
                if (resolved := resolve(link.target)) and resolved.rel == rel and not resolved.problem
            }
    return set()


def compose(path: str, diagnostics: list[Diagnostic]) -> str:
    """One short reminder: what the write caused first, then one line per rule and file, most
    severe first, with the lines it fired on (five named, the rest counted)."""
    if not diagnostics:
        return ""
    from mnemolint.model import severity_rank
    from mnemolint.rules import CODES

    order = {code: number for number, code in enumerate(CODES)}
    groups: dict[tuple[str, bool], list[Diagnostic]] = {}
    for diagnostic in diagnostics:  # one line per rule on this file, and per rule on the others
        groups.setdefault((diagnostic.code, diagnostic.path == path), []).append(diagnostic)
    ranked = sorted(
        groups.values(),
        key=lambda group: (-severity_rank(group[0].severity), group[0].path != path, order[group[0].code]),
    )
    head = next((_AFTER_WRITE[group[0].code] for group in ranked if group[0].code in _AFTER_WRITE), _NOTICE)
    from mnemolint.report import printable

    lines = [f"mnemolint, on the write to {printable(path)}: {head}"]
    shown = ranked if len(ranked) <= MAX_SHOWN else ranked[: MAX_SHOWN - 1]
    lines.extend(_line(group, path) for group in shown)
    if len(shown) < len(ranked):
        rest = sum(len(group) for group in ranked[len(shown) :])
        lines.append(f"- … and {rest:,} more finding{'s' if rest != 1 else ''}: run `mnemolint check` on this file.")
    return "\n".join(lines)


def _line(group: list[Diagnostic], written: str) -> str:
    """`- CODE (severity) where: message`, the message the first finding of the group has."""
    first = group[0]
    files = list(dict.fromkeys(diagnostic.path for diagnostic in group))
    if len(files) > 1:
        names = [_shown_path(file, written) for file in files]
        where = f" in {len(files):,} files ({_some(names)}); {names[0]}"
    else:
        where = "" if first.path == written else f" in {_shown_path(first.path, written)}"
        numbers = [str(diagnostic.line) for diagnostic in group if diagnostic.line is not None]
        if len(numbers) > 1:
            where += f" on {len(numbers):,} lines ({_some(numbers)}); line {numbers[0]}"
        elif first.line is not None:
            where += f" line {first.line}"
    return f"- {first.code} ({first.severity}){where}: {first.message}"


def _some(items: list[str]) -> str:
    """The first five of `items`, and how many more (Wave's capacity rules)."""
    return ", ".join(items[:5]) + (f", +{len(items) - 5:,} more" if len(items) > 5 else "")


def _shown_path(path: str, written: str) -> str:
    """Another file of the finding, relative to the written file's directory, printed as the
    messages are (`report.printable`: a token in a file name is masked)."""
    from mnemolint.report import printable

    return printable(os.path.relpath(path, os.path.dirname(written)).replace(os.sep, "/"))
