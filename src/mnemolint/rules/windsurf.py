"""WSF0xx: Windsurf's workspace rules (`.windsurf/rules/*.md`), read as Windsurf's documentation
describes them: the `trigger` of each rule, its `globs`, and the character limits past which
Cascade never sees the rest (agents/windsurf.py; both limits are options).
"""

from __future__ import annotations

from collections.abc import Iterator

from mnemolint.agents import windsurf
from mnemolint.kinds.editor_rules import (
    ToolRulesDir,
    body_lines,
    dead_glob_hits,
    empty_body,
    fields_of,
    key_patterns,
    short,
)
from mnemolint.kinds.windsurf import WINDSURF_RULE, WINDSURF_RULES_DIR
from mnemolint.model import WARNING, Hit
from mnemolint.options import INT, Option
from mnemolint.parse.document import Document
from mnemolint.parse.textutil import quote, utf16_len, utf16_prefix_index
from mnemolint.rules.base import ON_MEMBERS, Family, rule

MAX_RULE_CHARS = Option(
    "windsurf-max-rule-chars",
    INT,
    windsurf.MAX_RULE_CHARS,
    "characters of one Windsurf rule Cascade sees (Windsurf's documentation: 6,000)",
)
MAX_TOTAL_CHARS = Option(
    "windsurf-max-total-chars",
    INT,
    windsurf.MAX_TOTAL_CHARS,
    "characters of global and workspace rules together Cascade sees (Windsurf's documentation: 12,000)",
)
_PREVIEW = "held-out: 0 findings to judge (no Windsurf rule file in the corpus)"


def trigger(document: Document) -> str:
    return fields_of(document).text("trigger").strip()


def cut(document: Document, limit: int) -> tuple[int, int, int] | None:
    """Where Windsurf's cut falls in a rule's text after its frontmatter: (its characters, the line
    the cut is in, how many characters are lost), or None when all of it fits."""
    fields = fields_of(document)
    body = "\n".join(body_lines(document, fields))
    size = utf16_len(body)
    if size <= limit:
        return None
    kept = body[: utf16_prefix_index(body, limit)]
    return size, fields.close + kept.count("\n") + 1, size - limit


@rule(
    "WSF001",
    "windsurf-rule-too-long",
    WARNING,
    reads=(WINDSURF_RULE,),
    summary="A Windsurf rule over {windsurf-max-rule-chars} characters: Cascade never sees the rest.",
    options=(MAX_RULE_CHARS,),
    cacheable=True,
    preview=_PREVIEW,
)
def windsurf_rule_too_long(document: Document, options: dict) -> Iterator[Hit]:
    limit = int(options["windsurf-max-rule-chars"])
    found = cut(document, limit) if document.readable else None
    if found is None:
        return
    size, line, lost = found
    yield Hit(
        f"This rule is {size:,} characters; Windsurf keeps the first {limit:,} of a rule, so the last {lost:,} — "
        f"from line {line} on ({quote(document.lines[line - 1].strip(), 60)}) — never reach Cascade. "
        "Split it into rules under the limit.",
        line=line,
    )


@rule(
    "WSF002",
    "windsurf-rules-over-total",
    WARNING,
    reads=WINDSURF_RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="Windsurf's always-on rules together are over {windsurf-max-total-chars} characters: the rest is cut.",
    options=(MAX_TOTAL_CHARS, MAX_RULE_CHARS),
    preview=_PREVIEW,
)
def windsurf_rules_over_total(container: ToolRulesDir, options: dict) -> Iterator[Hit]:
    per_rule, limit = int(options["windsurf-max-rule-chars"]), int(options["windsurf-max-total-chars"])
    always = [document for document in container.rules if document.readable and trigger(document) == windsurf.ALWAYS_ON]
    sizes = {document.path: min(per_rule, _size(document)) for document in always}
    total = sum(sizes.values())
    if total <= limit or not always:
        return
    names = [document.rel for document in always]
    yield Hit(
        f"The {len(always)} always-on rules of this folder are {total:,} characters together (each counted up to "
        f"{per_rule:,}); Windsurf keeps {limit:,} characters of global and workspace rules together, global rules "
        f"first, so at least {total - limit:,} characters of these never reach Cascade. Move rules to "
        "`trigger: glob` or `model_decision`, or shorten them.",
        path=always[0].path,
        related=tuple(names),
    )


def _size(document: Document) -> int:
    return utf16_len("\n".join(body_lines(document, fields_of(document))))


def _glob_patterns(document: Document) -> list[tuple[str, int | None]]:
    if trigger(document) != windsurf.GLOB:
        return []  # Windsurf matches `globs` only for a `glob` rule
    return key_patterns(document, "globs")


@rule(
    "WSF003",
    "windsurf-glob-unmatched",
    WARNING,
    reads=WINDSURF_RULES_DIR,
    reports_on=ON_MEMBERS,
    summary="A glob of a Windsurf `glob` rule matches no file of the project: the rule is never applied through it.",
    preview=_PREVIEW,
)
def windsurf_glob_unmatched(container: ToolRulesDir, options: dict) -> Iterator[Hit]:
    yield from dead_glob_hits(container, _glob_patterns, options, "Windsurf never applies this rule through it")


@rule(
    "WSF004",
    "windsurf-glob-trigger-without-globs",
    WARNING,
    reads=(WINDSURF_RULE,),
    summary="A Windsurf rule with `trigger: glob` and no `globs`: it has no file to apply to.",
    preview=_PREVIEW,
)
def windsurf_glob_trigger_without_globs(document: Document, options: dict) -> Iterator[Hit]:
    fields = fields_of(document)
    if trigger(document) == windsurf.GLOB and not fields.patterns("globs"):
        yield Hit(
            "`trigger: glob` applies a rule to the files its `globs` match, and this one has none: Windsurf never "
            "applies it. Add `globs:` with the patterns it is for, or choose another trigger.",
            line=fields.lines.get("trigger"),
        )


@rule(
    "WSF005",
    "windsurf-trigger-unknown",
    WARNING,
    reads=(WINDSURF_RULE,),
    summary="A Windsurf rule `trigger` that is none of `always_on`, `model_decision`, `glob`, `manual`.",
    preview=_PREVIEW,
)
def windsurf_trigger_unknown(document: Document, options: dict) -> Iterator[Hit]:
    fields = fields_of(document)
    value = trigger(document)
    if "trigger" in fields.values and value not in windsurf.TRIGGERS:
        shown = f"`{short(value, 40)}`" if value else "empty"
        yield Hit(
            f"`trigger` is {shown}, which is none of Windsurf's activation modes "
            f"({', '.join(f'`{name}`' for name in windsurf.TRIGGERS)}): when Cascade applies this rule is not "
            "documented. Write one of them.",
            line=fields.lines.get("trigger"),
        )


@rule(
    "WSF006",
    "windsurf-rule-empty",
    WARNING,
    reads=(WINDSURF_RULE,),
    summary="A Windsurf rule with no text after its frontmatter.",
    cacheable=True,
    preview=_PREVIEW,
)
def windsurf_rule_empty(document: Document, options: dict) -> Iterator[Hit]:
    yield from empty_body(document, "Cascade gets nothing from it")


FAMILY = Family(
    "WSF",
    "Windsurf rules",
    "windsurf-rules",
    (
        windsurf_rule_too_long,
        windsurf_rules_over_total,
        windsurf_glob_unmatched,
        windsurf_glob_trigger_without_globs,
        windsurf_trigger_unknown,
        windsurf_rule_empty,
    ),
    precision={"WSF003": "high", "WSF005": "high"},
    cites=("Windsurf",),
)
