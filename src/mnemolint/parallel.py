"""Use the second core on large trees: the per-file work is shared with a forked worker.

Per-file rules (reading, decoding, YAML) are nearly all the cost of a large run and independent
per file, so the documents are cut into parts and a forked child takes them from the front while
this process takes them from the back, each its next part while the other has not taken it:
neither waits for the other's share, however their speeds differ (the machine's other load, a
slow start, files larger at one end): `_Board`. The child sends back, part by part, its findings plus
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
# `LAST_PART`: the process that ends first waits for the part the other is checking. Measured on
# the 2-core machine, 10,000 topics with every rule (with a process pool, which queued a part ahead
# of the one its worker ran): parts of 500 throughout left the parent waiting 93–165 ms at the end,
# parts that shrink 37–45 ms.
PART = 500
LAST_PART = 50
# Findings, the internal errors met on the way, and the cache entries made of the documents, by path.
Checked = tuple[list[Diagnostic], list[str], list[tuple[str, tuple]]]
Check = Callable[[list[Document]], Checked]


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
    parts = _parts(documents)
    try:
        board = _Board(len(parts))
    except OSError:  # no pipe or shared page to be had: one process does it all
        return check(documents)
    results = board.share(parts, check, shipped)
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


class _Board:
    """What the two processes share to split the parts: a page holding the next part from the
    front (the worker's) and the last one taken from the back (this process's), a one-byte pipe
    whose byte is the lock on that page (whoever read it holds it), and a pipe for the worker's
    answers, each part's pickled as it is done. Plain `fork` and pipes: a process pool costs 40–50
    ms to import and start on a slow machine, as much as the worker saves on 2,000 files."""

    def __init__(self, count: int) -> None:
        import mmap

        self.worker: int | None = None  # its pid, while it has not been reaped
        self.page = mmap.mmap(-1, 8)  # anonymous: shared with the forked worker
        self._set(0, count)
        made: list[int] = []
        try:
            self.lock = os.pipe()
            made += self.lock
            self.answers = os.pipe()
        except OSError:  # out of descriptors: nothing is left open
            for fd in made:
                os.close(fd)
            self.page.close()
            raise
        # Both processes read the lock's one end: each waits in `select` and reads without blocking,
        # so that one the other beat to the byte waits again instead of blocking in `read`.
        os.set_blocking(self.lock[0], False)
        os.write(self.lock[1], b"x")
        try:  # room for several parts' answers, so the worker seldom waits for this process to read
            import fcntl

            fcntl.fcntl(self.answers[1], getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
        except (ImportError, OSError):
            pass

    def _get(self) -> tuple[int, int]:
        return int.from_bytes(self.page[:4], "little"), int.from_bytes(self.page[4:], "little")

    def _set(self, front: int, back: int) -> None:
        self.page[:] = front.to_bytes(4, "little") + back.to_bytes(4, "little")

    def _take(self, from_front: bool) -> int | None:
        """The next part from the front (the worker) or the back (this process, never part 0, which
        is the worker's), or None when the two have met; under the lock, which this process waits
        for only while the worker lives (it may die holding it)."""
        if not from_front and not self._acquired():
            return self._alone()
        if from_front:
            while not _locked(self.lock[0], None):
                pass
        try:
            front, back = self._get()
            if from_front:
                if front >= back:
                    return None
                self._set(front + 1, back)
                return front
            if back - 1 < max(front, 1):
                return None
            self._set(front, back - 1)
            return back - 1
        finally:
            os.write(self.lock[1], b"x")

    def _acquired(self) -> bool:
        """In this process: the lock, once it is free; False when the worker has ended and left it
        taken (killed in between), or has ended at all (then it takes no more)."""
        while True:
            if self.worker is None:
                return False
            if _locked(self.lock[0], 0.2):
                return True
            if os.waitpid(self.worker, os.WNOHANG)[0]:
                self.worker = None  # reaped: it took its last part

    def _alone(self) -> int | None:
        """The next part from the back once the worker is gone: nobody else takes any."""
        front, back = self._get()
        if back - 1 < front:
            return None
        self._set(front, back - 1)
        return back - 1

    def share(self, parts: list[list[Document]], check: Check, shipped: tuple[str, ...]) -> list[Checked]:
        """Each part checked by the worker or here, its result at its place; a part the worker
        took but did not answer (it died, its answer could not be pickled) is checked here."""
        import signal

        results: list[Checked | None] = [None] * len(parts)
        parent = os.getpid()
        # No signal is handled between the fork and the worker's `try`: a Ctrl-C there would
        # unwind the worker through the caller's code (its output flushed twice, its handlers run).
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        try:
            child = os.fork()
        except OSError:
            child = -1
        if child == 0:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                self._work(parent, parts, check, shipped)
            finally:
                os._exit(1)  # `_work` never returns: this is for a signal met before it began
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        self.worker = child if child > 0 else None
        os.close(self.answers[1])
        reader = _Answers(self.answers[0])
        done = False
        try:
            if child > 0:
                os.set_blocking(self.answers[0], False)
                while True:
                    number = self._take(False)
                    if number is None:
                        break
                    results[number] = check(parts[number])
                    reader.adopt(parts, results)
                os.set_blocking(self.answers[0], True)
                reader.adopt(parts, results)  # blocking now: to the worker's end
            done = True
        finally:  # left by an exception (Ctrl-C here alone, a bug), the worker is not waited for
            if self.worker is not None:
                _reap(self.worker, kill=not done or any(result is None for result in results))
            os.close(self.answers[0])
            for fd in self.lock:
                os.close(fd)
            self.page.close()
        for number, result in enumerate(results):
            if result is None:  # the worker's and unanswered, or no worker
                results[number] = check(parts[number])
        return results  # type: ignore[return-value]

    def _work(self, parent: int, parts: list[list[Document]], check: Check, shipped: tuple[str, ...]) -> None:
        """In the worker: parts from the front until the two processes meet, each answered as done."""
        code = 0
        try:
            os.close(self.answers[0])
            _die_with_parent(parent)
            import pickle

            while True:
                number = self._take(True)
                if number is None:
                    break
                checked = check(parts[number])
                try:
                    answer = pickle.dumps((checked, [document.export(shipped) for document in parts[number]]), 5)
                except Exception:  # noqa: BLE001 - something in it cannot be pickled: this process checks it
                    answer = b""
                _write_all(self.answers[1], len(answer).to_bytes(8, "little") + number.to_bytes(4, "little") + answer)
        except BaseException:  # noqa: BLE001 - whatever ends it, the parent checks what it did not answer
            code = 1
        finally:
            os._exit(code)


_PIPE_BYTES = 1 << 20
_HEAD = 12  # an answer's length (8 bytes) and its part's number (4)


class _Answers:
    """The worker's answers as they arrive: read in chunks, each whole one adopted at once."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()
        self.ended = False

    def adopt(self, parts: list[list[Document]], results: list[Checked | None]) -> None:
        """What has arrived (on a blocking pipe: everything, to the worker's end), adopted: each
        part's findings at its place, its documents taking what the worker learnt of them."""
        import pickle

        while not self.ended:
            try:
                chunk = os.read(self.fd, _PIPE_BYTES)
            except BlockingIOError:
                return
            if not chunk:
                self.ended = True
            self.pending += chunk
            while len(self.pending) >= _HEAD:
                size = int.from_bytes(self.pending[:8], "little")
                if len(self.pending) < _HEAD + size:
                    break
                number = int.from_bytes(self.pending[8:_HEAD], "little")
                answer = bytes(self.pending[_HEAD : _HEAD + size])
                del self.pending[: _HEAD + size]
                if answer and 0 <= number < len(parts):
                    try:
                        checked, states = pickle.loads(answer)  # noqa: S301 - our own forked worker's
                        for document, state in zip(parts[number], states, strict=True):
                            document.adopt(state)
                    except Exception:  # noqa: BLE001, S112 - a garbled answer: the part is checked here
                        continue
                    results[number] = checked


def _locked(fd: int, timeout: float | None) -> bool:
    """Whether this process took the lock's byte from the non-blocking `fd` within `timeout`
    seconds (None: however long it takes to be there); False too when the other process took
    the byte it waited for first."""
    import select

    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return False
    try:
        os.read(fd, 1)  # never at its end: both processes hold the write end open
    except BlockingIOError:
        return False
    return True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _reap(child: int, kill: bool) -> None:
    """Wait for the worker to end (killed first when parts it took are unanswered: it died or
    this run is being left)."""
    import signal

    if kill:
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.waitpid(child, 0)
    except ChildProcessError:
        pass


def _die_with_parent(parent: int) -> None:
    """In the worker, first: end it when the parent dies, so a killed run leaves nothing behind.

    Fork copied both ends of the lock's pipe into the worker, so it never sees its EOF and would
    wait for the lock forever. The kernel kills it (PR_SET_PDEATHSIG); where ctypes
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
