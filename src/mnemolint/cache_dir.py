"""Where the cache lives, what a repository may say about it, and what `clean` may remove.

A repository's config file is attacker input (mnemolint runs on pull requests), so its
`cache-dir` may only name a folder strictly inside the project (the config file's folder),
reached without a symlink and in no folder an agent reads as memory or rules (`check_setting`,
a config error otherwise). A cache anywhere else is the user's to choose: `MNEMOLINT_CACHE_DIR`,
or a config file named with `--config`. With neither, the cache is `.mnemolint_cache/` in the
project: the config file's folder, else the repository's top (a `.git`); outside any project, or
where that folder would sit in a memory or rules dir (an agent's own memory dir, say), it is a
folder of the user's cache dir (platformdirs) named for the project.

mnemolint marks a cache dir it makes with its own `CACHEDIR.TAG` (its text, exactly) and a
`.gitignore` of `*`, and fills it with version folders of `*.cache` files. `clear` removes only
those, reached from an open directory without following a link at any step, and the folder itself
only once nothing else is left in it; it never touches the project root or a folder above it. On
each save the version folder keeps its newest `KEEP` files and the other versions' folders go.
"""

from __future__ import annotations

import os
import re
import stat
import sys

from mnemolint.paths import inside, upwards
from mnemolint.patterns import Lazy

DIR_NAME = ".mnemolint_cache"
ENV_VAR = "MNEMOLINT_CACHE_DIR"
KEEP = 4  # cache files per version folder: one per configuration, and a project has a few
HOOK_FACTS = "hook.cache"  # the agent hook's index facts (cache.IndexFacts): one, never pruned as a check cache
GITIGNORE = "# Automatically created by mnemolint.\n*\n"
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by mnemolint.\n"
    "# For information about cache directory tags, see:\n#\thttps://bford.info/cachedir/\n"
)
_TAG_NAME = "CACHEDIR.TAG"
_VERSION = Lazy(r"[0-9][0-9A-Za-z.+_-]*")  # a version folder's name (`0.1.0`, `0.2.0.dev3+g1a2b`)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def directory(source: str | None, setting: str, root: str) -> str:
    """The cache dir of a run with the config file `source` (None: none), its `cache-dir`
    `setting` ("" when unset) and the linted `root` (the module's docstring gives the order)."""
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return os.path.abspath(os.path.expanduser(from_env))
    if setting and source:  # a repository's was checked when the config was loaded
        return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(source)), os.path.expanduser(setting)))
    project = project_root(source, root)
    if project is not None:
        candidate = os.path.join(project, DIR_NAME)
        if _agent_folder(candidate, project) is None:
            return candidate
    import zlib

    folder = project or root
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.basename(folder))[:40].strip("-") or "root"
    return os.path.join(user_cache_dir(), f"{slug}-{zlib.crc32(folder.encode()):08x}")


