"""The one pass: discover → run the selected rules → filter (focus, ignores, suppressions) → sort.

Rules only ever see `Document`, `MemoryDir` and `Tree` objects, which read and parse each file
at most once. A rule that raises is reported on stderr and the run goes on: one bad file (or one
bug) never costs the findings on every other file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from mnemolint import parallel
from mnemolint.config import Settings, glob_flags
from mnemolint.discover.walk import Tree, discover
from mnemolint.parse.document import INDEX as INDEX_KIND
from mnemolint.parse.document import TOPIC as TOPIC_KIND
from mnemolint.parse.document import Document
from mnemolint.kinds.memory import INDEX_NAME
from mnemolint.model import Diagnostic, Hit
from mnemolint.rules import RULES, base
from mnemolint.rules.base import Rule
from mnemolint.selection import check_selectors, selected


class Result:
    """The findings of a run, what was discovered, and the rules' internal errors (each already
    printed on stderr; a run with any is not a successful execution, which SARIF reports)."""

    __slots__ = ("diagnostics", "tree", "errors")

    def __init__(self, diagnostics: list[Diagnostic], tree: Tree, errors: list[str] | None = None) -> None:
        self.diagnostics = diagnostics
        self.tree = tree
        self.errors = errors or []


def active_rules(settings: Settings) -> list[Rule]:
    codes = [rule.code for rule in RULES]
    check_selectors(settings.select, codes, "select")
    check_selectors(settings.extend_select, codes, "extend-select")
    check_selectors(settings.ignore, codes, "ignore")
    for glob, selectors in settings.per_file_ignores.items():
        check_selectors(selectors, codes, f"per-file-ignores `{glob}`")
    check_selectors(settings.severity, codes, "severity")
    chosen = selected(codes, settings.select, settings.extend_select, settings.ignore)
    return [rule for rule in RULES if rule.code in chosen]


def severities(settings: Settings) -> dict[str, str]:
    """Each code's severity after the `severity` table, whose keys may be prefixes (most specific wins)."""
    result = {}
    for rule in RULES:
        matching = [key for key in settings.severity if key == "ALL" or rule.code.startswith(key)]
        best = max(matching, key=lambda key: -1 if key == "ALL" else len(key), default=None)
        result[rule.code] = settings.severity[best] if best else rule.severity
    return result


def lint(paths: list[str], settings: Settings, fixed: dict[str, str] | None = None) -> Result:
    """Lint `paths`; `fixed` maps paths to text that replaces (or creates) those files, so that
    the fixer can re-lint the outcome of its edits before anything is written."""
    rules = active_rules(settings)
    tree = discover(paths, settings)
    if fixed:
        _use_fixed_text(tree, fixed, settings.options)
    by_scope: dict[str, list[Rule]] = {}
    for rule in rules:
        by_scope.setdefault(rule.scope, []).append(rule)
    options = settings.options

    document_rules = by_scope.get(base.DOCUMENT, [])
    topic_rules = document_rules + by_scope.get(base.TOPIC, [])

    def check(documents: list[Document]) -> parallel.Checked:
        """Per-file rules over `documents`: the hot loop of a large run, so `_run` is inlined."""
        findings: list[Diagnostic] = []
        errors: list[str] = []
        for document in documents:
            path = document.path
            for rule in topic_rules if document.kind == TOPIC_KIND else document_rules:
                try:
                    for hit in rule.check(document, options):
                        findings.append(Diagnostic(rule.code, rule.name, rule.severity, path, hit))
                except Exception as error:  # noqa: BLE001 - a rule's bug must not end the run
                    errors.append(_internal_error(rule, path, error))
            document.suppressions  # noqa: B018 - parsed while the lines are at hand, sent back by a worker
        return findings, errors

    focused = [document for document in tree.documents if tree.in_focus(document.path)]
    found, errors = parallel.check_documents(focused, check)
    for error in errors:
        _tell(error)
    for memdir in tree.memdirs:
        index_in_focus = tree.in_focus(memdir.index_path)
        dir_in_focus = index_in_focus or any(tree.in_focus(topic.path) for topic in memdir.topics)
        for rule in by_scope.get(base.MEMDIR, ()):
            if rule.reports_on == base.ON_INDEX and not index_in_focus:
                continue
            if not dir_in_focus:
                continue
            hits = _run(rule, memdir, memdir.index_path, options, errors)
            if rule.reports_on == base.ON_TOPICS and not index_in_focus:
                hits = [hit for hit in hits if tree.in_focus(hit.path)]
            found.extend(hits)
    for rule in by_scope.get(base.TREE, ()):
        found.extend(hit for hit in _run(rule, tree, tree.root, options, errors) if tree.in_focus(hit.path))
    return Result(_filter(found, tree, settings), tree, errors)


def _use_fixed_text(tree: Tree, fixed: dict[str, str], options: dict) -> None:
    for document in tree.documents:
        text = fixed.get(document.path)
        if text is not None:
            document.preset(text)
    for memdir in tree.memdirs:
        text = fixed.get(memdir.index_path)
        if text is not None and memdir.index is None:  # an index a fix created
            index = Document(memdir.index_path, INDEX_KIND, options, memdir)
            index.rel = INDEX_NAME
            index.preset(text)
            memdir.index = index
            tree.documents.append(index)


def _run(rule: Rule, target: object, default_path: str, options: dict, errors: list[str]) -> list[Diagnostic]:
    """A memory-dir or tree rule's findings: those it made before a bug stopped it are kept."""
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
    return f"mnemolint: internal error in {rule.code} on {path}: {type(error).__name__}: {error}"


_told: set[str] = set()


def _tell(message: str) -> None:
    """Print an internal error once per process: the fixer lints up to ten times, and a bug
    that hits every round is still one bug."""
    if message not in _told:
        _told.add(message)
        print(message, file=sys.stderr)


def _filter(found: list[Diagnostic], tree: Tree, settings: Settings) -> list[Diagnostic]:
    documents: dict[str, Document] = {document.path: document for document in tree.documents}
    ignored = _PerFileIgnores(settings)
    severity = severities(settings)
    kept = []
    for diagnostic in found:
        path = diagnostic.path
        if ignored.covers(path, diagnostic.code):
            continue
        document = documents.get(path)
        marks = document.suppressions if document is not None else None
        if marks is not None and marks.covers(diagnostic.code, diagnostic.line):
            continue
        diagnostic.severity = severity[diagnostic.code]
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
        if not self.table:
            return False
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
        return any(selector == "ALL" or code.startswith(selector) for selector in self.cache[path])
