"""Use the second core on large trees: half the per-file work runs in a forked worker.

Per-file rules (reading, decoding, YAML) are nearly all the cost of a large run and independent
per file, so a forked child takes nearly half of the files and sends back, part by part, its findings plus
their suppression comments and, for the documents it read (`Document.export`), what container
rules read of them (frontmatter, marks, sizes), which spares the parent from reading them again.
Container and tree rules then run in the parent as usual. Below
`MIN_DOCUMENTS`, or without `fork` (Windows, macOS), or on one core, everything stays in-process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from mnemolint.model import Diagnostic
from mnemolint.parse.document import Document

# Below this, starting a worker costs more than it saves. Measured with tests/benchmark.py's trees,
# one core against two, interleaved medians on the 2-core machine while other jobs ran: two
# cores lose at 750 files and at 2,000 (350 ms against 300 ms), win at 3,000 (354 against 437)
# and at 10,000 (0.89 s against 1.25 s).
MIN_DOCUMENTS = 3000
# From this many documents on, `check` releases each text once its per-file rules have run
# (`Document.release`). Measured with tests/benchmark.py's trees, interleaved, on the 2-core machine:
# at 10,000 files releasing cost the parent 0.08 s of CPU (the marks found ahead of need) for 46 MiB
# saved; at 20,000 it cost nothing and saved 93 MiB; at 50,000 it saved 0.27 s and 236 MiB.
RELEASE_MIN = 20_000
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

# The worker's documents go back in parts of this many: what is in flight at once (the pickled
# bytes, the states not yet adopted) stays a few MiB, however many files there are.
PART = 2000
Checked = tuple[list[Diagnostic], list[str]]  # findings, and the internal errors met on the way
Check = Callable[[list[Document]], Checked]
_shared: tuple[list[list[Document]], Check] | None = None  # handed to the forked child by inheritance


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_documents(documents: list[Document], check: Check) -> Checked:
    """`check(documents)`, split over two processes when that pays."""
    if len(documents) < MIN_DOCUMENTS or not sys.platform.startswith("linux") or _cores() < 2:
        return check(documents)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _shared
    # Interleaved, so large and small files spread evenly; the child gets 9 in 20 since it
    # starts later and must send its results back.
    theirs = [document for number, document in enumerate(documents) if number % 20 < 9]
    mine = [document for number, document in enumerate(documents) if number % 20 >= 9]
    parts = [theirs[start : start + PART] for start in range(0, len(theirs), PART)]
    _shared = (parts, check)
    found: list[Diagnostic] = []
    errors: list[str] = []
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(1, context, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            pending = [pool.submit(_work, number) for number in range(len(parts))]
            found, errors = check(mine)
            for part, result in zip(parts, pending, strict=True):
                try:
                    (their_found, their_errors), states = result.result()
                except Exception:  # noqa: BLE001 - it died (killed, out of memory) or could not send: that part here
                    their_found, their_errors = check(part)
                else:
                    for document, state in zip(part, states, strict=True):
                        document.adopt(state)
                found += their_found
                errors += their_errors
    finally:
        _shared = None
    return found, errors


def _die_with_parent(parent: int) -> None:
    """In the worker, first: end it when the parent dies, so a killed run leaves nothing behind.

    Fork copied both ends of the pool's pipes into the worker, so it never sees their EOF and
    would wait for its next task forever. The kernel kills it (PR_SET_PDEATHSIG); where ctypes
    cannot arm that, a thread watches the parent's pid instead.
    """
    import signal

    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
        armed = prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), *[ctypes.c_ulong(0)] * 3) == 0
    except (ImportError, OSError, AttributeError):  # a Python built without ctypes, no such symbol
        armed = False
    if not armed:
        import threading

        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    elif os.getppid() != parent:  # it died before the signal was armed
        os._exit(1)


def _watch(parent: int) -> None:
    """End this worker once its parent is gone (it is then reparented)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def _work(number: int) -> tuple[Checked, list]:
    """In the worker: part `number` of its documents checked, with what the parent takes of them."""
    assert _shared is not None
    parts, check = _shared
    checked = check(parts[number])
    return checked, [document.export() for document in parts[number]]