def user_cache_dir() -> str:
    """platformdirs' `user_cache_dir("mnemolint")`. On Linux, with an absolute `HOME` and
    `XDG_CACHE_HOME` unset, empty or absolute (every platformdirs release agrees there), it is
    worked out here: importing platformdirs (pathlib, tempfile, shutil…) cost a 3-file run ~12 ms."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    home = os.environ.get("HOME", "")
    if (
        sys.platform.startswith("linux")
        and not hasattr(sys, "getandroidapilevel")
        and "ANDROID_DATA" not in os.environ
        and (xdg == "" or (xdg.startswith("/") and xdg == xdg.strip()))
        and (xdg or (home.startswith("/") and home == home.strip()))
    ):
        return os.path.join(xdg or os.path.expanduser("~/.cache"), "mnemolint")
    import platformdirs

    return platformdirs.user_cache_dir("mnemolint")


def project_root(source: str | None, root: str) -> str | None:
    """The project a cache belongs to: the config file's folder, else the repository's top (the
    nearest `.git` at or above the linted root), else None."""
    if source:
        return os.path.dirname(os.path.abspath(source))
    return next((folder for folder in upwards(root) if os.path.lexists(os.path.join(folder, ".git"))), None)


def check_setting(source: str, written: str) -> str | None:
    """Why the `cache-dir` of a repository's config file `source` may not stand (None when it
    may): it must name a folder strictly inside the project, reached without a symlink, in no
    memory or rules dir."""
    project = os.path.dirname(os.path.abspath(source))
    target = os.path.normpath(os.path.join(project, os.path.expanduser(written)))
    if not inside(target, project) or target == project:
        return "must name a folder inside the project; a cache elsewhere is set by " + _ELSEWHERE
    current = project
    for part in os.path.relpath(target, project).split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return f"reaches its folder through a symlink ({os.path.relpath(current, project)}); " + _USE_INSTEAD
    where = _agent_folder(target, project)
    if where:
        return f"would put the cache in {where}, which an agent reads; " + _USE_INSTEAD
    return None


_ELSEWHERE = f"{ENV_VAR} or a config file given with --config"
_USE_INSTEAD = f"name a plain folder of the project, or set {_ELSEWHERE}"


def _agent_folder(path: str, project: str) -> str | None:
    """The memory or rules dir `path` would lie in, said for a message, or None. A folder an
    agent reads by its place (`~/.claude/projects/<slug>/memory`, `.claude/rules`) counts at any
    height; one recognised by a marker file (`MEMORY.md`) only from the project down."""
    from mnemolint.kinds.registry import CONTAINERS

    for folder in upwards(os.path.dirname(path)):
        for container in CONTAINERS:
            marker = container.marker if inside(folder, project) else None
            if container.located(folder) or (marker and os.path.isfile(os.path.join(folder, marker))):
                return f"`{folder}`, a {container.name}"
    return None


# --- removing ---------------------------------------------------------------------------------------


class Refused(Exception):
    """Why `clear` removed nothing: the message `clean` prints."""


def clear(source: str | None, setting: str, root: str) -> tuple[str, bool] | None:
    """Remove the cache of `directory(source, setting, root)` (`mnemolint clean`): None when there
    is none; else its path and whether the folder itself went (False: it holds files mnemolint
    did not make, which stay). Raises `Refused` for a folder that is no mnemolint cache, or is
    the project or holds it."""
    top = directory(source, setting, root)
    project = project_root(source, root)
    for folder in (project, root, os.getcwd()):
        if folder and inside(os.path.abspath(folder), top):
            raise Refused(f"{top} holds the project, so it is never removed as a cache")
    try:
        handle = _open_dir(top, project)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise Refused(f"{top} is not removed: {error.strerror or error}") from None
    try:
        if not _is_mine(handle):
            raise Refused(f"{top} holds no CACHEDIR.TAG of mnemolint's, so it is not removed")
        with os.scandir(handle) as entries:
            names = [entry.name for entry in entries]
        for name in names:
            if _VERSION.fullmatch(name):
                remove_version(handle, name)
        _remove_if(handle, ".gitignore", GITIGNORE)
        if set(os.listdir(handle)) <= {_TAG_NAME}:
            _remove_if(handle, _TAG_NAME, TAG)
    finally:
        os.close(handle)
    try:
        os.rmdir(top)
    except OSError:
        return top, False
    return top, True


def prune(version_folder: str) -> None:
    """After a save: the newest `KEEP` cache files of this version folder, and no other version's."""
    try:
        with os.scandir(version_folder) as entries:
            caches = [
                each
                for each in entries
                if each.name.endswith(".cache") and each.name != HOOK_FACTS and each.is_file(follow_symlinks=False)
            ]
        caches.sort(key=lambda entry: entry.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
        for entry in caches[KEEP:]:
            os.unlink(entry.path)
        top, mine = os.path.split(version_folder)
        handle = _open_dir(top, None)
    except OSError:
        return
    try:
        with os.scandir(handle) as entries:
            others = [entry.name for entry in entries if entry.name != mine and _VERSION.fullmatch(entry.name)]
        for name in others:
            remove_version(handle, name)
    finally:
        os.close(handle)


def remove_version(parent: int, name: str) -> None:
    """Remove the version folder `name` of the open cache dir `parent`: its cache files and
    temporary files, then the folder if nothing else is in it (never entered through a link)."""
    try:
        handle = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=parent)
    except OSError:
        return  # a link, a file, gone: not a version folder mnemolint made
    try:
        with os.scandir(handle) as entries:
            ours = [
                entry.name
                for entry in entries
                if (entry.name.endswith(".cache") or entry.name.startswith(".tmp-"))
                and entry.is_file(follow_symlinks=False)
            ]
        for each in ours:
            try:
                os.unlink(each, dir_fd=handle)
            except OSError:
                continue
    finally:
        os.close(handle)
    try:
        os.rmdir(name, dir_fd=parent)
    except OSError:
        return  # it holds something else


def _open_dir(path: str, project: str | None) -> int:
    """The directory `path`, opened one component at a time without following a link: from the
    project when it lies inside it (the repository's part of the path), else from its parent."""
    if os.open not in os.supports_dir_fd:
        raise OSError("this platform cannot open a folder without following a link")
    path = os.path.abspath(path)
    start = project if project is not None and inside(path, project) and path != project else os.path.dirname(path)
    handle = os.open(start, os.O_RDONLY | _DIRECTORY)
    for part in os.path.relpath(path, start).split(os.sep):
        try:
            child = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=handle)
        finally:
            os.close(handle)
        handle = child
    return handle


def _is_mine(handle: int) -> bool:
    return _holds(handle, _TAG_NAME, TAG)


def marked(top: str) -> bool:
    """Whether the folder `top` (not a link) holds mnemolint's own `CACHEDIR.TAG`."""
    try:
        handle = _open_dir(top, None)
    except OSError:
        return False
    try:
        return _is_mine(handle)
    finally:
        os.close(handle)


def _holds(handle: int, name: str, text: str) -> bool:
    """Whether the regular file `name` in the open directory holds exactly `text`."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=handle)
    except OSError:
        return False
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return file.read(len(text) + 1) == text.encode()


def _remove_if(handle: int, name: str, text: str) -> None:
    if _holds(handle, name, text):
        os.unlink(name, dir_fd=handle)
