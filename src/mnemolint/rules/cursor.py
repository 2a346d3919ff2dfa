"""CUR0xx: Cursor's rules (`.cursor/rules/**/*.mdc`, the legacy `.cursorrules`), read the way
Cursor reads them: its own frontmatter format (`globs: *.tsx, src/**` unquoted is a comma list,
not broken YAML), the four kinds of rule its fields give, the globs matched against the
project's listing. The facts are agents/cursor.py's, from Cursor's documentation.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from mnemolint.agents import cursor
from mnemolint.discover.tree import Tree
from mnemolint.kinds.cursor import CURSOR_RULE, CURSOR_RULES_DIR, CURSORRULES
from mnemolint.kinds.editor_rules import (
    ToolRulesDir,
    body_of,
    boolean,
    dead_glob_hits,
    empty_body,
    fields_of,
    key_patterns,
    short,
)
from mnemolint.model import INFO, WARNING, Hit
from mnemolint.options import INT, Option
from mnemolint.parse.document import Document
from mnemolint.rules.base import ON_MEMBERS, TREE, Family, rule

CURSOR_MAX_LINES = Option(
    "cursor-max-lines",
    INT,
    cursor.ADVISED_MAX_LINES,
    "most lines a Cursor rule may have before CUR005 (Cursor's documentation advises under 500)",
)
_PREVIEW = "held-out: 0 findings on the corpus's 14 Cursor rule files (3 repositories), fewer than 5 to judge"


@rule(
    "CUR001",
    "cursor-glob-unmatched",
    WARNING,
    reads=CURSOR_RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="A Cursor rule glob matches no file of the project: the rule is never attached through it.",
    preview=_PREVIEW,
)
def cursor_glob_unmatched(container: ToolRulesDir, options: dict) -> Iterator[Hit]:
    yield from dead_glob_hits(container, _live_globs, options, "Cursor never attaches this rule through it")


def _live_globs(document: Document) -> list[tuple[str, int | None]]:
    """The globs Cursor acts on: none of a rule with `alwaysApply: true` (CUR003 says so)."""
    return [] if boolean(fields_of(document).values.get("alwaysApply")) else key_patterns(document, "globs")


@rule(
    "CUR002",
    "cursor-rule-manual-only",
    INFO,
    reads=(CURSOR_RULE,),
    summary="A Cursor rule with no `globs`, no `description` and no `alwaysApply: true` applies only when @-mentioned.",
    preview=_PREVIEW,
)
def cursor_rule_manual_only(document: Document, options: dict) -> Iterator[Hit]:
    if not document.readable:
        return
    fields = fields_of(document)
    always = boolean(fields.values.get("alwaysApply"))
    kind = cursor.kind_of_rule(always, bool(fields.patterns("globs")), bool(fields.text("description").strip()))
    if kind != cursor.MANUAL or not body_of(document).strip():
        return  # an empty rule is CUR004's
    said = "has no frontmatter" if not fields.close else "has no `globs`, no `description` and no `alwaysApply: true`"
    yield Hit(
        f"This rule {said}, so Cursor applies it only when someone @-mentions it in a chat (a manual rule): "
        "it never applies by itself. Add `globs` for the files it is for, a `description` the agent can judge "
        "it by, or `alwaysApply: true`, if it is meant to apply on its own.",
        line=fields.lines.get("alwaysApply") or (1 if fields.close else None),
    )


@rule(
    "CUR003",
    "cursor-always-with-globs",
    WARNING,
    reads=(CURSOR_RULE,),
    summary="A Cursor rule with `alwaysApply: true` and `globs`: Cursor ignores the globs and applies it everywhere.",
    preview=_PREVIEW,
)
def cursor_always_with_globs(document: Document, options: dict) -> Iterator[Hit]:
    fields = fields_of(document)
    patterns = fields.patterns("globs")
    if not boolean(fields.values.get("alwaysApply")) or all(set(pattern) <= {"*", "/"} for pattern in patterns):
        return  # no globs, or only `**/*`: they say what `alwaysApply` says
    shown = ", ".join(f"`{short(pattern, 40)}`" for pattern in patterns[:3]) + (" …" if len(patterns) > 3 else "")
    yield Hit(
        f"`alwaysApply: true` makes Cursor include this rule in every chat and ignore its globs ({shown}). "
        "Set `alwaysApply: false` if it is meant for those files only, or remove `globs`.",
        line=fields.lines.get("alwaysApply"),
    )


@rule(
    "CUR004",
    "cursor-rule-empty",
    WARNING,
    reads=(CURSOR_RULE, CURSORRULES),
    summary="A Cursor rule with no text after its frontmatter: Cursor has nothing to apply.",
    cacheable=True,
    preview=_PREVIEW,
)
def cursor_rule_empty(document: Document, options: dict) -> Iterator[Hit]:
    yield from empty_body(document, "Cursor has nothing to apply")


@rule(
    "CUR005",
    "cursor-rule-long",
    INFO,
    reads=(CURSOR_RULE, CURSORRULES),
    summary="A Cursor rule of more than {cursor-max-lines} lines: Cursor's documentation advises splitting it.",
    options=(CURSOR_MAX_LINES,),
    cacheable=True,
    preview=_PREVIEW,
)
def cursor_rule_long(document: Document, options: dict) -> Iterator[Hit]:
    limit = int(options["cursor-max-lines"])
    count = len(document.lines) - (document.lines[-1:] == [""])
    if document.readable and count > limit:
        yield Hit(
            f"This rule is {count:,} lines; Cursor's documentation advises keeping a rule under {limit:,} and "
            "splitting a larger one into focused rules: all of it takes context whenever it applies.",
            line=limit + 1,
        )


@rule(
    "CUR006",
    "cursorrules-beside-rules",
    WARNING,
    reads=TREE,
    needs=(CURSORRULES,),
    reads_members=False,
    reports_on=ON_MEMBERS,
    summary="A legacy `.cursorrules` beside a `.cursor/rules` folder: two places for one project's rules.",
    preview=_PREVIEW,
)
def cursorrules_beside_rules(tree: Tree, options: dict) -> Iterator[Hit]:
    bases = _cursor_bases(tree)
    for document in tree.documents:
        if document.kind is CURSORRULES and os.path.dirname(document.path) in bases:
            yield Hit(
                "`.cursorrules` is Cursor's legacy rules file, deprecated in favour of `.cursor/rules/`, which this "
                "folder also has: the two are loaded side by side today and the legacy file may stop being read. "
                "Move what it says into a rule in `.cursor/rules/` (`alwaysApply: true` keeps it in every chat) and "
                "delete it.",
                path=document.path,
            )


def _cursor_bases(tree: Tree) -> set[str]:
    """The folders holding a `.cursor/rules` with at least one rule."""
    return {
        container.base
        for container in tree.containers
        if isinstance(container, ToolRulesDir) and container.type is CURSOR_RULES_DIR and container.rules
    }


FAMILY = Family(
    "CUR",
    "Cursor rules",
    "cursor-rules",
    (
        cursor_glob_unmatched,
        cursor_rule_manual_only,
        cursor_always_with_globs,
        cursor_rule_empty,
        cursor_rule_long,
        cursorrules_beside_rules,
    ),
    precision={"CUR001": "high", "CUR002": "high", "CUR005": "medium"},
    cites=("Cursor",),
)
