"""What the rule files of Cursor, GitHub Copilot, Windsurf and Cline share, and what their rules
(CUR, CPL, WSF, CLN) ask of them: a frontmatter read the way those tools read it, the body after
it, and the search for globs that match no file of the project (WAV002's, `globs.unmatched`).

Cursor writes `globs: *.tsx, src/**` unquoted (a comma list, not YAML: `*` starts a YAML alias),
Windsurf `globs: *.md` the same way, and the Copilot CLI reads `applyTo: **/*.ts` as the glob
(agents/copilot.py has the cases that show it). `read_fields` reads such a block line by line:
each top-level `key: value` with its value as written (quotes and an inline ` # comment` taken
off), a flow list `[a, b]` or block list `- a` as a list; the first of a repeated key wins, as in
the Copilot CLI. It never fails: strict-YAML trouble is reported only for the strict readers
(Cline's js-yaml, through FM001). Nothing here touches the file system.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator

from mnemolint.kinds.base import Container, ContainerType
from mnemolint.model import Hit
from mnemolint.parse import globs
from mnemolint.paths import inside

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.discover.tree import Tree
    from mnemolint.parse.document import Document
    from mnemolint.parse.globs import Glob
    from mnemolint.project import Project

MAX_PATTERNS = 64  # patterns of one file judged: a 1 MB comma list is not matched 100,000 times
_FENCE = "---"


class Fields:
    """A frontmatter read line by line: `values` (a string, or a list of strings) by key, the
    line each key is on (`lines`, 1-based), and `close` the line of the closing `---` (0: the file
    has no frontmatter, and all of it is the body)."""

    __slots__ = ("values", "lines", "close")

    def __init__(self) -> None:
        self.values: dict[str, str | list[str]] = {}
        self.lines: dict[str, int] = {}
        self.close = 0

    def text(self, key: str) -> str:
        """The value of `key` as one string ("" when absent or a list)."""
        value = self.values.get(key, "")
        return value if isinstance(value, str) else ""

    def patterns(self, key: str) -> list[str]:
        """The globs of `key`: a list's items, or a string split on the commas outside braces,
        each trimmed and unquoted, empty ones left out (the Copilot CLI's reading, `c4` cases)."""
        value = self.values.get(key)
        items = value if isinstance(value, list) else globs.split_commas(value) if value else []
        return [part for part in (_unquoted(item.strip()) for item in items) if part][:MAX_PATTERNS]


@functools.lru_cache(maxsize=32)
def read_fields(text: str) -> Fields:
    """The frontmatter of `text` (a BOM and CR line ends allowed), read line by line; once per text
    (each of a file's rules asks for it: the result is shared, never changed)."""
    fields = Fields()
    lines = text.lstrip("\ufeff").split("\n")
    if not lines or lines[0].rstrip("\r").strip() != _FENCE:
        return fields
    pending: str | None = None  # a key whose value is the block list on the lines below
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if line.strip() == _FENCE:
            fields.close = number
            break
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if pending is not None and line[:1] in (" ", "\t", "-") and stripped.startswith("-"):
            items = fields.values.get(pending)
            if not isinstance(items, list):
                items = fields.values[pending] = []
            items.append(_unquoted(_uncommented(stripped[1:].strip())))
            continue
        pending = None
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or line[:1] in (" ", "\t") or not key or key in fields.values:
            continue
        value = _uncommented(value.strip())
        fields.lines[key] = number
        if not value:
            fields.values[key] = ""
            pending = key
        elif value.startswith("[") and value.endswith("]"):
            fields.values[key] = [_unquoted(part.strip()) for part in globs.split_commas(value[1:-1]) if part.strip()]
        else:
            fields.values[key] = _unquoted(value)
    if not fields.close:  # an unclosed block is no frontmatter: the whole file is the body
        return Fields()
    return fields


def body_lines(document: Document, fields: Fields) -> list[str]:
    """The lines after the frontmatter (all of them when there is none)."""
    return document.lines[fields.close :] if fields.close else document.lines


def _uncommented(value: str) -> str:
    """`value` without an inline ` # comment` outside quotes."""
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        return value[: end + 1] if end > 0 else value
    cut = value.find(" #")
    return value[:cut].rstrip() if cut >= 0 else value


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in ("'", '"'):
        return value[1:-1]
    return value


def boolean(value: str | list[str] | None) -> bool | None:
    """`true`/`false` in any case as a boolean; None for anything else (absent, empty, a word)."""
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def compile_loose(pattern: str, limit: int) -> list[Glob]:
    """The readings of a glob whose matching the tool does not document in full (Cursor, Copilot,
    Windsurf), the widest first: the pattern as minimatch takes it, at any depth when it has no
    `/` (as `*.tsx` is meant), and as a folder when it names one (`src/components`). A pattern is
    dead only when none of them matches a file: a rule is never reported dead for a reading the
    tool may not have. One the project-relative path can never have (`./`, `/`, `..`) is left out."""
    body = pattern.strip()
    readings = [body] if "/" in body.rstrip("/") else [body, f"**/{body}"]
    readings += [f"{reading.rstrip('/')}/**" for reading in list(readings) if not reading.endswith("**")]
    compiled = [globs.compile_wave(reading.lstrip("/"), limit) for reading in readings]
    return [glob for glob in compiled if glob.problem is None and glob.regex is not None]


class ToolRulesDir(Container):
    """A tool's folder of rule files (`.cursor/rules`, `.github/instructions`, `.windsurf/rules`,
    `.clinerules`): its rule files, and the projects their globs are matched against: the folder
    holding the tool's home (`project`) and, for a nested one, the linted root (`root_project`),
    since where a nested rule's globs start is not documented."""

    __slots__ = ("base", "project", "root_project", "rules")

    def __init__(self, path: str, container_type: ContainerType, depth: int) -> None:
        super().__init__(path, container_type)
        self.base = path
        for _ in range(depth):
            self.base = os.path.dirname(self.base)
        self.project: Project | None = None
        self.root_project: Project | None = None
        self.rules: list[Document] = []

    def add(self, document: Document) -> None:
        super().add(document)
        self.rules.append(document)

    def settle(self, tree: Tree) -> None:
        self.project = tree.project_at(self.base)
        self.root_project = tree.project_at(tree.root) if inside(self.base, tree.root) else None

    def listings(self) -> list[list[str]]:
        """The file lists a glob of this folder may be matched against (one, or two when nested)."""
        projects = [self.project, self.root_project if self.root_project is not self.project else None]
        return [project.files() for project in projects if project is not None]


def rules_dir_type(name: str, home: str, leaf: str, about: str) -> ContainerType:
    """The container type of `…/<home>/<leaf>` at any depth (`leaf` empty: `…/<home>` itself)."""
    depth = 2 if leaf else 1

    def located(directory: str) -> bool:
        head, last = os.path.split(directory)
        return (last == leaf and os.path.basename(head) == home) if leaf else last == home

    container_type = ContainerType(
        name,
        names=(leaf or home,),
        marker=None,
        setting=None,
        located=located,
        make=lambda path: ToolRulesDir(path, container_type, depth),
        about=about,
    )
    return container_type


def fields_of(document: Document) -> Fields:
    """The frontmatter of a rule file read line by line, as Cursor, Copilot and Windsurf read it."""
    return read_fields(document.text or "")


def body_of(document: Document) -> str:
    """The text after the frontmatter."""
    return "\n".join(body_lines(document, fields_of(document)))


def empty_body(document: Document, what: str) -> Iterator[Hit]:
    """A finding when nothing but the frontmatter (or blank lines) is in the file: `what` says
    what the tool then gets."""
    if document.readable and not body_of(document).strip():
        yield Hit(f"This file has no text after its frontmatter: {what}. Write the instructions, or delete the file.")


def dead_globs(
    container: ToolRulesDir,
    patterns_of: Callable[[Document], list[tuple[str, int | None]]],
    compile_pattern: Callable[[str, int], list[Glob]],
    options: dict,
) -> Iterator[tuple[Document, str, int | None]]:
    """Each (rule file, written pattern, its line) of `container` whose pattern matches no file
    in any listing the folder's globs may be matched against (`ToolRulesDir.listings`)."""
    limit = int(options["glob-max-expansions"])
    written: dict[tuple[str, str], tuple[Document, str, int | None]] = {}
    readings: dict[tuple[str, str], list[Glob]] = {}
    for document in container.rules:
        if not document.readable:
            continue
        for pattern, line in patterns_of(document):
            key = (document.path, pattern)
            if key not in readings:
                compiled = compile_pattern(pattern, limit)
                if compiled:  # a pattern no reading can match is another rule's finding, or none
                    readings[key] = compiled
                    written[key] = (document, pattern, line)
    if not readings:
        return
    dead = set(readings)
    for files in container.listings():
        pending = [(key, glob) for key, compiled in readings.items() if key in dead for glob in compiled]
        unmatched = {id(glob) for _, glob in globs.unmatched(pending, files)}
        dead -= {key for key, glob in pending if id(glob) not in unmatched}
    order = {key: number for number, key in enumerate(written)}  # two globs on one line: as written
    for key in sorted(dead, key=lambda key: (key[0], written[key][2] or 0, order[key])):
        yield written[key]


def dead_glob_hits(
    container: ToolRulesDir,
    patterns_of: Callable[[Document], list[tuple[str, int | None]]],
    options: dict,
    what: str,
    noun: str = "rule",
) -> Iterator[Hit]:
    """CUR001's, CPL001's and WSF003's finding on each dead glob (read the widest way,
    `compile_loose`): `what` says what the tool then never does through it, `noun` what the file is."""
    for document, pattern, line in dead_globs(container, patterns_of, compile_loose, options):
        yield Hit(
            f"`{short(pattern)}` matches no file of the project, at any depth or as a folder, so {what}. "
            f"Fix the pattern, or delete the {noun} if what it was for is gone.",
            path=document.path,
            line=line,
        )


def key_patterns(document: Document, key: str) -> list[tuple[str, int | None]]:
    """The globs of frontmatter `key`, each with its line."""
    fields = fields_of(document)
    return pattern_lines(document, fields, key, fields.patterns(key))


def pattern_lines(document: Document, fields: Fields, key: str, patterns: list[str]) -> list[tuple[str, int | None]]:
    """Each pattern of `key` with the frontmatter line that holds it (the key's own line when it
    is on none of its own)."""
    first = fields.lines.get(key)
    found = []
    for pattern in patterns:
        line = first
        if first is not None:
            for number in range(first, min(fields.close or first + 1, first + MAX_PATTERNS + 1)):
                if pattern in document.lines[number - 1]:
                    line = number
                    break
        found.append((pattern, line))
    return found


def short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
