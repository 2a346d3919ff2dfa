"""The one way mnemolint runs git, hardened against the repository it is run on.

A repository's content is attacker input, and so is a tree's own `.git/config` (an extracted
tarball, a reused CI workspace): git obeys settings there that run programs (`core.fsmonitor`,
filters, `gpg.program`, …), and git run inside a committed folder that merely looks like a git dir
(`HEAD`, `config`, `objects/`, `refs/`) takes that folder's config as the repository's. So:

- the repository is found here, never by git: the nearest `.git` at or above the folder that is a
  real git dir (a directory holding `HEAD`, `objects/` and `refs/`, or a worktree's `gitdir:` file
  naming one), passed to git as `--git-dir` and `--work-tree`;
- every setting that could run a program, wait on a terminal or write is overridden on the command
  line (which outranks every config file), `GIT_CONFIG_NOSYSTEM` is set, nothing of the caller's
  `GIT_*` environment is passed on, stdin is closed, and the whole process group is killed at the
  timeout;
- only commands that read the index, refs and objects are run (`ls-files`, `log --name-only`,
  `worktree list`): none reads a file's content through a filter, a textconv or a diff driver, and
  none verifies a signature; paths always follow `--`.

When git cannot be asked (no git installed, a `.git` that is no real git dir, git fails or times
out), the caller falls back to what it can see without git; the reason, but for a missing git, is
said once on stderr.
"""

from __future__ import annotations

import os
import sys

from mnemolint.paths import upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import subprocess

TIMEOUT = 10.0  # seconds for one git command: a hung git must not hang a commit or a CI job

# Settings that would run a program, read a file that may block, or write, neutralised. A `-c` on
# the command line wins over every config file, including those a repository's config includes.
SETTINGS = (
    "core.fsmonitor=false",  # a program run on every index read
    "core.hooksPath=/dev/null",  # no hook, whatever the repository's hooks folder holds
    "core.pager=cat",
    "core.askPass=",
    "core.untrackedCache=false",
    "credential.helper=",  # an empty value clears every helper configured before it
    "protocol.allow=never",  # no transport, so no ssh command, proxy or lazy fetch of a partial clone
    "safe.bareRepository=explicit",
    "log.showSignature=false",  # gpg.program and its kin run only to verify a signature
    "log.mailmap=false",  # reading .mailmap (a FIFO would block)
    "diff.external=",
    "diff.renames=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "color.ui=false",
)
# Of the caller's environment only these (the user's own global config among them): nothing that
# names another repository or settings (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS…); then what
# keeps git from prompting, locking, fetching or reading the system config.
_KEPT = ("PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "USERPROFILE")
_FIXED = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}


class Repository:
    """A git work tree (`work_tree`) and its git dir (`git_dir`), both absolute."""

    __slots__ = ("work_tree", "git_dir")

    def __init__(self, work_tree: str, git_dir: str) -> None:
        self.work_tree = work_tree
        self.git_dir = git_dir


# What this process was told, by when it was: a git dir that hung or could not be run is not asked
# again, and a reason is said once, for `MEMORY` seconds (a run; a long-lived caller of the API
# gets git back after that).
MEMORY = 120.0
_REFUSED: dict[str, float] = {}
_TOLD: dict[str, float] = {}


def _recent(seen: dict[str, float], key: str) -> bool:
    import time

    moment = seen.get(key)
    return moment is not None and time.monotonic() - moment < MEMORY


def repository(folder: str) -> Repository | None:
    """The repository whose work tree holds `folder`: the nearest `.git` at or above it that is a
    real git dir. None when there is none, or the nearest `.git` is no real git dir (said once).
    A few `lstat`s, asked each time: a repository made since is found."""
    for current in upwards(os.path.abspath(folder)):
        dot_git = os.path.join(current, ".git")
        try:
            mode = os.lstat(dot_git).st_mode
        except OSError:
            continue
        import stat

        git_dir = None
        if stat.S_ISDIR(mode):
            git_dir = dot_git if _real_git_dir(dot_git) else None
        elif stat.S_ISREG(mode):
            git_dir = _gitdir_file(dot_git, current)
        if git_dir is None:
            if not (stat.S_ISDIR(mode) and not os.listdir(dot_git)):  # an empty `.git` is plainly none
                _note(current, f"`{dot_git}` is no git dir mnemolint trusts (a link, or no HEAD, objects and refs)")
            return None
        return Repository(current, git_dir)
    return None


