"""The one pass: discover → run the selected rules → filter (focus, ignores, suppressions) → sort.

Filtering notes which suppression marks silenced a finding; the rules that read `SUPPRESSIONS`
(SUP001) then judge each document's comments against them, and their findings are filtered too.

Rules only ever see `Document`, container (a `MemoryDir`) and `Tree` objects, which read and
parse each file at most once; each rule declares which it reads (`reads=`), and `_Dispatch` sorts
the active rules by that declaration, so no rule asks what kind of file it was given. A rule
that raises is reported on stderr and the run goes on: one bad file (or one bug) never costs
the findings on every other file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from mnemolint import parallel
from mnemolint.config import Settings, glob_flags
from mnemolint.discover.tree import Tree
from mnemolint.discover.walk import discover
from mnemolint.kinds.base import Container, ContainerType, Kind
from mnemolint.kinds.registry import kind_of
from mnemolint.model import Diagnostic, Hit
from mnemolint.parse.document import Document
from mnemolint.parse.reading import folders
from mnemolint.parse.textutil import visible
from mnemolint.rules import CODES, LISTED, PREVIEW, Listed, base, loaded, runnable
from mnemolint.rules.base import Rule
from mnemolint.selection import check_selectors, in_preview, matches, selected, specificity, unpreviewed

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Callable

    from mnemolint import cache as cache_module
    from mnemolint.parse import suppress


class Result:
    """The findings of a run, what was discovered, and the rules' internal errors (each already
    printed on stderr; a run with any is not a successful execution, which SARIF reports)."""

    __slots__ = ("diagnostics", "tree", "errors")

    def __init__(self, diagnostics: list[Diagnostic], tree: Tree, errors: list[str] | None = None) -> None:
        self.diagnostics = diagnostics
        self.tree = tree
        self.errors = errors or []


def active(settings: Settings) -> list[Listed]:
    """The rules the settings select, as the manifest lists them (no family is imported); a
    selector naming no rule is a `ConfigError`."""
    codes = CODES
    check_selectors(settings.select, codes, "select")
    check_selectors(settings.extend_select, codes, "extend-select")
    check_selectors(settings.ignore, codes, "ignore")
    for glob, selectors in settings.per_file_ignores.items():
        check_selectors(selectors, codes, f"per-file-ignores `{glob}`")
    check_selectors(settings.severity, codes, "severity")
    chosen = selected(codes, settings.select, settings.extend_select, settings.ignore)
    chosen = in_preview(chosen, PREVIEW, settings.preview)
    return [listed for listed in LISTED if listed.code in chosen]


def active_rules(settings: Settings) -> list[Rule]:
    """The rules the settings select, every family of them imported."""
    return loaded(active(settings))


def preview_warnings(settings: Settings) -> list[str]:
    """One line per preview rule selected by its code without preview mode (it does not run)."""
    return [
        f"selection `{code}` has no effect because preview is not enabled: {code} is a preview rule "
        "(`mnemolint rule " + code + "` says why); add --preview, or `preview = true` in the config"
        for code in unpreviewed([*settings.select, *settings.extend_select], PREVIEW, settings.preview)
    ]


def severities(settings: Settings) -> dict[str, str]:
    """The severity of each code the `severity` table names, whose keys may be prefixes (most
    specific wins); the other codes keep the one their findings were made with."""
    result = {}
    for code in CODES:
        matching = [key for key in settings.severity if matches(key, code)]
        best = max(matching, key=specificity, default=None)
        if best:
            result[code] = settings.severity[best]
    return result


class _Dispatch:
    """The active rules by what they declare they read: per kind (None: paths the walk could not
    read, which only `EVERY_FILE` rules see), per container type, and the tree. `rules` are those
    the tree can run (`_runnable`), `ran` the codes of every active rule."""

    def __init__(self, rules: list[Rule], ran: frozenset[str]) -> None:
        self.per_container: dict[ContainerType, list[Rule]] = {}
        self.tree: list[Rule] = []
        self.suppressions: list[Rule] = []
        self.ran = ran
        self._per_document: list[Rule] = []
        for rule in rules:
            if rule.reads == base.TREE:
                self.tree.append(rule)
            elif rule.reads == base.SUPPRESSIONS:
                self.suppressions.append(rule)
            elif isinstance(rule.reads, ContainerType):
                self.per_container.setdefault(rule.reads, []).append(rule)
            else:
                self._per_document.append(rule)
        self._per_kind: dict[Kind | None, list[Rule]] = {}
        self._uncached: dict[Kind | None, list[Rule]] = {}
        # What container rules read of each member of a kind (`member_facts`), by key: made by the
        # per-file pass, and sent back by a worker (`shipped`).
        self.member_facts: dict[Kind, dict[str, Callable[[Document], object]]] = {}
        for rules_of_type in self.per_container.values():
            for rule in rules_of_type:
                for kind, key, make in rule.member_facts:
                    self.member_facts.setdefault(kind, {})[key] = make
        self.shipped = tuple(dict.fromkeys(key for facts in self.member_facts.values() for key in facts))

    def for_kind(self, kind: Kind | None) -> list[Rule]:
        """The rules that read documents of `kind`, in registry order (worked out once per kind)."""
        found = self._per_kind.get(kind)
        if found is None:
            found = self._per_kind[kind] = [rule for rule in self._per_document if _reads(rule, kind)]
        return found

    def uncached_for_kind(self, kind: Kind | None) -> list[Rule]:
        """The rules of `kind` that run even on a file the cache knows: those not `cacheable`."""
        found = self._uncached.get(kind)
        if found is None:
            found = self._uncached[kind] = [rule for rule in self.for_kind(kind) if not rule.cacheable]
        return found

    def rerun_kinds(self, documents: list[Document]) -> frozenset[Kind | None]:
        """The kinds among `documents` that a rule not `cacheable` reads: asked once per kind, so
        that a warm run over 10,000 files asks nothing per file."""
        return frozenset(kind for kind in {document.kind for document in documents} if self.uncached_for_kind(kind))


def _reads(rule: Rule, kind: Kind | None) -> bool:
    if rule.reads == base.EVERY_FILE:
        return True
    if kind is None:  # a path the walk could not read
        return False
    return rule.reads == base.EVERY_KIND or (isinstance(rule.reads, tuple) and kind in rule.reads)


def lint(
    paths: list[str],
    settings: Settings,
    fixed: dict[str, str] | None = None,
    *,
    cache: bool = False,
    given: dict[str, tuple[bytes, int]] | None = None,
    walk: Callable[[list[str], Settings], Tree] | None = None,
    release: bool = False,
) -> Result:
    """Lint `paths`; `fixed` maps paths to text that replaces (or creates) those files, so that
    the fixer can re-lint the outcome of its edits before anything is written. `cache`: take
    what the cache knows of unchanged files, and keep what this run learns (cache.py). `given`:
    named paths' bytes and size, read from elsewhere than their file (standard input; `discover`).
    `walk` stands in for `discover`: the language server's, which keeps its last tree while nothing
    it was made of changed, and hands the documents of unchanged files over (lsp/session.py), or
    the hook's, whose containers hold the named files alone. `release`:
    drop each text once its per-file rules have run (`Document.release`), for a caller that reads
    no text after the run (`check`): a large run then holds facts, not texts."""
    chosen = active(settings)
    memo = _open_cache(settings, chosen) if cache and not fixed and not given else None
    listings = memo.listings if memo is not None else None
    tree = walk(paths, settings) if walk is not None else discover(paths, settings, given, listings=listings)
    if fixed:
        _use_fixed_text(tree, fixed, settings.options)
    dispatch = _Dispatch(loaded(_runnable(chosen, tree)), frozenset(listed.code for listed in chosen))
    options = settings.options
    for_kind = dispatch.for_kind
    member_facts, shipped = dispatch.member_facts, dispatch.shipped
    held: dict[Container, list[tuple]] = {}
    recalled: dict[str, list[Diagnostic]] = {}
    rerun: frozenset[Kind | None] = frozenset()  # the kinds a rule the cache cannot keep reads
    if memo is not None:
        rerun = dispatch.rerun_kinds(tree.documents)
        memo.look(tree.documents)
        held = _held(memo, tree, dispatch)
        recalled = memo.recall(tree.documents, tree.in_focus, _needs_facts(tree, dispatch, held, rerun))

    def rules_of(document: Document) -> list[Rule]:
        """The per-file rules `check` runs on `document`: for a file the cache knows, those it could not keep."""
        return dispatch.uncached_for_kind(document.kind) if document.path in recalled else for_kind(document.kind)

    def check(documents: list[Document]) -> parallel.Checked:
        """Per-file rules over `documents`: the hot loop of a large run, so `_run` is inlined. Each
        file's cache entry is made here too, by whichever process checked it (parallel.py)."""
        findings: list[Diagnostic] = []
        errors: list[str] = []
        entries: list[tuple[str, tuple]] = []
        with folders():  # the documents come in path order: a folder is asked where it is once
            for document in documents:
                path = document.path
                first = len(findings)
                for rule in rules_of(document):
                    try:
                        for hit in rule.check(document, options):
                            findings.append(Diagnostic(rule.code, rule.name, rule.severity, path, hit))
                            if document.keep and rule.cacheable and not _fits_cache(hit, path):
                                document.keep = False
                    except Exception as error:  # noqa: BLE001 - a rule's bug must not end the run
                        errors.append(_internal_error(rule, path, error))
                document.suppressions  # noqa: B018 - parsed while the lines are at hand, sent back by a worker
                if member_facts and document.kind in member_facts and document.container not in held:
                    _derive(document, member_facts[document.kind])  # a held container: its findings are cached
                if memo is not None and path not in recalled:  # a recalled file keeps the entry it has
                    entry = memo.entry(document, findings[first:])
                    if entry is not None:
                        entries.append((path, entry))
                if release:
                    document.release(shipped)
        return findings, errors, entries

    focused = tree.focused()
    checked = _to_check(focused, recalled, rerun, memo is not None)
    release = release and len(checked) >= parallel.RELEASE_MIN  # below, the texts are worth their memory
    found, errors, entries = parallel.check_documents(checked, check, shipped, lambda document: len(rules_of(document)))
    for error in errors:
        _tell(error)
    if memo is not None:
        memo.keep(entries, all(document.keep for document in checked if document.path not in recalled))
        for document in focused:
            found.extend(recalled.get(document.path, ()))
    for container in tree.containers:
        found.extend(_check_container(container, dispatch, tree, options, errors, memo, held.get(container)))
    if memo is not None:
        memo.save()
    for rule in dispatch.tree:
        found.extend(hit for hit in _run(rule, tree, tree.root, options, errors) if tree.in_focus(hit.path))
    from mnemolint.affected import name_agents

    used: dict[str, set[suppress.Mark]] = {}
    unmarked = memo.skipped if memo is not None else set()
    kept = _filter(found, tree, settings, used, unmarked)
    if dispatch.suppressions:
        marked = [each for each in focused if each.path not in unmarked]
        audited = _audit(marked, used, dispatch, tree, settings, errors)
        if audited:
            kept += audited
            kept.sort(key=Diagnostic.sort_key)
    name_agents(kept, tree)
    return Result(kept, tree, errors)


