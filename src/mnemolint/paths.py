"""Path facts every stage needs, in one place: containment, and walking up towards the root."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache

# Folders no walk enters: version control, dependencies, virtual environments, caches.
DEFAULT_EXCLUDES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".mnemolint_cache",
        "site-packages",
    }
)


def inside(path: str, root: str) -> bool:
    """Whether absolute `path` is `root` or lies below it (by name: resolve links first if they matter)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def from_home(path: str) -> str | None:
    """`path` said as `~/…`, the way users write a file of their home folder; None when it lies
    outside it (or the home folder is `/`, where `~/` would say nothing)."""
    home = os.path.expanduser("~")
    if home in ("", os.sep) or not inside(path, home):
        return None
    return "~/" + os.path.relpath(path, home).replace(os.sep, "/")


def upwards(directory: str) -> Iterator[str]:
    """`directory`, then each parent up to the file system's root."""
    current = directory
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


@lru_cache(maxsize=8)
def repository(directory: str) -> str:
    """The repository `directory` is in: the nearest directory at or above it holding `.git`, else
    `directory` itself. What a clone has (a link out of it, LNK002), Claude Code's project (an
    import that leads out of it), and where code scanning resolves paths from (SARIF, github)."""
    return next((folder for folder in upwards(directory) if os.path.exists(os.path.join(folder, ".git"))), directory)


# Where a link must never lead (LNK006): system trees, credential folders, key files.
_SYSTEM = ("/etc", "/proc", "/sys", "/dev", "/private/etc")  # /private/etc: macOS's /etc
_CREDENTIAL_DIRS = (".ssh", ".aws", ".gnupg", ".config/gcloud", ".kube")  # below any home
_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist")  # `.env.example` holds no value
_KEY_NAMES = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")


def sensitive_place(path: str) -> str | None:
    """What makes absolute POSIX `path` a place no memory may lead to ("in `/etc`, a system
    directory", "a `.env` file"), or None. By name only: nothing is opened or examined."""
    for top in _SYSTEM:
        if inside(path, top):
            return f"in `{top}`, a system directory"
    parts = path.split("/")
    for place in _CREDENTIAL_DIRS:
        width = place.count("/") + 1
        if any("/".join(parts[i : i + width]) == place for i in range(len(parts) - width + 1)):
            return f"in `~/{place}`, a credential folder"
    if ".git" in parts[:-1]:  # git's own folder: its `config` can hold a remote's token
        return "in a `.git` folder, whose `config` can hold credentials"
    name = parts[-1]
    if (name == ".env" or name.startswith(".env.")) and not name.endswith(_TEMPLATE_SUFFIXES):
        return "a `.env` file"
    if name.endswith(".pem"):
        return "a `.pem` key or certificate"
    if name.startswith(_KEY_NAMES) and not name.endswith(".pub"):
        return "a private key (`id_*`)"
    return None


def link_hazard(link: str, target: str, resolved: str) -> str | None:
    """What makes the link at absolute `link`, written `target`, lead to a sensitive place, judged
    on where the whole chain really leads (`resolved`) and on the path as written (a dangling link,
    a chain that ends elsewhere); None when neither is one. The walk's judgement (LNK006)."""
    written = os.path.normpath(os.path.join(os.path.dirname(link), target))
    return sensitive_place(resolved.replace(os.sep, "/")) or sensitive_place(written.replace(os.sep, "/"))


def dangerous_link(path: str, real: str | None = None) -> str | None:
    """Why the file at `path` is never read, by any command: a symlink on its way (the file itself,
    or a folder above it) leads to a sensitive place, as the walk judges a link (`link_hazard`);
    None when no link does. `real` is where `path` really leads when the caller knows it (the file
    it opened), else it is resolved here (`lstat` and `readlink` only). Every read of a file goes
    through `parse.document.Document`, which asks this before it reads a byte."""
    absolute = os.path.abspath(path)
    real = real or os.path.realpath(absolute)
    if real == absolute:
        return None
    try:
        target = os.readlink(absolute)
    except OSError:  # not a link itself: a linked folder above it
        place = sensitive_place(real.replace(os.sep, "/"))
    else:
        place = link_hazard(absolute, target, real)
    return f"a symlink to `{real}`, {place}: mnemolint never reads through it (LNK006)" if place else None
