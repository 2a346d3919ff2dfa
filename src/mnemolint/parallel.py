"""Use the second core on large trees: the per-file work is shared with a forked worker.

Per-file rules (reading, decoding, YAML) are nearly all the cost of a large run and independent
per file, so the documents are cut into parts and a forked child takes them from the front while
this process takes them from the back, each its next part while the other has not taken it:
neither waits for the other's share, however their speeds differ (the machine's other load, a
slow start, files larger at one end). The child sends back, part by part, its findings plus
their suppression comments, the cache entries it made of them, and, for the documents it read
(`Document.export`), what container rules read of them (frontmatter, marks, sizes), which spares
the parent from reading them again.
Container and tree rules then run in the parent as usual. Below `MIN_DOCUMENTS` (each document
counted with the per-file rules it is checked by), or without `fork` (Windows, macOS), or on one
core, everything stays in-process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from mnemolint.model import Diagnostic
from mnemolint.parse.document import Document

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from concurrent.futures import Future

# Below this, starting a worker costs more than it saves: this many documents with no per-file
# rule, fewer with some, each counted as `DOCUMENT_COST` rules (reading it, its marks, its
# suppression comments, its cache entry) and its per-file rules. Measured with tests/benchmark.py's
# trees, one core against two, interleaved medians on the 2-core machine: with the default rules
# (none per file on a topic) two cores lose at 750 files and at 2,000 (350 ms against 300 ms), win
# at 3,000 (354 against 437) and at 10,000 (0.89 s against 1.25 s); with every rule (20 on a topic)
# they break even at 700 (152 against 152 ms) and win at 1,000 (188 against 193) and at 2,000
# (283 against 341).
MIN_DOCUMENTS = 3000
DOCUMENT_COST = 8
# From this many documents on, `check` releases each text once its per-file rules have run
# (`Document.release`). Measured with tests/benchmark.py's trees, interleaved, on the 2-core machine:
# at 10,000 files releasing cost the parent 0.08 s of CPU (the marks found ahead of need) for 46 MiB
# saved; at 20,000 it cost nothing and saved 93 MiB; at 50,000 it saved 0.27 s and 236 MiB.
RELEASE_MIN = 20_000
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

# The documents are shared in parts of at most this many (a few milliseconds of work each); what is
# in flight at once (the pickled bytes, the states not yet adopted) stays small, however many files
# there are. Toward the middle of the list, where the two processes meet, parts shrink to about
# `LAST_PART`: the pool queues one part ahead of the one its worker runs, and a queued part cannot be
# taken back, so the process that ends first waits for up to two of the other's parts. Measured on
# the 2-core machine, 10,000 topics with every rule: parts of 500 throughout left the parent waiting
# 93–165 ms at the end, parts that shrink 37–45 ms.
PART = 500
LAST_PART = 50
# Findings, the internal errors met on the way, and the cache entries made of the documents, by path.
Checked = tuple[list[Diagnostic], list[str], list[tuple[str, tuple]]]
Check = Callable[[list[Document]], Checked]
_shared: tuple[list[list[Document]], Check, tuple[str, ...]] | None = None  # handed to the forked child


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_documents(
    documents: list[Document],
    check: Check,
    shipped: tuple[str, ...] = (),
    rules: Callable[[Document], int] | None = None,
) -> Checked:
    """`check(documents)`, split over two processes when that pays (`rules`: how many per-file
    rules check a document); a worker sends back, beside the facts of each document it read, what
    `check` derived of it under the keys `shipped`."""
    if not sys.platform.startswith("linux") or _cores() < 2 or not _worth_a_worker(documents, rules):
        return check(documents)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _shared
    parts = _parts(documents)
    results: list[Checked] = [([], [], [])] * len(parts)
    _shared = (parts, check, shipped)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(1, context, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            pending = [pool.submit(_work, number) for number in range(len(parts))]
            # The worker takes its parts in order, so a part it has started means it has every
            # part before it: from there on, this process only adopts what it sends.
            mine, adopted = len(parts), 0
            while mine - 1 > adopted and pending[mine - 1].cancel():
                mine -= 1
                results[mine] = check(parts[mine])
                while adopted < mine and pending[adopted].done():  # what has come back meanwhile
                    results[adopted] = _adopt(parts[adopted], pending[adopted], check)
                    adopted += 1
            for number in range(adopted, mine):
                results[number] = _adopt(parts[number], pending[number], check)
    finally:
        _shared = None
    found: list[Diagnostic] = []
    errors: list[str] = []
    entries: list[tuple[str, tuple]] = []
    for part_found, part_errors, part_entries in results:  # in the documents' order, whoever checked them
        found += part_found
        errors += part_errors
        entries += part_entries
    return found, errors, entries


def _worth_a_worker(documents: list[Document], rules: Callable[[Document], int] | None) -> bool:
    """Whether the documents and their per-file rules are work enough to share (`MIN_DOCUMENTS`)."""
    if len(documents) >= MIN_DOCUMENTS:
        return True
    if rules is None:
        return False
    return len(documents) * DOCUMENT_COST + sum(map(rules, documents)) >= MIN_DOCUMENTS * DOCUMENT_COST


def _parts(documents: list[Document]) -> list[list[Document]]:
    """`documents` in parts, two at least (the worker always has the first): from each end toward
    the middle, `PART` each while far from it, then an eighth of what lies between a part and the
    middle, down to `LAST_PART`; the part at the middle takes what is left (under twice that)."""
    half = -(-len(documents) // 2)
    sizes = _sizes(half)
    sizes += reversed(_sizes(len(documents) - half))
    parts, start = [], 0
    for size in sizes:
        parts.append(documents[start : start + size])
        start += size
    return parts


def _sizes(count: int) -> list[int]:
    """Part sizes for `count` documents that lie before the middle, first to last."""
    sizes: list[int] = []
    least = max(min(LAST_PART, PART), 1)
    while count > 0:
        size = min(max(min(PART, count // 8), least), count)
        if count - size < least and count <= PART:
            size = count  # no scrap smaller than the least after it
        sizes.append(size)
        count -= size
    return sizes


def _adopt(part: list[Document], future: Future, check: Check) -> Checked:
    """What the worker found on `part`, its documents taking what it learnt of them; where it
    died (killed, out of memory) or could not send its answer, `part` is checked here."""
    try:
        checked, states = future.result()
    except Exception:  # noqa: BLE001 - whatever went wrong there, the part is checked here
        return check(part)
    for document, state in zip(part, states, strict=True):
        document.adopt(state)
    return checked


def _die_with_parent(parent: int) -> None:
    """In the worker, first: end it when the parent dies, so a killed run leaves nothing behind.

    Fork copied both ends of the pool's pipes into the worker, so it never sees their EOF and
    would wait for its next task forever. The kernel kills it (PR_SET_PDEATHSIG); where ctypes
    cannot arm that, a thread watches the parent's pid instead.
    """
    import gc
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
    # What the worker inherited is never garbage to it: its collector leaves those objects alone
    # rather than touching (and so copying) the parent's pages. 50,000 topics: about 50 ms of CPU.
    gc.freeze()


def _watch(parent: int) -> None:
    """End this worker once its parent is gone (it is then reparented)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def _work(number: int) -> tuple[Checked, list]:
    """In the worker: part `number` of its documents checked, with what the parent takes of them."""
    assert _shared is not None
    parts, check, shipped = _shared
    checked = check(parts[number])
    return checked, [document.export(shipped) for document in parts[number]]
