"""What a rule is (stable code, kebab-case name, default severity, what it reads, fix, options, check),
and what a family of rules is (code prefix, title, SARIF tag, options, per-rule facts).

A rule is one function wrapped by `@rule(...)`; the decorator returns the `Rule` and registers
nothing. A family module ends with its `FAMILY = Family(...)`, listing its rules in their public
order; the registry in `rules/__init__.py` is one explicit tuple of families (no import side
effects), from which the rules, the codes and the options are derived.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mnemolint.model import Hit
from mnemolint.options import SHARED, Option
from mnemolint.precision import preview_reason

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.base import ContainerType, Kind
    from mnemolint.parse.document import Document

# What a rule reads (`reads=`), and so what its check function is called with:
#   a tuple of kinds         each document of those kinds: check(document, options)
#   EVERY_KIND               each document of any kind (text hygiene reads them all)
#   EVERY_FILE               every document, and every path the walk could not read
#   a container type         each container of that type: check(container, options)
#   TREE                     the whole discovery result, once: check(tree, options)
#   SUPPRESSIONS             each document in focus with suppression comments, once every other
#                            finding is filtered: check(audit, options), an `Audit`
EVERY_KIND = "every kind"
EVERY_FILE = "every file"
TREE = "tree"
SUPPRESSIONS = "suppressions"

# For container rules, which file their findings are about; this decides whether a run over a
# few changed files (pre-commit) needs the rule at all.
MARKED = "where marked"  # `reads_members`: a tree rule reads a member only where `Document.holds` finds a mark
ON_ANCHOR = "anchor"  # the container's anchor file (a memory dir's MEMORY.md)
ON_MEMBERS = "members"  # the documents in it (a memory dir's topics)
ON_EACH = "each"  # the file each finding names, reported only where that file is in focus (an index's own lines)
ON_CONTAINER = "container"  # the container as a whole

# For a memory-dir rule, when what it says of a write depends on the dir's other topics
# (`reads_other_members`): the agent hook (commands/hook.py) lints a write with the written file
# and its index alone unless a rule in force says it may need them. "What it says of a write": of
# a topic write, its findings on the topic and on the index lines that link it; of an index write,
# its findings on the index (and MEM105's orphans).
OTHERS_ALWAYS = "always"  # may depend on any other topic: the hook lints the whole dir (the default)
OTHERS_NEVER = "never"  # reads the index and the file it reports on; a link to another resolves by name
OTHERS_LINKED = "linked"  # on an index line, reads the topic it links: of an index write, every topic
OTHERS_WHEN_FOUND = "when found"  # only where it has a finding in the reminder (the cut's count of them)
OTHERS_UNLINKED = "unlinked"  # only for a topic no line of the index links (a secondary index may)
OTHERS_MARKED = "marked"  # only for a topic that holds a link or relation (parse/document.MARKS)


class Audit:
    """What a `reads=SUPPRESSIONS` rule is given: a document's suppression comments once the run's
    other findings are filtered. `used` holds the marks (`parse.suppress.Mark`) that silenced a
    finding; `ran` the codes of the rules that ran, `codes` every code there is."""

    __slots__ = ("document", "used", "ran", "codes")

    def __init__(
        self, document: Document, used: set[tuple[int, str]], ran: frozenset[str], codes: tuple[str, ...]
    ) -> None:
        self.document = document
        self.used = used
        self.ran = ran
        self.codes = codes

    def names(self, selector: str) -> list[str]:
        """The codes `selector` takes in (none: it names no rule, a typo or a removed code)."""
        from mnemolint.selection import matches

        return [code for code in self.codes if matches(selector, code)]


class Rule:
    """`template` is the one-sentence summary with `{option-name}` where a threshold goes;
    `summary` is it with the defaults filled in, `describe(options)` with the options in force.

    `cacheable`: for a per-file rule, it reads one document and its findings are a function of
    that file's bytes, its path, kind, container path and reader, and the options, nothing else
    (no other file, no project listing, no git, no clock); they are about that file only and carry
    no computed (`build`) fix. For a container rule, its findings are a function of the
    container's path, its documents (paths, bytes, kinds), the names of its other files, its
    marker link, the options, and what it asks the file system through the container
    (`Container.probes`), nothing else: no project listing, no git, no clock, no file outside it.
    Only such a rule's findings are kept in the cache (cache.py); every other rule runs on every
    run, which is why False is the default.

    `needs`: for a tree rule, the kinds of document or types of container it looks at, when it can
    find nothing in a tree holding none of them (Claude Code's imports start from an instruction
    file): it is not run there, and its family not imported (`rules.runnable`). Empty: it runs on
    every tree.

    `reads_members`: for a tree rule, whether it may read documents inside containers (False: it
    reads only files in no container, such as instruction files). A warm run leaves the unchanged
    files of a container whose findings were cached unread unless a tree rule that runs reads
    them; a wrong False costs only time (the file is then read when asked for), never a finding.
    `MARKED`: it reads a member only once `Document.holds` found a mark in it (the CIT rules: a
    citation), which the cache answers for an unchanged file without decoding what it knows of it.

    `reads_other_members`: for a memory-dir rule, when what it says of a write to one topic (or
    to the index) depends on the other topics (`OTHERS_ALWAYS`, the default, … `OTHERS_MARKED`);
    a wrong value changes the agent hook's reminder, so a new rule is judged over the whole dir.

    `preview`: why the rule is not on by default, as measured (its precision on repositories it
    was not tuned on, or how few findings there were to judge); None for a default rule. A
    preview rule runs only with `--preview` or `preview = true`, however it is selected
    (`selection.in_preview`), as in ruff. A rule without it is in preview unless measured
    precise enough (`precision.py`), which is how a rule leaves preview.
    """

    __slots__ = (
        "code",
        "name",
        "severity",
        "reads",
        "template",
        "summary",
        "fix",
        "options",
        "reports_on",
        "check",
        "since",
        "cacheable",
        "reads_members",
        "needs",
        "reads_other_members",
        "member_facts",
        "preview",
    )

    def __init__(
        self,
        code: str,
        name: str,
        severity: str,
        reads: tuple[Kind, ...] | ContainerType | str,
        template: str,
        fix: str | None,
        options: tuple[Option, ...],
        reports_on: str,
        check: Callable[..., Iterable[Hit]],
        since: str,
        cacheable: bool = False,
        preview: str | None = None,
    ) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.reads = reads
        self.template = template
        self.fix = fix
        self.options = options
        self.reports_on = reports_on
        self.check = check
        self.since = since
        self.cacheable = cacheable
        self.reads_members: bool | str = True
        self.needs: tuple[Kind | ContainerType, ...] = ()
        self.reads_other_members = OTHERS_ALWAYS
        self.member_facts: tuple[tuple[Kind, str, Callable[[Document], object]], ...] = ()
        self.preview = preview
        self.summary = self.describe({})  # a placeholder naming no option of the rule fails here, at import

    def describe(self, options: dict[str, object]) -> str:
        """The summary with each threshold from `options`, or its default where `options` has none."""
        return self.template.format_map(
            {option.name: option.shown(options.get(option.name, option.default)) for option in self.options}
        )

    def __repr__(self) -> str:
        return f"<Rule {self.code} {self.name}>"


class Family:
    """Rules that share a code prefix, and the facts reporters and tests read about them.

    `tag` is the SARIF tag (and category) of its rules. A security family (LNK, SEC) gives
    `security`, mapping each of its rules to its GitHub security severity (">= 9.0 critical, 7.0
    high, 4.0 medium, else low"; tests/test_families.py fails on a rule without one); other
    families leave it None. `precision` gives the rules that judge rather than
    measure (SARIF's "very-high" otherwise: the rule counts exactly what the agent counts); a rule
    measured on held-out repositories gets its measured class instead (`precision.sarif_precision`).
    `sensitive`: its findings exist because of a secret, so SARIF fingerprints the message (the
    masked one: every family's message is redacted before any reporter sees it), not the source line.
    `cites`: words one of which each of its pages' "Why it matters" section names, its source.
    `options` are the family's own: those its rules take, less the shared ones (the parse layer
    reads them, and the clock: `options.SHARED`), in the order its rules first name them.
    """

    __slots__ = ("prefix", "title", "tag", "rules", "options", "security", "precision", "sensitive", "cites")

    def __init__(
        self,
        prefix: str,
        title: str,
        tag: str,
        rules: tuple[Rule, ...],
        *,
        security: dict[str, str] | None = None,
        precision: dict[str, str] | None = None,
        sensitive: bool = False,
        cites: tuple[str, ...] = ("Wave", "`.ai-memory` skill", "memory tool"),
    ) -> None:
        self.prefix = prefix
        self.title = title
        self.tag = tag
        self.rules = rules
        for each in rules:  # a rule is on by default only when measured so (precision.py)
            each.preview = each.preview or preview_reason(each.code)
        self.options = tuple(dict.fromkeys(option for rule in rules for option in rule.options if option not in SHARED))
        self.security = security
        self.precision = precision or {}
        self.sensitive = sensitive
        self.cites = cites

    def __repr__(self) -> str:
        return f"<Family {self.prefix} {self.title}>"


def rule(
    code: str,
    name: str,
    severity: str,
    *,
    reads: tuple[Kind, ...] | ContainerType | str,
    summary: str,
    fix: str | None = None,
    options: tuple[Option, ...] = (),
    reports_on: str = ON_ANCHOR,
    since: str = "0.1.0",
    cacheable: bool = False,
    preview: str | None = None,
    reads_members: bool | str = True,
    needs: tuple[Kind | ContainerType, ...] = (),
    reads_other_members: str = OTHERS_ALWAYS,
    member_facts: tuple[tuple[Kind, str, Callable[[Document], object]], ...] = (),
) -> Callable[[Callable[..., Iterable[Hit]]], Rule]:
    """Declare a rule; `summary` is one sentence, shown by `mnemolint rules` and in SARIF, with
    `{option-name}` for each threshold it names (filled in from `options`, never typed in).
    `cacheable=True` only for a per-file rule that is a pure function of its file, or a container
    rule that is one of its container's files (`Rule`); `reads_members=False` for a tree rule
    that reads no file in a container, `MARKED` for one that reads only those `Document.holds` marks;
    `needs=` for a tree rule that finds nothing unless the tree holds one of those kinds of document
    or container; `reads_other_members` for a memory-dir rule (`Rule`); `member_facts=((kind, key,
    make), …)` for a container rule that reads of each member of `kind` what `make` computes of
    that file alone (`Document.derived(key, make)`): the per-file pass computes it, in whichever
    process checks the file, so that the container stage, which runs in one, does not.
    `preview="…"` puts the rule in the preview tier, saying what was measured (one sentence, shown
    on its page, by `mnemolint rules`, in SARIF and JSON)."""

    def wrap(check: Callable[..., Iterable[Hit]]) -> Rule:
        made = Rule(code, name, severity, reads, summary, fix, options, reports_on, check, since, cacheable, preview)
        made.reads_members = reads_members
        made.needs = needs
        made.reads_other_members = reads_other_members
        made.member_facts = member_facts
        return made

    return wrap
