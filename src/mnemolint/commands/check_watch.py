"""`check --watch`: lint, then lint again after every change below the paths given, as `ruff check
--watch` does: the screen is cleared before each run (on a terminal), the configuration is read
again each time, a configuration error is said and the watch goes on, and Ctrl-C ends it without a
traceback (exit 130, as for any interrupted run).

watchfiles is the `[watch]` extra, imported here only: the linter and the pre-commit hook install
without it. What mnemolint writes itself (its cache) and the folders no walk enters never count
as a change, so a run never sets off the next one.
"""

from __future__ import annotations

import os
import sys

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from types import ModuleType

    from watchfiles import DefaultFilter

CLEAR = "\x1b[2J\x1b[3J\x1b[H"  # erase the screen and its scroll-back, cursor home
INTERRUPTED = 130


def watch(args: argparse.Namespace, check: Callable[[argparse.Namespace], int]) -> int:
    """Run `check(args)` now and after each change; returns only when interrupted."""
    try:
        import watchfiles
    except ModuleNotFoundError:
        raise ConfigError("--watch needs the watchfiles package: pip install 'mnemolint[watch]'") from None
    targets = [os.path.abspath(path) for path in args.paths or ["."]]
    if args.config:
        targets.append(os.path.abspath(args.config))
    quiet = _filter(watchfiles, args, targets[0])
    try:
        # Woken every half second with nothing (an empty set): the first wake means the watcher
        # is set up, so no change made once the first run has started is missed.
        changes = watchfiles.watch(
            *targets, watch_filter=quiet, raise_interrupt=True, yield_on_timeout=True, rust_timeout=500
        )
        next(changes)
        _announce("Starting mnemolint in watch mode...")
        _run(check, args)
        for changed in changes:
            if changed:
                _announce("File change detected...")
                _run(check, args)
    except KeyboardInterrupt:
        return INTERRUPTED
    return INTERRUPTED  # watchfiles stops only when interrupted


def _filter(watchfiles: ModuleType, args: argparse.Namespace, start: str) -> DefaultFilter:
    """watchfiles' default filter, the folders no walk enters and the run's cache dir left out too."""
    from mnemolint.cache_dir import directory
    from mnemolint.commands.common import settings_from_args
    from mnemolint.paths import DEFAULT_EXCLUDES

    settings = settings_from_args(args, start)
    default = watchfiles.DefaultFilter
    return default(
        ignore_dirs=(*default.ignore_dirs, *sorted(DEFAULT_EXCLUDES)),
        ignore_paths=(directory(settings.source, settings.cache_dir, settings.root),),
    )


def _announce(what: str) -> None:
    """Clear the terminal (never a file or a pipe) and say what starts, on stderr like ruff."""
    out = sys.stdout
    if out.isatty():
        out.write(CLEAR)
        out.flush()
    print(f"[{_now()}] {what}", file=sys.stderr, flush=True)


def _run(check: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> None:
    """One run; a configuration error (a config file saved half-written) is said, and the watch goes on."""
    from mnemolint.parse.textutil import visible

    try:
        check(args)
    except ConfigError as error:
        print(f"mnemolint: error: {visible(str(error))}", file=sys.stderr)
    sys.stdout.flush()
    print(f"[{_now()}] Watching for file changes.", file=sys.stderr, flush=True)


def _now() -> str:
    import time

    return time.strftime("%H:%M:%S")
