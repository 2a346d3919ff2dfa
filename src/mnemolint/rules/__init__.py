"""The rule registry: one explicit, ordered tuple of families. A rule's code is its public, stable name.

The order of `MODULES`, and of the rules in each family, is the public order of `mnemolint
rules`, the README table and SARIF's `rules[]`. Everything else is derived: a new family is one
module ending in `FAMILY = Family(...)` plus one line in `MODULES`, then `python
tests/test_rule_manifest.py` to list its rules in `rules/manifest.py`.

A run imports only what it uses. What start-up needs of every rule (its code, severity, tier, what
it reads; every option) is `manifest.py`, plain data, so that the configuration, the selection
and `--preview` import no family (`LISTED`, `CODES`, `PREVIEW`, `declared_options`); `loaded`
imports the families of the rules a tree can run (`runnable`), and the whole registry
(`FAMILIES`, `RULES`, `BY_CODE`, `FAMILY_OF`, `OPTIONS`) is imported on first use of any of
those names (`mnemolint rules`, SARIF, the docs).
"""

from __future__ import annotations

from mnemolint.rules import manifest
from mnemolint.rules.base import EVERY_FILE, EVERY_KIND, SUPPRESSIONS, TREE

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterable

    from mnemolint.options import Option
    from mnemolint.rules.base import Family, Rule

    # the whole registry, made by `__getattr__` on first use
    FAMILIES: tuple[Family, ...]
    RULES: tuple[Rule, ...]
    BY_CODE: dict[str, Rule]
    FAMILY_OF: dict[str, Family]
    OPTIONS: dict[str, Option]

# The family modules, in registry order.
MODULES: tuple[str, ...] = (
    "index",
    "topic",
    "frontmatter",
    "text",
    "wave",
    "nested",
    "claude",
    "codex",
    "gemini",
    "opencode",
    "links",
    "secrets",
    "ai_memory",
    "gitignore",
    "citations",
    "suppression",
    "cursor",
    "copilot",
    "windsurf",
    "cline",
)


class Listed:
    """A rule as `manifest.py` lists it: what selecting it, caching its findings and deciding
    whether a tree can run it need, without its module. `runs_on` is what a tree must hold for the
    rule to find anything: the names of the kinds of document and types of container it reads (a
    tree rule's `needs`), or one of `rules.base`'s `TREE`, `SUPPRESSIONS`, `EVERY_KIND`,
    `EVERY_FILE`; `preview` whether it is in the preview tier (its reason is the `Rule`'s)."""

    __slots__ = ("code", "module", "severity", "cacheable", "preview", "runs_on")

    def __init__(
        self, code: str, module: str, severity: str, cacheable: bool, preview: bool, runs_on: tuple[str, ...] | str
    ) -> None:
        self.code = code
        self.module = module
        self.severity = severity
        self.cacheable = cacheable
        self.preview = preview
        self.runs_on = runs_on

    def __repr__(self) -> str:
        return f"<Listed {self.code}>"


LISTED: tuple[Listed, ...] = tuple(Listed(*row) for row in manifest.RULES)
CODES: tuple[str, ...] = tuple(listed.code for listed in LISTED)
PREVIEW: frozenset[str] = frozenset(listed.code for listed in LISTED if listed.preview)  # on only in preview mode
_ALWAYS = (TREE, SUPPRESSIONS)


def runnable(listed: Iterable[Listed], held: set[str], documents: bool) -> list[Listed]:
    """The rules of `listed` that can find anything in a tree holding the kinds of document and
    types of container named `held`, and any `documents` at all (some perhaps unreadable): a tree
    rule that needs nothing and a suppression rule always can."""
    found = []
    for each in listed:
        runs_on = each.runs_on
        if isinstance(runs_on, tuple):
            usable = not held.isdisjoint(runs_on)
        elif runs_on == EVERY_KIND:  # of a document that was read, which has a kind
            usable = documents and bool(held)
        elif runs_on == EVERY_FILE:
            usable = documents
        else:
            usable = runs_on in _ALWAYS
        if usable:
            found.append(each)
    return found


_FAMILIES: dict[str, Family] = {}


def _family(module: str) -> Family:
    """The family of `module`, imported once."""
    family = _FAMILIES.get(module)
    if family is None:
        # `__import__` with a `fromlist` gives the module itself, without importing `importlib`
        family = _FAMILIES[module] = __import__(f"{__name__}.{module}", fromlist=["FAMILY"]).FAMILY
    return family


def loaded(listed: Iterable[Listed]) -> list[Rule]:
    """The rules of `listed`, in its order, importing only their families."""
    listed = list(listed)
    modules = dict.fromkeys(each.module for each in listed)
    rules = {rule.code: rule for module in modules for rule in _family(module).rules}
    return [rules[each.code] for each in listed]


_DECLARED: dict[str, Option] = {}


def declared_options() -> dict[str, Option]:
    """Every configurable threshold as the manifest lists it, the families' own then the core
    ones the parse layer reads: what the configuration is validated against and defaults to."""
    if not _DECLARED:
        from mnemolint.options import SHARED, Option

        _DECLARED.update({entry[0]: Option(*entry) for entry in manifest.OPTIONS})
        _DECLARED.update({option.name: option for option in SHARED})
    return _DECLARED


def __getattr__(name: str) -> object:
    """The whole registry, imported on first use of one of its names (PEP 562)."""
    if name not in ("FAMILIES", "RULES", "BY_CODE", "FAMILY_OF", "OPTIONS"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from mnemolint.options import SHARED

    families = tuple(_family(module) for module in MODULES)
    rules = tuple(rule for family in families for rule in family.rules)
    globals().update(
        FAMILIES=families,
        RULES=rules,
        BY_CODE={rule.code: rule for rule in rules},
        FAMILY_OF={rule.code: family for family in families for rule in family.rules},
        # Every configurable threshold: the families' own, then the core ones the parse layer reads.
        OPTIONS={
            option.name: option for option in (*(option for family in families for option in family.options), *SHARED)
        },
    )
    return globals()[name]
