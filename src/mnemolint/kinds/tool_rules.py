"""When Cursor, GitHub Copilot, Windsurf and Cline apply each of their rule files: one answer per
file (`activation`), which `explain-rules --agent` and `preview --agent` ask, and the same
readings the CUR, CPL, WSF and CLN rules judge.

A rule file is applied in one of five ways: always (in every session), by its globs (when a file
they match is worked on), on request (the agent reads it when it judges it relevant, by its
description, or a person @-mentions it), or never. Which of them, and why, is each tool's fact
(agents/cursor.py, copilot.py, windsurf.py, cline.py), read from the file as the tool reads it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from mnemolint.agents import cline, copilot, cursor, windsurf
from mnemolint.agents.base import Agent
from mnemolint.kinds.cline import CLINE_RULE, CLINE_RULES_DIR, CLINERULES_FILE
from mnemolint.kinds.copilot import COPILOT_INSTRUCTIONS_DIR, PATH_INSTRUCTIONS
from mnemolint.kinds.cursor import CURSOR_RULE, CURSOR_RULES_DIR, CURSORRULES
from mnemolint.kinds.editor_rules import ToolRulesDir, boolean, compile_loose, read_fields
from mnemolint.kinds.windsurf import WINDSURF_RULE, WINDSURF_RULES_DIR
from mnemolint.parse import globs
from mnemolint.parse.textutil import quote

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.base import ContainerType, Kind
    from mnemolint.parse.document import Document

ALWAYS = "always"
GLOBS = "globs"
REQUESTED = "requested"
NEVER = "never"


class Activation:
    """How a tool applies one rule file: `mode` (ALWAYS, GLOBS, REQUESTED, NEVER), its `patterns`
    (GLOBS), `why` in the words of an explanation, and `compile` how a pattern is read."""

    __slots__ = ("mode", "patterns", "why", "compile")

    def __init__(self, mode: str, why: str, patterns: list[str] | None = None, compile: Callable | None = None) -> None:
        self.mode = mode
        self.why = why
        self.patterns = patterns or []
        self.compile = compile or compile_loose

    def matched(self, rels: list[str], limit: int) -> str | None:
        """The first pattern that selects one of `rels` (the file, relative to each base its
        globs may start from), None when none does."""
        for pattern in self.patterns:
            if any(glob.matches(rel) for glob in self.compile(pattern, limit) for rel in rels):
                return pattern
        return None


def _cursor(document: Document) -> Activation:
    fields = read_fields(document.text or "")
    patterns = fields.patterns("globs")
    description = fields.text("description").strip()
    kind = cursor.kind_of_rule(boolean(fields.values.get("alwaysApply")), bool(patterns), bool(description))
    if kind == cursor.ALWAYS:
        return Activation(ALWAYS, "`alwaysApply: true`")
    if kind == cursor.AUTO_ATTACHED:
        return Activation(GLOBS, "", patterns)
    if kind == cursor.AGENT_REQUESTED:
        return Activation(REQUESTED, f"agent-requested, by its description: {quote(description, 60)}")
    return Activation(REQUESTED, "manual: only when @-mentioned")


def _cursorrules(document: Document) -> Activation:
    return Activation(ALWAYS, "the legacy `.cursorrules`, in every chat")


def _copilot(document: Document) -> Activation:
    fields = read_fields(document.text or "")
    if "coding-agent" in (fields.text("excludeAgent"), *fields.patterns("excludeAgent")):
        return Activation(NEVER, f"`excludeAgent: coding-agent`: the Copilot CLI {copilot.VERSION} leaves it out")
    patterns = fields.patterns("applyTo")
    if all(pattern in copilot.ALWAYS_PATTERNS for pattern in patterns):
        said = f"`applyTo: {patterns[0]}`" if patterns else "no `applyTo`"
        return Activation(ALWAYS, f"{said}: the Copilot CLI loads it whole (VS Code only when attached)")
    return Activation(GLOBS, "the Copilot CLI lists it to the model, which reads it", patterns)


def _windsurf(document: Document) -> Activation:
    fields = read_fields(document.text or "")
    trigger = fields.text("trigger").strip()
    if trigger == windsurf.ALWAYS_ON:
        return Activation(ALWAYS, "`trigger: always_on`")
    if trigger == windsurf.GLOB:
        return Activation(GLOBS, "", fields.patterns("globs"))
    if trigger == "model_decision":
        description = fields.text("description").strip()
        return Activation(REQUESTED, f"model decision, by its description: {quote(description, 60)}")
    if trigger == "manual":
        return Activation(REQUESTED, "manual: only when @-mentioned")
    return Activation(REQUESTED, f"`trigger: {quote(trigger, 30)}`, which Windsurf does not document")


def applied_paths(document: Document) -> list[str] | None:
    """Cline's patterns: None when it ignores `paths` (absent, or not a list of non-empty strings:
    the rule loads for every request), [] when it matches nothing (agents/cline.py)."""
    data = document.frontmatter.data
    value = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        return None
    return [item.strip() for item in value if item.strip()]


def exact(pattern: str, limit: int) -> list[globs.Glob]:
    """A pattern as picomatch `{dot: true}` takes it (minimatch's semantics: Cline)."""
    glob = globs.compile_wave(pattern, limit)
    return [glob] if glob.problem is None and glob.regex is not None else []


def _cline(document: Document) -> Activation:
    patterns = applied_paths(document)
    if patterns is None:
        return Activation(ALWAYS, "no `paths` Cline applies: loaded for every request")
    if not patterns:
        return Activation(NEVER, "`paths: []`: Cline never loads it")
    return Activation(GLOBS, "", patterns, exact)


ACTIVATIONS: dict[Kind, Callable[[Document], Activation]] = {
    CURSOR_RULE: _cursor,
    CURSORRULES: _cursorrules,
    PATH_INSTRUCTIONS: _copilot,
    WINDSURF_RULE: _windsurf,
    CLINE_RULE: _cline,
    CLINERULES_FILE: _cline,
}
READERS: dict[ContainerType | Kind, Agent] = {
    CURSOR_RULES_DIR: cursor.AGENT,
    CURSORRULES: cursor.AGENT,
    COPILOT_INSTRUCTIONS_DIR: copilot.AGENT,
    WINDSURF_RULES_DIR: windsurf.AGENT,
    CLINE_RULES_DIR: cline.AGENT,
    CLINERULES_FILE: cline.AGENT,
}
# Whose rules folders of the folders on the way to a file count (Cursor's and Windsurf's nested
# ones), and whose only in the session folder (Copilot: the git root and the session folder; Cline:
# the workspace root).
ENTERED = (CURSOR_RULES_DIR, WINDSURF_RULES_DIR)


def activation(document: Document) -> Activation:
    """How the document's tool applies it."""
    assert document.kind is not None and document.kind in ACTIVATIONS, document.kind
    return ACTIVATIONS[document.kind](document)


def rule_files(agent: Agent, containers: list, documents: list, root: str, folders: list[str]) -> list[Document]:
    """The rule files `agent` may load for a session in `root` working on a file in the last of
    `folders` (root first): its rules folders there, and its root files, in name order."""
    found: list[Document] = []
    for container in containers:
        if isinstance(container, ToolRulesDir) and READERS.get(container.type) is agent:
            places = folders if container.type in ENTERED else [root]
            if container.base in places:
                found.extend(sorted(container.rules, key=lambda document: document.path))
    for document in documents:
        if READERS.get(document.kind) is agent and os.path.dirname(document.path) == root:
            found.append(document)
    return found
