"""WAV0xx: rules files (`.wave/rules`, `.claude/rules`), judged the way each agent that loads
them reads them. YAML 1.2 is the truth; Wave's own
frontmatter reader and minimatch, and Claude Code's comma split, brace expansion and gitignore
matching, decide what each agent gets. Every finding names the agent it concerns.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from mnemolint.agents import CLAUDE_CODE, WAVE
from mnemolint.agents.base import Agent
from mnemolint.kinds.rules import RULE_FILE, RULES_DIR, Reading, RulesDir
from mnemolint.model import ERROR, INFO, WARNING, Hit
from mnemolint.options import INT, Option
from mnemolint.parse import globs
from mnemolint.parse.document import Document
from mnemolint.rules.base import ON_MEMBERS, Family, rule

GLOB_MAX_EXPANSIONS = Option(
    "glob-max-expansions",
    INT,
    1_000,
    "most patterns one rule glob may expand to through its braces (Claude Code and older Wave set no cap)",
)
# Keys the agents take from a rule file, or that people write to describe it: no finding.
KNOWN_KEYS = ("paths", "priority", "description", "name")
# Keys of other tools' rule formats, with what to write instead.
FOREIGN_KEYS = {
    "globs": "Cursor's key: did you mean `paths`? Neither Wave nor Claude Code reads `globs`",
    "alwaysApply": "Cursor's key: no agent reads it here; a rule without `paths` is always on",
    "applyTo": "GitHub Copilot's key: did you mean `paths`? No agent reads `applyTo` here",
}
_SCOPING_KEYS = ("globs", "applyTo")  # meant to scope the rule: without `paths` it is always on


def _readings(document: Document, options: dict) -> list[Reading]:
    container = document.container
    assert isinstance(container, RulesDir), "rule files live in rules dirs"
    return container.reading(document, options["glob-max-expansions"])


def agents(readers: list[Agent] | tuple[Agent, ...]) -> str:
    """`Wave`, `Claude Code`, or `Wave and Claude Code`: who a finding concerns."""
    return " and ".join(reader.title for reader in readers)


def _yaml_paths(document: Document) -> tuple[bool, object]:
    """Whether the YAML frontmatter has `paths`, and its value (the truth, YAML 1.2)."""
    data = document.frontmatter.data
    if not isinstance(data, dict) or "paths" not in data:
        return False, None
    return True, data["paths"]


def _left_to_others(document: Document) -> bool:
    """Whether `paths` is mistyped (WAV001) or empty (WAV008): those rules say what each agent
    does with it, and the glob rules do not judge Wave's string of `42` or `~` as a pattern."""
    present, value = _yaml_paths(document)
    return _mistyped(document) or (present and (value is None or value == [] or value == ""))


def _mistyped(document: Document) -> bool:
    """Whether `paths` has a YAML type no agent expects (WAV001's finding, which the glob rules
    leave to it rather than judge Wave's string of `42` as a pattern)."""
    present, value = _yaml_paths(document)
    if not present or value is None or isinstance(value, str):
        return False
    return not (isinstance(value, list) and all(isinstance(item, str) for item in value))


def _line_of(document: Document, written: str) -> int | None:
    """The line of `paths` that holds `written` (a list item), else the `paths` key's line."""
    front = document.frontmatter
    key = front.key_line("paths")
    if key is None:
        return None
    numbers = range(key, front.close_line or key + 1)
    for number in numbers:  # the item that is this pattern (`/src/**` is also inside `./src/**`)
        item = document.lines[number - 1].strip()
        if item.startswith("-") and item[1:].strip().strip("\"'") == written:
            return number
    for number in numbers:
        if written and written in document.lines[number - 1]:
            return number
    return key


def _by_pattern(readings: list[Reading], problem: str) -> dict[str, tuple[list[Agent], str]]:
    """The written patterns with `problem`, each with the agents it hits and the first reason."""
    found: dict[str, tuple[list[Agent], str]] = {}
    for reading in readings:
        for glob in reading.globs:
            if glob.problem == problem:
                readers, why = found.setdefault(glob.written, ([], glob.why))
                if reading.reader not in readers:
                    readers.append(reading.reader)
    return found