def _derive(document: Document, facts: dict[str, Callable[[Document], object]]) -> None:
    """What container rules will read of `document` (`member_facts`), computed now, in whichever
    process checks it. One that fails is left for its rule to meet again and report."""
    for key, make in facts.items():
        try:
            document.derived(key, make)
        except Exception:  # noqa: BLE001, S110 - the container rule asks again and reports it
            pass


def _audit(
    focused: list[Document],
    used: dict[str, set[suppress.Mark]],
    dispatch: _Dispatch,
    tree: Tree,
    settings: Settings,
    errors: list[str],
) -> list[Diagnostic]:
    """The findings of the rules that judge suppression comments, over each document in focus
    that has some, filtered in turn, though only by comments that name their code (a blanket
    `disable` never silences the report that it silences nothing)."""
    ran = dispatch.ran
    codes = CODES
    found: list[Diagnostic] = []
    for document in focused:
        if document.suppressions is not None:
            audit = base.Audit(document, used.get(document.path, set()), ran, codes)
            for rule in dispatch.suppressions:
                found.extend(_run(rule, audit, document.path, settings.options, errors))
    return _filter(found, tree, settings, {}, set(), blanket=False)


def _runnable(chosen: list[Listed], tree: Tree) -> list[Listed]:
    """The chosen rules that can find anything in `tree`: only their families are imported."""
    held = {document.kind.name for document in tree.documents if document.kind is not None}
    held.update(container.type.name for container in tree.containers)
    return runnable(chosen, held, bool(tree.documents))