def _real_git_dir(path: str) -> bool:
    """Whether `path` is a git dir: `HEAD`, and `objects/` and `refs/` or (a linked worktree's
    git dir) a `commondir` file; none of them a link."""
    import stat

    def is_(name: str, kind: int) -> bool:
        try:
            return stat.S_IFMT(os.lstat(os.path.join(path, name)).st_mode) == kind
        except OSError:
            return False

    if not is_("HEAD", stat.S_IFREG):
        return False
    return (is_("objects", stat.S_IFDIR) and is_("refs", stat.S_IFDIR)) or is_("commondir", stat.S_IFREG)


def _gitdir_file(path: str, work_tree: str) -> str | None:
    """The git dir a `.git` file (`gitdir: …`, a linked worktree or a submodule) names, when it is
    a real one; read bounded, never through a link or from anything but a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb", buffering=0) as handle:
            first = handle.read(4097).split(b"\n", 1)[0].strip()
    except OSError:
        return None
    if not first.startswith(b"gitdir:"):
        return None
    named = os.fsdecode(first[len(b"gitdir:") :].strip())
    target = os.path.normpath(os.path.join(work_tree, named))
    return target if named and _real_git_dir(target) else None


def git(folder: str, *arguments: str, timeout: float = TIMEOUT, may_fail: bool = False) -> bytes | None:
    """What git prints for `arguments` run in `folder` (paths in the output relative to it, as
    with `git -C folder`); None outside a repository, without git, on failure or past `timeout`
    seconds. The one place mnemolint runs git. A failure is said once on stderr unless the caller
    expects it (`may_fail`: `git log` in a repository with no commit yet)."""
    repo = repository(folder)
    if repo is None or _recent(_REFUSED, repo.git_dir):
        return None
    program = _program()
    if program is None:  # no git here: nothing to say, the files are listed without it
        return None
    command = [program, "--no-pager", "--no-optional-locks"]
    for setting in SETTINGS:
        command += ["-c", setting]
    command += [f"--git-dir={repo.git_dir}", f"--work-tree={repo.work_tree}", *arguments]
    return _run(command, folder, timeout, repo, may_fail)


def _run(command: list[str], folder: str, timeout: float, repo: Repository, may_fail: bool) -> bytes | None:
    import subprocess  # only when git runs: its import costs 2 ms of every start

    environment = {name: os.environ[name] for name in _KEPT if name in os.environ}
    environment.update(_FIXED)
    try:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: whatever it starts is killed with it
        )
    except OSError as error:
        _note(repo.work_tree, f"git could not be started ({error.strerror or error})", refuse=repo.git_dir)
        return None
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(process)
        _note(repo.work_tree, f"git did not answer within {timeout:g} s and was stopped", refuse=repo.git_dir)
        return None
    if process.returncode != 0:
        if may_fail:
            return None
        reason = err.decode("utf-8", "replace").strip().splitlines()
        _note(repo.work_tree, f"git failed ({reason[0] if reason else f'exit {process.returncode}'})")
        return None
    return out


def _stop(process: subprocess.Popen) -> None:
    """Kill `process` and its group (the leader is not reaped yet, so the group is still its own),
    and reap it; a pipe something outside the group still holds open is closed, not waited on."""
    import signal
    import subprocess

    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except OSError:
        pass
    try:
        process.communicate(timeout=1)
    except subprocess.TimeoutExpired:
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
        process.wait()


def _program() -> str | None:
    """git's absolute path, looked up in `PATH` once (never in the folder it is run in)."""
    global _GIT
    if _GIT is False:
        import shutil

        _GIT = shutil.which("git")
    return _GIT  # type: ignore[return-value]


_GIT: str | None | bool = False  # False: not looked up yet


def _note(where: str, reason: str, refuse: str | None = None) -> None:
    """Say once per folder why git was not asked there, on stderr; with `refuse`, ask that git dir
    nothing more this run (a git that hung once is not given a second chance to)."""
    import time

    if refuse is not None:
        _REFUSED[refuse] = time.monotonic()
    if _recent(_TOLD, where):
        return
    _TOLD[where] = time.monotonic()
    from mnemolint.parse.textutil import visible
    from mnemolint.redact import redact

    print(
        f"mnemolint: note: {visible(redact(reason))}; what git would list in {visible(redact(where))} "
        "is taken from the files themselves",
        file=sys.stderr,
    )