@rule(
    "WAV001",
    "rule-paths-type",
    ERROR,
    reads=(RULE_FILE,),
    summary="`paths` is not a string or a list of strings.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_paths_type(document: Document, options: dict) -> Iterator[Hit]:
    if not _mistyped(document):
        return
    _, value = _yaml_paths(document)
    effects = []
    for reading in _readings(document, options):
        if reading.unconditional:
            effects.append(f"{reading.reader.title} finds no pattern in it and injects the rule for every file")
        else:
            patterns = ", ".join(f"`{glob.pattern}`" for glob in reading.globs)
            effects.append(f"{reading.reader.title} reads the text as the pattern {patterns}")
    shape = _shape(value)
    line = document.frontmatter.key_line("paths")
    if isinstance(value, dict) and line is not None and "{" in document.lines[line - 1]:
        shape += " (an unquoted `{…}` is a YAML flow mapping)"
    yield Hit(
        f"`paths` is {shape}, not a string or a list of strings: {'; '.join(effects)}. "
        'Write a list of quoted globs (`- "src/**/*.ts"`).',
        line=line,
    )


def _shape(value: object) -> str:
    if value is None:
        return "a null value"
    if isinstance(value, list):  # `priority: []` and `priority: [high]` hold no odd item
        odd = next((item for item in value if not isinstance(item, str)), "")
        return f"a list holding {_shape(odd)}" if odd != "" else "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


@rule(
    "WAV002",
    "rule-glob-unmatched",
    WARNING,
    reads=RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="A rule glob matches no file of the project: the rule is never injected (a dead rule).",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_glob_unmatched(container: RulesDir, options: dict) -> Iterator[Hit]:
    if container.project is None:
        return
    dead: dict[tuple[str, str], tuple[Document, list[Agent]]] = {}  # each with the agents it is dead for
    for reader in container.readers:
        pending = [
            (document, glob)
            for document in container.rules
            if document.readable
            for reading in (container.read_by(document, reader, options["glob-max-expansions"]),)
            if not reading.unconditional and not misread(document, reading) and not _left_to_others(document)
            for glob in reading.globs
            if glob.problem is None and glob.regex is not None
        ]
        # A written pattern is dead only when none of its brace expansions matches a file.
        unmatched = {id(glob) for _, glob in _unmatched(pending, container.project.files())}
        live = {(document.path, glob.written) for document, glob in pending if id(glob) not in unmatched}
        for document, glob in pending:
            key = (document.path, glob.written)
            if key not in live:
                readers = dead.setdefault(key, (document, []))[1]
                if reader not in readers:
                    readers.append(reader)
    for (_, written), (document, readers) in dead.items():
        yield Hit(
            f"`{_short(written)}` matches no file of the project for {agents(readers)}, so the rule is never injected "
            "through it. Fix the pattern, or delete the rule if what it was for is gone.",
            path=document.path,
            line=_line_of(document, written),
        )


def _unmatched(pending: list[tuple[Document, globs.Glob]], files: list[str]) -> list[tuple[Document, globs.Glob]]:
    """The patterns of `pending` that match none of `files`. A minimatch pattern ending in
    literal text (`**/*.py`) can only match a path ending in it, so it is tried on those alone;
    the rest share one combined expression per file, rebuilt only when a pattern is found live."""
    by_tail: dict[str, list[tuple[Document, globs.Glob]]] = {}
    rest: list[tuple[Document, globs.Glob]] = []
    alone = [item for item in pending if not item[1].combinable]  # each matched by itself, in bounded time
    for item in pending:
        tail = globs.literal_tail(item[1])
        if item[1].combinable:
            (by_tail.setdefault(tail, []) if tail else rest).append(item)
    left = _scan(rest, files) + [item for item in alone if not any(item[1].matches(rel) for rel in files)]
    for tail, items in by_tail.items():
        left += _scan(items, [rel for rel in files if rel.endswith(tail)])
    return left


def _scan(pending: list[tuple[Document, globs.Glob]], files: list[str]) -> list[tuple[Document, globs.Glob]]:
    left = list(pending)
    combined = _combine(left)
    for rel in files:
        if combined is None:
            break
        if combined.match(rel):
            left = [(document, glob) for document, glob in left if not glob.matches(rel)]
            combined = _combine(left)
    return left


def _combine(pending: list[tuple[Document, globs.Glob]]) -> re.Pattern | None:
    if not pending:
        return None
    flags = pending[0][1].regex.flags & re.IGNORECASE  # type: ignore[union-attr]
    return re.compile("|".join(f"(?:{glob.regex.pattern})" for _, glob in pending), flags)  # type: ignore[union-attr]


@rule(
    "WAV003",
    "rule-glob-never-matches",
    ERROR,
    reads=(RULE_FILE,),
    summary="A rule glob in a form the project-relative path never has (absolute, `./`, drive letter, `..`).",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_glob_never_matches(document: Document, options: dict) -> Iterator[Hit]:
    for written, (readers, why) in _by_pattern(_readings(document, options), globs.OUTSIDE).items():
        yield Hit(
            f"`{written}` never matches for {agents(readers)}: {why}. The agents match the path relative to the "
            "project as it is; write it relative to the project root (`src/**`).",
            line=_line_of(document, written),
        )


@rule(
    "WAV004",
    "rule-glob-syntax",
    ERROR,
    reads=(RULE_FILE,),
    summary="A rule glob with unbalanced braces or brackets, more brace expansions than the limit, or too complex "
    "to match in bounded time.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_glob_syntax(document: Document, options: dict) -> Iterator[Hit]:
    readings = [reading for reading in _readings(document, options) if not _flow_literal(reading)]
    for written, (readers, why) in _by_pattern(readings, globs.SYNTAX).items():
        shown = written if len(written) <= 80 else written[:77] + "…"
        yield Hit(
            f"`{shown}` is not a usable glob for {agents(readers)}: {why}. Mnemolint did not match it.",
            line=_line_of(document, written),
        )


def _flow_literal(reading: Reading) -> bool:
    """Wave's literal `[a, b]` (or `[]`): what WAV010 and WAV008 explain, not a glob typo."""
    value = reading.value
    return reading.reader is WAVE and isinstance(value, str) and value.startswith("[") and value.endswith("]")


@rule(
    "WAV005",
    "rule-unknown-key",
    INFO,
    reads=(RULE_FILE,),
    summary="A frontmatter key no agent reads in a rule file (Cursor's `globs:`: did you mean `paths`?).",
)
def rule_unknown_key(document: Document, options: dict) -> Iterator[Hit]:
    data = document.frontmatter.data
    if not isinstance(data, dict):
        return
    for key in data:
        if not isinstance(key, str) or key in KNOWN_KEYS:
            continue
        advice = FOREIGN_KEYS.get(key, "no agent reads it from a rule file; only `paths` scopes a rule")
        if key in _SCOPING_KEYS and "paths" not in data:
            advice += ", so this rule is always on"
        yield Hit(f"`{key}`: {advice}.", line=document.frontmatter.key_line(key))


@rule(
    "WAV006",
    "rule-priority-invalid",
    ERROR,
    reads=(RULE_FILE,),
    summary="`priority` is not an integer.",
)
def rule_priority_invalid(document: Document, options: dict) -> Iterator[Hit]:
    data = document.frontmatter.data
    if not isinstance(data, dict) or "priority" not in data:
        return
    value = data["priority"]
    if isinstance(value, int) and not isinstance(value, bool):
        return
    container = document.container
    assert isinstance(container, RulesDir)
    uses = {WAVE: "Wave parses it and never uses it", CLAUDE_CODE: "Claude Code does not read it"}
    said = "; ".join(uses[reader] for reader in container.readers) or "no agent reads this dir"
    yield Hit(
        f"`priority` is {_shape(value) if not isinstance(value, str) else 'a string'}, not an integer. "
        f"{said}: no agent orders rules by it today.",
        line=document.frontmatter.key_line("priority"),
    )


@rule(
    "WAV007",
    "rule-empty-body",
    WARNING,
    reads=(RULE_FILE,),
    summary="A rule file with no text after its frontmatter: the agent injects nothing.",
)
def rule_empty_body(document: Document, options: dict) -> Iterator[Hit]:
    if not document.readable:
        return
    front = document.frontmatter
    body = document.lines[front.close_line :] if front.close_line else document.lines
    if not any(line.strip() for line in body):
        yield Hit(
            "This rule has no text after its frontmatter: the agents trim it and inject nothing. "
            "Write the rule, or delete the file."
        )


@rule(
    "WAV008",
    "rule-empty-paths",
    WARNING,
    reads=(RULE_FILE,),
    summary="`paths` is present but empty, which makes the rule always on.",
)
def rule_empty_paths(document: Document, options: dict) -> Iterator[Hit]:
    present, value = _yaml_paths(document)
    if not present or not (value is None or value == [] or (isinstance(value, str) and not value.strip())):
        return
    effects: dict[str, list[Agent]] = {}
    for reading in _readings(document, options):
        if reading.unconditional:
            effect = "take{s} it as no condition and inject{s} the rule for every file"
        else:
            effect = f"read{{s}} the literal pattern `{reading.value}` and never inject{{s}} it"
        effects.setdefault(effect, []).append(reading.reader)
    said = "; ".join(
        f"{agents(readers)} {effect.format(s='' if len(readers) > 1 else 's')}" for effect, readers in effects.items()
    )
    yield Hit(
        f"`paths` is empty: {said}. List the globs the rule is for, or remove `paths` if it is meant to be always on.",
        line=document.frontmatter.key_line("paths"),
    )


@rule(
    "WAV009",
    "rule-not-loaded",
    WARNING,
    reads=RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="A file in a rules dir that no agent loads: only `.md` files are rules.",
)
def rule_not_loaded(container: RulesDir, options: dict) -> Iterator[Hit]:
    for path in container.others:
        name = path.rpartition("/")[2].rpartition("\\")[2]
        if name.startswith("."):
            continue  # `.gitkeep`, `.DS_Store`: not meant as rules
        stem, dot, extension = name.rpartition(".")
        hint = (
            f" Names are matched case-sensitively: rename it to `{stem}.md`."
            if dot and extension.lower() == "md"
            else " Cursor's `.mdc` rules are not read here: rename it to `.md` and its `globs:` to `paths:`."
            if extension == "mdc"
            else ""
        )
        yield Hit(
            f"Not a `.md` file: {agents(container.readers) or 'no agent'} "
            f"{'skip' if len(container.readers) > 1 else 'skips'} it, so it is never loaded as a rule.{hint}",
            path=path,
        )


def misread(document: Document, reading: Reading) -> str | None:
    """Why Wave's `paths` differs from what the YAML says (None when it reads it as meant), for
    WAV010, and so that WAV002 does not report the same pattern as dead a second time."""
    present, truth = _yaml_paths(document)
    if reading.reader is not WAVE or not present or not isinstance(truth, (str, list)):
        return None
    if isinstance(truth, list) and not all(isinstance(item, str) for item in truth):
        return None  # not a list of strings: WAV001's finding
    intended = _intended(truth)
    got = globs.wave_values(reading.value)
    if got == intended or not intended:
        return None
    if reading.value is None:  # no `paths` at all: not "reads `None`"
        bom = (document.text or "")[:1] == "\ufeff"
        hidden = " (a byte-order mark hides the whole frontmatter from it)" if bom else ""
        return f"it finds no `paths`{hidden}, so it applies the rule to every file"
    if isinstance(reading.value, str) and reading.value.startswith("[") and isinstance(truth, list):
        return (
            f"a flow list stays the one literal pattern `{reading.value}`, a character class matching "
            "one-character names"
        )
    if isinstance(truth, str) and len(intended) > 1 and str(reading.value).strip() == truth.strip():
        split = "commas" if len(globs.split_commas(truth)) > 1 else "spaces"
        return f"a string is one pattern, never split on {split}, so `{_short(truth)}` matches nothing"
    shown = _show(got) if isinstance(reading.value, list) else f"`{_short(str(reading.value))}`"
    if _commented(got, intended):
        return f"it keeps the inline `# comment` in the value: it reads {shown} where YAML has {_show(intended)}"
    yaml = _show(intended) if isinstance(truth, list) else f"`{_short(truth)}`"
    return f"it reads {shown} where YAML reads {yaml}"


def _commented(got: list[str], intended: list[str]) -> bool:
    """Whether Wave's values are YAML's with an inline `# comment` left on (and a quote torn)."""
    return len(got) == len(intended) and any(" #" in value for value in got) and not any(" #" in v for v in intended)


@rule(
    "WAV010",
    "rule-paths-misread",
    WARNING,
    reads=(RULE_FILE,),
    summary="Wave's frontmatter reader takes `paths` differently from YAML, so the rule never matches as written.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_paths_misread(document: Document, options: dict) -> Iterator[Hit]:
    for reading in _readings(document, options):
        why = misread(document, reading)
        if why:
            _, truth = _yaml_paths(document)
            items = ", ".join(f'`- "{pattern}"`' for pattern in _intended(truth))  # type: ignore[arg-type]
            advice = f"Write a block list, one item per line under `paths:` ({items}): every reader gets that right."
            if (document.text or "")[:1] == "\ufeff" and reading.value is None:
                advice = "Save the file without the byte-order mark (TXT001 fixes it)."
            elif why.startswith("it keeps the inline"):
                advice = "Move the comment to a line of its own: Wave's reader only skips whole comment lines."
            yield Hit(
                f"Wave misreads `paths`: {why}. {advice}",
                line=document.frontmatter.key_line("paths"),
            )


def _intended(truth: str | list) -> list[str]:
    """The patterns a `paths` value means: a list's strings, or a string's comma- or
    whitespace-separated globs (each part must look like a path to count as its own)."""
    if isinstance(truth, list):
        return [item for item in truth if isinstance(item, str)]
    parts = [part.strip() for part in globs.split_commas(truth) if part.strip()]
    if len(parts) == 1:
        words = parts[0].split()
        if len(words) > 1 and all(("/" in word or "*" in word) for word in words):
            return words
    return parts


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"


def _show(patterns: list[str]) -> str:
    return ", ".join(f"`{pattern}`" for pattern in patterns)


@rule(
    "WAV011",
    "rule-shadowed",
    WARNING,
    reads=RULES_DIR,
    reports_on=ON_MEMBERS,
    summary=(
        "Two rules dirs Wave loads hold a rule with the same relative path: the later one silently replaces the other."
    ),
)
def rule_shadowed(container: RulesDir, options: dict) -> Iterator[Hit]:
    for document, winner in container.replaced():
        owner = winner.container
        shown = winner.path if owner.user else os.path.relpath(winner.path, owner.base)  # type: ignore[union-attr]
        yield Hit(
            f"Wave loads `{shown}` after this file, and a rule's id is its path in its rules dir "
            f"(`{document.rel}`): that one replaces this one silently, so Wave never injects this text. "
            "Rename one of them, or merge them.",
            path=document.path,
        )


@rule(
    "WAV012",
    "rule-glob-root-only",
    INFO,
    reads=(RULE_FILE,),
    summary="A bare glob such as `*.ts` matches only files at the project root for Wave.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_glob_root_only(document: Document, options: dict) -> Iterator[Hit]:
    if _left_to_others(document):
        return
    for reading in _readings(document, options):
        if reading.reader is not WAVE or _flow_literal(reading):  # WAV010 explains `[a.ts, b.ts]`
            continue
        for glob in reading.globs:
            body = glob.pattern.lstrip("!")
            if glob.problem is None and "/" not in body and not body.startswith("**"):
                container = document.container
                also = (
                    " (Claude Code already matches it at any depth)"
                    if isinstance(container, RulesDir) and CLAUDE_CODE in container.readers
                    else ""
                )
                yield Hit(
                    f"`{_short(glob.pattern)}` has no `/`, so for Wave (minimatch without matchBase) it matches files "
                    f"at the project root only, not `src/{_short(body).replace('*', 'a', 1)}`. "
                    f"Write `**/{_short(body)}` to match at any depth{also}.",
                    line=_line_of(document, glob.written),
                )


@rule(
    "WAV013",
    "rule-glob-negated",
    WARNING,
    reads=(RULE_FILE,),
    summary="A `!pattern` rule glob: Wave applies the rule to nearly every file, Claude Code to none.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_glob_negated(document: Document, options: dict) -> Iterator[Hit]:
    for reading in _readings(document, options):
        negated = [glob for glob in reading.globs if glob.negated]
        if not negated:
            continue
        if reading.reader is WAVE:
            effect = "Wave matches each pattern on its own, so it applies this rule to every file except those"
        elif len(negated) == len(reading.globs):
            effect = (
                "Claude Code's gitignore matching only takes files back out with `!`, so with no other pattern "
                "the rule applies to no file"
            )
        else:
            continue  # beside positive patterns, Claude Code reads `!` as an exclusion, as meant
        for glob in negated:
            yield Hit(
                f"`{glob.written}`: {effect}. List the globs the rule is for instead.",
                line=_line_of(document, glob.written),
            )


@rule(
    "WAV014",
    "rule-readme-loaded",
    INFO,
    reads=(RULE_FILE,),
    summary="A README.md in a rules dir is loaded as a rule like any other `.md` file.",
    options=(GLOB_MAX_EXPANSIONS,),
)
def rule_readme_loaded(document: Document, options: dict) -> Iterator[Hit]:
    if document.rel.rpartition("/")[2] != "README.md":
        return
    container = document.container
    assert isinstance(container, RulesDir)
    always = all(reading.unconditional for reading in _readings(document, options))
    scope = "for every file" if always else "when its `paths` match"
    yield Hit(
        f"{agents(container.readers) or 'The agent'} {'load' if len(container.readers) > 1 else 'loads'} README.md "
        f"as a rule, {scope}: no agent skips it. "
        "If it documents the rules dir for people, move it out of the dir."
    )


FAMILY = Family(
    "WAV",
    "rules files",
    "rules-files",
    (
        rule_paths_type,
        rule_glob_unmatched,
        rule_glob_never_matches,
        rule_glob_syntax,
        rule_unknown_key,
        rule_priority_invalid,
        rule_empty_body,
        rule_empty_paths,
        rule_not_loaded,
        rule_paths_misread,
        rule_shadowed,
        rule_glob_root_only,
        rule_glob_negated,
        rule_readme_loaded,
    ),
    precision={"WAV002": "high", "WAV005": "medium", "WAV010": "high", "WAV012": "high"},
    cites=("MemoryRule", "Wave"),
)