def _open_cache(settings: Settings, rules: list[Listed]) -> cache_module.Cache:
    from mnemolint import cache as cache_module

    return cache_module.Cache.open(settings, rules)


def _to_check(focused: list[Document], recalled: dict, rerun: frozenset[Kind | None], caching: bool) -> list[Document]:
    """The documents the per-file rules still run on: a file the cache knows only when a rule
    that is not `cacheable` reads it (its kind is in `rerun`); one it does not know is to be kept
    (`Document.keep`)."""
    if not caching:
        return focused
    todo = []
    for document in focused:
        if document.path not in recalled:
            document.keep = True
            todo.append(document)
        elif document.kind in rerun:
            todo.append(document)
    return todo


def _fits_cache(hit: Hit, path: str) -> bool:
    """A cacheable rule's finding is about its own file and carries no computed fix (else the
    declaration is wrong, and this run keeps nothing)."""
    return (hit.path is None or hit.path == path) and (hit.fix is None or hit.fix.build is None)


def _held(memo: cache_module.Cache, tree: Tree, dispatch: _Dispatch) -> dict[Container, list[tuple]]:
    """The containers whose cacheable rules' findings the cache still holds (`Cache.held`)."""
    held = {}
    for container in tree.containers:
        if any(rule.cacheable for rule in dispatch.per_container.get(container.type, ())):
            findings = memo.held(container)
            if findings is not None:
                held[container] = findings
    return held


