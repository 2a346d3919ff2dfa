"""`rules/manifest.py` lists every rule and option as the family modules declare them, so that a
run imports only the families it uses. `python tests/test_rule_manifest.py` writes it again."""

from __future__ import annotations

import sys
from pathlib import Path

from mnemolint import rules
from mnemolint.kinds.base import ContainerType
from mnemolint.kinds.registry import CONTAINERS, KINDS
from mnemolint.rules import base, manifest
from mnemolint.rules.base import Rule

MANIFEST = Path(manifest.__file__)
HEAD = '''"""What start-up needs of every rule and option, without importing a family: generated from the
family modules by `python tests/test_rule_manifest.py`, which fails while it differs from them.

`RULES`: each rule in registry order, as `rules.Listed` takes it: code, family module, default
severity, cacheable, in the preview tier, and what a tree must hold for it to find anything (the
names of the kinds and container types it reads, or a tree rule's `needs`; else one of
`rules.base`'s TREE, SUPPRESSIONS, EVERY_KIND, EVERY_FILE).
`OPTIONS`: each family option, as `Option(name, type, default, help, choices)` takes it.
"""

# ruff: noqa: E501 - generated: an option's help is one string
'''
WIDTH = 120


def runs_on(rule: Rule) -> tuple[str, ...] | str:
    """What a tree must hold for `rule` to find anything, as `rules.Listed` says it."""
    if isinstance(rule.reads, tuple):
        return tuple(kind.name for kind in rule.reads)
    if isinstance(rule.reads, ContainerType):
        return (rule.reads.name,)
    return tuple(each.name for each in rule.needs) if rule.needs else rule.reads


def _literal(value: object, indent: int) -> str:
    """`value` as ruff formats it: on one line where it fits, else one item a line with a trailing comma."""
    if isinstance(value, str):
        assert '"' not in value or "'" not in value, value
        return repr(value) if '"' in value else '"' + repr(value)[1:-1].replace("\\'", "'") + '"'
    if not isinstance(value, tuple) or not value:
        return repr(value)
    items = [_literal(item, indent + 4) for item in value]
    flat = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if indent + len(flat) + 1 <= WIDTH and "\n" not in flat:
        return flat
    pad = " " * (indent + 4)
    return "(\n" + "".join(f"{pad}{item},\n" for item in items) + " " * indent + ")"


def generate() -> str:
    listed = (
        (rule.code, module, rule.severity, rule.cacheable, bool(rule.preview), runs_on(rule))
        for module, family in zip(rules.MODULES, rules.FAMILIES, strict=True)
        for rule in family.rules
    )
    declared = {option.name: option for family in rules.FAMILIES for option in family.options}
    options = ((o.name, o.type, o.default, o.help, o.choices) for o in declared.values())
    return (
        HEAD
        + "RULES = (\n"
        + "".join(f"    {_literal(row, 4)},\n" for row in listed)
        + ")\nOPTIONS = (\n"
        + "".join(f"    {_literal(row, 4)},\n" for row in options)
        + ")\n"
    )


def test_the_manifest_is_the_families_own() -> None:
    """Every rule's code, severity, cacheability, tier and reads, every option, in order: a rule
    added, moved, retiered or given another option fails here until the manifest is written again."""
    assert MANIFEST.read_text(encoding="utf-8") == generate(), "run `python tests/test_rule_manifest.py`"


def test_the_light_registry_agrees_with_the_whole_one() -> None:
    assert rules.CODES == tuple(rule.code for rule in rules.RULES)
    assert rules.PREVIEW == frozenset(rule.code for rule in rules.RULES if rule.preview)
    assert [(o.name, o.type, o.default, o.help, o.choices) for o in rules.declared_options().values()] == [
        (o.name, o.type, o.default, o.help, o.choices) for o in rules.OPTIONS.values()
    ]
    assert rules.loaded(rules.LISTED) == list(rules.RULES)
    # a tree holds kinds and container types by name (`rules.runnable`): no two share one
    kinds = [kind.name for kind in KINDS]
    containers = [container.name for container in CONTAINERS]
    assert len(set(kinds + containers)) == len(kinds) + len(containers)
    assert all(rule.reads == base.TREE for rule in rules.RULES if rule.needs)  # only a tree rule needs


def test_a_rule_runs_where_its_reads_are_found() -> None:
    by_code = {listed.code: listed for listed in rules.LISTED}

    def runs(code: str, held: set[str], documents: bool = True) -> bool:
        return bool(rules.runnable([by_code[code]], held, documents))

    assert runs("MEM201", {"memory topic"}) and not runs("MEM201", {"rule file", "rules dir"})
    assert runs("MEM101", {"memory dir"}) and not runs("MEM101", {"memory topic", "rules dir"})
    assert runs("TXT001", {"rule file"}) and not runs("TXT001", set())
    assert runs("NST002", set()) and not runs("NST002", set(), documents=False)
    assert runs("LNK001", set(), documents=False) and runs("SUP001", set(), documents=False)
    # a tree rule that needs a kind: Claude Code's imports start from an instruction file
    assert runs("CLD001", {"instruction file"}) and runs("CLD001", {"rule file"})
    assert not runs("CLD001", {"memory dir", "memory index", "memory topic"})
    assert runs("GIT001", {"ai-memory dir"}) and not runs("GIT001", {"gitignore"})


if __name__ == "__main__":  # write the manifest again
    MANIFEST.write_text(generate(), encoding="utf-8")
    sys.exit(0)
