"""What discovery leaves out, and ruff's rule for the paths named on the command line.

Below each directory it is given, the walk leaves out the folders no walk enters
(`paths.DEFAULT_EXCLUDES`, the agents' own worktrees), whatever the `exclude` and `extend-exclude`
globs match, and, inside a git work tree unless `respect-gitignore = false`, whatever its
`.gitignore` files ignore (`kinds/gitignore.Ignores`, the one ignore engine: git itself is never
run for it). Outside a work tree no `.gitignore` counts, as for git and ruff.

A path named on the command line is linted even when those globs match it, as ruff does: the
user asked for it. With `force-exclude` (the pre-commit hook passes `--force-exclude`, since
pre-commit names every changed file) a named path that the globs match, or that lies in a folder
they match, is left out, and the run says so (`Tree.excluded`).
"""

from __future__ import annotations

import os

from mnemolint.agents import AGENT_HOMES
from mnemolint.config import Settings, glob_flags
from mnemolint.paths import DEFAULT_EXCLUDES, inside, upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.kinds.gitignore import Ignores


def _agent_worktrees(path: str, name: str) -> bool:
    """`.wave/worktrees/` and `.claude/worktrees/`: the agents' linked checkouts of this same
    repository, whose memory files are copies of the ones linted here (Wave's path rules)."""
    return name == "worktrees" and os.path.basename(os.path.dirname(path)) in AGENT_HOMES


class Globs:
    """Root-relative globs (wcmatch: globstar, braces, dotfiles), imported only when configured. A
    path matches by its path from the root (as a file or a folder) or by its name alone."""

    def __init__(self, patterns: list[str], root: str) -> None:
        self.patterns = patterns
        self.root = root
        self._match = None
        if patterns:
            from wcmatch import glob

            flags = glob_flags() | glob.NEGATE
            self._match = lambda rel: glob.globmatch(rel, patterns, flags=flags)

    def matches(self, path: str) -> bool:
        if self._match is None:
            return False
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        return bool(self._match(rel) or self._match(rel + "/") or self._match(os.path.basename(path)))


class Exclusion:
    """The exclusion of one run, from its settings."""

    def __init__(self, settings: Settings) -> None:
        self.root = settings.root
        self.globs = Globs(settings.exclude + settings.extend_exclude, settings.root)
        self.force = settings.force_exclude
        self.respect_gitignore = settings.respect_gitignore
        self.options = settings.options
        self._ignores: dict[str, Ignores | None] = {}  # by walked top, then by work tree

    def skips(self, path: str, name: str) -> bool:
        """Whether a walk leaves out the entry `path` (named `name`) by name or glob, before any stat."""
        return name in DEFAULT_EXCLUDES or _agent_worktrees(path, name) or self.globs.matches(path)

    def gitignore(self, top: str) -> Ignores | None:
        """The ignore rules of the git work tree holding the walked directory `top` (found without
        running git: `gitrun.repository`), None outside one or when `respect-gitignore` is off."""
        if not self.respect_gitignore:
            return None
        if top not in self._ignores:
            from mnemolint.gitrun import repository

            found = repository(top)
            work_tree = found.work_tree if found is not None else None
            if work_tree is not None and work_tree not in self._ignores:
                from mnemolint.kinds.gitignore import Ignores

                self._ignores[work_tree] = Ignores(work_tree, {}, self.options)
            self._ignores[top] = self._ignores[work_tree] if work_tree is not None else None
        return self._ignores[top]

    def forced(self, path: str) -> bool:
        """With `force-exclude`, whether the named `path` is left out: it, or a folder of it below
        the configuration's root, is one the walk would skip (ruff's `is_file_excluded`)."""
        if not self.force:
            return False
        for current in upwards(path):
            if current == self.root or not inside(current, self.root) and current != path:
                return False
            if self.skips(current, os.path.basename(current)):
                return True
        return False