def _needs_facts(
    tree: Tree, dispatch: _Dispatch, held: dict[Container, list[tuple]], rerun: frozenset[Kind | None]
) -> Callable[[Document], bool]:
    """Whether a rule of this run may read what the cache knows of an unchanged document: one in
    no container (the tree rules' instruction files), in one whose rules run, of a kind that
    rules not `cacheable` read (`rerun`), or any, when a tree rule may read the files of containers (not
    one reading only those `Document.holds` marks: the cache gives every document its marks)."""
    if any(rule.reads_members and rule.reads_members != base.MARKED for rule in dispatch.tree):
        return lambda document: True
    settled = {
        container
        for container in held
        if all(rule.cacheable for rule in dispatch.per_container.get(container.type, ()))
    }

    def needs(document: Document) -> bool:
        return document.container not in settled or document.kind in rerun

    return needs


def _check_container(
    container: Container,
    dispatch: _Dispatch,
    tree: Tree,
    options: dict,
    errors: list[str],
    memo: cache_module.Cache | None,
    held: list[tuple] | None,
) -> list[Diagnostic]:
    """A container's rules, as far as the focus asks for them: a rule about the anchor file runs
    only when that file is in focus, one about the members reports only those in focus unless the
    anchor is, and one about each file it names (ON_EACH) only those in focus. The findings of
    its `cacheable` rules come from the cache where it `held` them, else are kept there once
    every one of those rules ran without an error."""
    anchor = container.anchor_path
    anchor_in_focus = tree.in_focus(anchor)
    if not anchor_in_focus and not any(tree.in_focus(document.path) for document in container.documents):
        return []
    rules = dispatch.per_container.get(container.type, ())
    by_code = {rule.code: rule for rule in rules}
    cached: dict[str, list[Diagnostic]] = {}
    if held is not None:
        from mnemolint.cache import thawed

        rebuild = _rebuild(by_code, container, options)
        for item in held:
            diagnostic = thawed(item, rebuild)
            cached.setdefault(diagnostic.code, []).append(diagnostic)
    found: list[Diagnostic] = []
    cacheable: list[Diagnostic] = []
    complete = memo is not None and held is None and any(rule.cacheable for rule in rules)
    for rule in rules:
        if rule.reports_on == base.ON_ANCHOR and not anchor_in_focus:
            complete = complete and not rule.cacheable
            continue
        if held is not None and rule.cacheable:
            hits = cached.get(rule.code, [])
        else:
            before = len(errors)
            hits = _run(rule, container, anchor, options, errors)
            if rule.cacheable:
                cacheable.extend(hits)
                complete = complete and len(errors) == before
        if rule.reports_on == base.ON_EACH or rule.reports_on == base.ON_MEMBERS and not anchor_in_focus:
            hits = [hit for hit in hits if tree.in_focus(hit.path)]
        found.extend(hits)
    if complete and memo is not None:
        built = frozenset(at for at, hit in enumerate(cacheable) if hit.fix is not None and hit.fix.build is not None)
        memo.hold(container, cacheable, built)
    return found


def _rebuild(rules: dict[str, Rule], container: Container, options: dict) -> Callable[[Diagnostic], Callable]:
    """For a cached finding whose fix is computed when applied: the function that computes it,
    by running its rule on the container again and taking the fix of the same finding."""

    def for_finding(cached: Diagnostic) -> Callable[[], object]:
        def build() -> object:
            rule = rules[cached.code]
            for hit in rule.check(container, options):
                made = Diagnostic(rule.code, rule.name, rule.severity, container.anchor_path, hit)
                if made.fix is not None and _same(made, cached):
                    return made.fix.compute()
            return "the finding is gone: lint again"

        return build

    return for_finding


def _same(one: Diagnostic, other: Diagnostic) -> bool:
    return (one.path, one.line, one.column, one.message) == (other.path, other.line, other.column, other.message)


def _use_fixed_text(tree: Tree, fixed: dict[str, str], options: dict) -> None:
    for document in tree.documents:
        text = fixed.get(document.path)
        if text is not None:
            document.preset(text)
    known = {document.path for document in tree.documents}
    for container in tree.containers:
        anchor = container.anchor_path
        text = fixed.get(anchor)
        if text is not None and anchor not in known:  # a container's anchor file that a fix created
            rel = os.path.basename(anchor)
            container.add(_created(tree, anchor, rel, kind_of(rel, container.type), text, options, container))
            known.add(anchor)
    for path in sorted(fixed.keys() - known):  # a file of a kind in no container that a fix created
        rel = os.path.relpath(path, tree.root).replace(os.sep, "/")
        kind = kind_of(rel, None)
        if kind is not None and kind.container is None:
            _created(tree, path, rel, kind, fixed[path], options)


def _created(
    tree: Tree, path: str, rel: str, kind: Kind | None, text: str, options: dict, container: Container | None = None
) -> Document:
    """A document for a file a fix created, holding its text, added to the tree."""
    document = Document(path, kind, options, container)
    document.rel = rel
    document.preset(text)
    tree.documents.append(document)
    return document


def _run(rule: Rule, target: object, default_path: str, options: dict, errors: list[str]) -> list[Diagnostic]:
    """A container or tree rule's findings: those it made before a bug stopped it are kept."""
    found: list[Diagnostic] = []
    try:
        hits: Iterable[Hit] = rule.check(target, options)
        for hit in hits:
            found.append(Diagnostic(rule.code, rule.name, rule.severity, default_path, hit))
    except Exception as error:  # noqa: BLE001 - a rule's bug must not end the run
        message = _internal_error(rule, default_path, error)
        _tell(message)
        errors.append(message)
    return found


def _internal_error(rule: Rule, path: str, error: Exception) -> str:
    """One line for stderr; redacted, since an exception raised on a file may quote what it holds."""
    from mnemolint.redact import redact

    told = visible(redact(str(error)))
    return f"mnemolint: internal error in {rule.code} on {visible(path)}: {type(error).__name__}: {told}"


_told: set[str] = set()


def _tell(message: str) -> None:
    """Print an internal error once per process: the fixer lints up to ten times, and a bug
    that hits every round is still one bug."""
    if message not in _told:
        _told.add(message)
        print(message, file=sys.stderr)


def _filter(
    found: list[Diagnostic],
    tree: Tree,
    settings: Settings,
    used: dict[str, set[suppress.Mark]],
    unmarked: set[str],
    *,
    blanket: bool = True,
) -> list[Diagnostic]:
    """The findings neither ignored for their file nor suppressed, sorted; `used` gets the
    suppression marks that silenced each (`blanket`: whether a comment naming no code counts).
    `unmarked`: files known to hold no suppression comment without being read (cache.py)."""
    if not found:
        return []
    documents: dict[str, Document] = {document.path: document for document in tree.documents}
    ignored = _PerFileIgnores(settings) if settings.per_file_ignores else None
    severity = severities(settings)
    kept = []
    for diagnostic in found:
        path = diagnostic.path
        if ignored is not None and ignored.covers(path, diagnostic.code):
            continue
        document = documents.get(path)
        marks = document.suppressions if document is not None and path not in unmarked else None
        if marks is not None:
            covering = marks.covering(diagnostic.code, diagnostic.line, blanket=blanket)
            if covering:
                used.setdefault(path, set()).update(covering)
                continue
        diagnostic.severity = severity.get(diagnostic.code, diagnostic.severity)
        kept.append(diagnostic)
    kept.sort(key=Diagnostic.sort_key)
    return kept


class _PerFileIgnores:
    """`per-file-ignores = {"glob" = ["CODE", …]}`, globs relative to the config's directory."""

    def __init__(self, settings: Settings) -> None:
        self.root = settings.root
        self.table = settings.per_file_ignores
        self.cache: dict[str, list[str]] = {}

    def covers(self, path: str, code: str) -> bool:
        if path not in self.cache:
            from wcmatch import glob

            rel = os.path.relpath(path, self.root).replace(os.sep, "/")
            flags = glob_flags()
            name = os.path.basename(path)
            self.cache[path] = [
                selector
                for pattern, selectors in self.table.items()
                if glob.globmatch(rel, pattern, flags=flags) or glob.globmatch(name, pattern, flags=flags)
                for selector in selectors
            ]
        return any(matches(selector, code) for selector in self.cache[path])
