"""Benchmark: `python tests/benchmark.py [--runs N] [--peers] [--growth] [--hook] [--profile] [--servers]`.

Not collected by pytest.

Whole processes, medians of interleaved runs, on trees it generates in a temporary directory, each
with the default rules and with every rule (`--preview`, the whole product):
- a 3-file memory repo (the pre-commit case), against the bare interpreter (`python -c pass`):
  with no cache, cold (writing the cache) and warm;
- 2,000 and 10,000 topics with a realistic 1,962-line MEMORY.md (sections of links, the shape
  in issue 15): mnemolint cold (`--no-cache`), warm (a second run, nothing changed) and warm
  with one topic changed, on one core and on both, and the read+split+YAML floor (a script that
  only reads, splits and ruamel-C-loads every file);
- `--growth`: 10,000, 50,000 and 100,000 topics, time and peak memory (linear growth);
- `--peers`: agnix and memory-lint installed from the package index into a temporary virtual
  environment and timed on the same trees, interleaved with mnemolint; with `--growth`, `--hook`
  and `--profile`;
- `--servers`: `mnemolint server` (the `[server]` extra) from its start to the first diagnostics
  of an opened `MEMORY.md`, and a keystroke in a topic and in `MEMORY.md` of the 2,000-topic tree
  (both open) to its new diagnostics, with the default rules and with `--preview` (each keystroke
  waits for its answer, as a person pausing does: the server's debounce applies only to a burst);
  `mnemolint mcp` (the `[mcp]` extra) from its start to the
  answer of `initialize` and of a first `lint` call. Both are spoken to over stdio, as an editor
  and an agent do.
- `--hook`: `mnemolint hook post-tool-use` answering a write in a 2,000-topic memory dir.
- `--profile` (with `--peers` too): where a short run's time goes, for the 3-file check and the
  hook's topic write (the interpreter, the standard library modules the run imports, mnemolint's
  modules, the run itself), and where the per-file time of a cold run with every rule goes on one
  core at 10,000 topics (the reading, the frontmatter, each rule, the rest).
Last, a table of the figures issue 27 sets goals for that the run measured, each marked met (✓)
or not (✗). It prints Markdown tables to paste into an issue. mnemolint runs as its console script does,
from the `mnemolint` package this interpreter imports (`PYTHONPATH=src` for a work tree); its
modules are compiled to bytecode first, as an install does. Each tree's cache is a folder of the
temporary directory (`MNEMOLINT_CACHE_DIR`), never the user's.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Call = tuple[list[str], str, dict[str, str]]  # a command, the file its standard input comes from, its environment

# The fastest ruamel safe load there is: libyaml's C parser with ruamel's YAML 1.2 resolver
# (`YAML(typ="safe").load` builds a new loader class per call and is about three times slower).
FLOOR = r"""
import os, sys
from ruamel.yaml.cyaml import CSafeLoader
for directory, _, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".md"):
            with open(os.path.join(directory, name), "rb") as handle:
                text = handle.read().decode("utf-8")
            lines = text.split("\n")
            if lines[0] == "---":
                end = lines.index("---", 1)
                loader = CSafeLoader("\n".join(lines[1:end]))
                loader.get_single_data()
                loader.dispose()
"""
# What pip's console script runs; ONE_CORE is the same with the forked worker turned off.
CONSOLE = "import re, sys\nfrom mnemolint.cli import entry\nsys.argv[0] = 'mnemolint'\nsys.exit(entry())"
ONE_CORE = "import mnemolint.parallel as p\np.MIN_DOCUMENTS = 1 << 62\n" + CONSOLE
MEMORY_LINT_CONFIG = """version: 1
corpus_root: {root}
profiles:
  memory:
    include: ["memory/*.md"]
    exclude: ["memory/MEMORY.md"]
    checks:
      frontmatter: {{required_keys: [name, description, type], type_enum: [user, feedback, project, reference]}}
      links: true
      structure: {{max_line_length: 400}}
indexes:
  - {{path: memory/MEMORY.md, include: ["memory/*.md"], exclude: ["memory/MEMORY.md"]}}
"""
INDEX_LINES = 1_962
SECTION = 50  # links per `## ` section of the index
BODY = (
    "The build runs through `make ci`; the slow integration suite is opt-in with `-m slow`.\n"
    "Caches live under `.cache/` and are safe to delete. Flaky test: test_sync_retry (network).\n"
) * 9
KINDS = ("user", "feedback", "project", "reference")


def description(number: int) -> str:
    return f"What was learned about subsystem {number} and how to apply it next time"


def topic(number: int, revision: int = 0) -> str:
    return (
        f"---\nname: topic-{number}\ndescription: {description(number)}\n"
        f"type: {KINDS[number % 4]}\n---\n\n# Topic {number}\n\n{BODY}" + "Revised.\n" * revision
    )


def topic_name(number: int) -> str:
    return f"topic_{number:06d}.md"


def make_tree(root: str, topics: int) -> str:
    """`root`/memory with `topics` topic files and an index of at most 1,962 lines in sections."""
    memory = os.path.join(root, "memory")
    os.makedirs(memory)
    for number in range(topics):
        with open(os.path.join(memory, topic_name(number)), "w", encoding="utf-8") as handle:
            handle.write(topic(number))
    index = ["# Memory", ""]
    number = 0
    while number < topics and len(index) < INDEX_LINES - 3:
        index += [f"## {KINDS[number // SECTION % 4].title()} notes {number // SECTION + 1}", ""]
        end = min(number + SECTION, topics, number + INDEX_LINES - len(index) - 1)
        index += [f"- [Topic {n}]({topic_name(n)}) — {description(n)}" for n in range(number, end)]
        index.append("")
        number = end
    with open(os.path.join(memory, "MEMORY.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(index) + "\n")
    return root


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """Wall time in ms and peak resident memory in MiB of one run (its forked worker included)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here, not by Popen
    return (time.perf_counter() - start) * 1000, usage.ru_maxrss // 1024


def cache_env(folder: str) -> dict[str, str]:
    """The environment of a run whose cache is `folder` (the trees have no project, so the
    cache would otherwise go to the user's cache dir, shared between trees)."""
    return {**os.environ, "MNEMOLINT_CACHE_DIR": folder}


def forget(folder: str) -> Callable[[], None]:
    """A `before` step that removes the cache at `folder`: the next run is cold and writes it."""
    import shutil

    return lambda: shutil.rmtree(folder, ignore_errors=True)


class Timings:
    """Named commands timed round-robin, so that a noisy moment costs every column alike."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.memory: dict[str, int] = {}

    def measure(
        self,
        commands: dict[str, list[str]],
        runs: int,
        before: dict[str, Callable[[], None]] | None = None,
        env: dict[str, dict[str, str]] | None = None,
    ) -> None:
        for _ in range(runs):
            for name, command in commands.items():
                if before and name in before:
                    before[name]()
                elapsed, peak = run(command, (env or {}).get(name))
                self.times.setdefault(name, []).append(elapsed)
                self.memory[name] = max(self.memory.get(name, 0), peak)

    def median(self, name: str) -> float | None:
        return statistics.median(self.times[name]) if name in self.times else None


def ms(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def ratio(top: float | None, bottom: float | None) -> str:
    return "—" if top is None or bottom is None else f"{top / bottom:.2f}×"


def peers(directory: str) -> dict[str, tuple[str, str]]:
    """agnix and memory-lint in a new virtual environment: name → (executable, version)."""
    venv = os.path.join(directory, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "agnix", "memory-lint"], check=True, stderr=subprocess.DEVNULL)
    found = {}
    for name in ("agnix", "memory-lint"):
        executable = os.path.join(venv, "bin", name)
        shown = subprocess.run([executable, "--version"], capture_output=True, text=True, check=False).stdout
        found[name] = (executable, shown.split()[-1] if shown.split() else "?")
    return found


# The two rule sets timed: the default one, and every rule (`--preview`: the whole product).
TIERS = {"default rules": [], "every rule (--preview)": ["--preview"]}


class Goals:
    """The figures issue 27 sets goals for, per rule set, and the table of them."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, dict[str, str], str, dict[str, bool]]] = []

    def add(self, measure: str, tier: str, shown: str, goal: str, met: bool) -> None:
        for row in self.rows:
            if row[0] == measure:
                row[1][tier], row[3][tier] = shown, met
                return
        self.rows.append((measure, {tier: shown}, goal, {tier: met}))

    def print(self) -> None:
        print("\n| measure | " + " | ".join(TIERS) + " | goal |\n|---|" + "---|" * len(TIERS) + "---|")
        for measure, shown, goal, met in self.rows:
            cells = [f"{shown[tier]} {'✓' if met[tier] else '✗'}" if tier in shown else "—" for tier in TIERS]
            print(f"| {measure} | " + " | ".join(cells) + f" | {goal} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command on the large trees")
    parser.add_argument("--peers", action="store_true", help="also agnix, memory-lint, --growth, --hook and the goals")
    parser.add_argument("--growth", action="store_true", help="also 10k/50k/100k topics: time and memory")
    parser.add_argument("--servers", action="store_true", help="also the language server and the MCP server")
    parser.add_argument("--hook", action="store_true", help="also `hook post-tool-use` on 2,000 topics")
    parser.add_argument("--profile", action="store_true", help="also where start-up and per-file time go (runs --hook)")
    args = parser.parse_args()
    args.growth = args.growth or args.peers
    args.hook = args.hook or args.peers or args.profile
    args.profile = args.profile or args.peers
    import mnemolint

    compileall.compile_dir(os.path.dirname(mnemolint.__file__), quiet=1)
    python = sys.executable
    mnemolint_command = [python, "-c", CONSOLE]
    one_core = [python, "-c", ONE_CORE]
    goals = Goals()
    with tempfile.TemporaryDirectory() as work:
        tools = peers(work) if args.peers else {}
        print(f"mnemolint {mnemolint.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
        small = make_tree(os.path.join(work, "small"), 2)
        small_table(work, small, tools, args.runs, mnemolint_command, goals)
        header = ["tree", "mnemolint cold", "1 core", "warm", "warm, 1 changed", "floor", "cold/floor", "warm/floor"]
        header += [f"{name} {version}" for name, (_, version) in tools.items()]
        header += ["memory-lint/cold", "warm/agnix"] if tools else []
        print("| " + " | ".join(header) + " |\n" + "|---" * len(header) + "|")
        for topics in (2_000, 10_000):
            root = make_tree(os.path.join(work, f"tree{topics}"), topics)
            for tier, flags in TIERS.items():
                print(table_row(work, root, topics, tier, flags, tools, args.runs, mnemolint_command, one_core, goals))
        if args.growth:
            growth_table(work, args.runs, mnemolint_command, goals)
        if args.servers:
            servers(work, small, args.runs)
        hooks = hook_table(work, args.runs, goals) if args.hook else {}
        if args.profile:
            startup_profile(work, small, hooks, args.runs, mnemolint_command)
            per_file_profile(os.path.join(work, "tree10000"), 10_000)
    goals.print()


def small_table(
    work: str, small: str, tools: dict[str, tuple[str, str]], runs: int, mnemolint: list[str], goals: Goals
) -> None:
    """The pre-commit case: a 3-file memory repo against the bare interpreter, cold (no cache, and
    writing the cache it then has) and warm, with each rule set."""
    python = sys.executable
    commands = {"bare": [python, "-c", "pass"]}
    before, env = {}, {}
    rows = [("`python -c pass`", "bare")]
    for tier, flags in TIERS.items():
        cache = os.path.join(work, f"small-cache{len(flags)}")
        check = [*mnemolint, "check", small, "--exit-zero", "--quiet", *flags]
        for case, extra in (("no cache", ["--no-cache"]), ("cold, cache written", []), ("warm", [])):
            name = f"{tier}: {case}"
            commands[name] = [*check, *extra]
            env[name] = cache_env(cache)
            rows.append((f"mnemolint check, {name}", name))
        before[f"{tier}: cold, cache written"] = forget(cache)
    if "agnix" in tools:
        commands["agnix"] = [tools["agnix"][0], small]
        rows.append((f"agnix {tools['agnix'][1]}", "agnix"))
    timings = Timings()
    timings.measure(commands, max(runs * 6, 30), before, env)
    bare = timings.median("bare") or 0.0
    print("| 3-file repo | median | fastest | median over `python -c pass` |\n|---|---|---|---|")
    for label, name in rows:
        median = timings.median(name) or 0.0
        over = "—" if name == "bare" else f"{median - bare:+.1f} ms"
        print(f"| {label} | {median:.1f} ms | {min(timings.times[name]):.1f} ms | {over} |")
    print()
    for tier in TIERS:
        cold = (timings.median(f"{tier}: cold, cache written") or 0.0) - bare
        goals.add(
            "3 files, cold (cache written), over bare `python -c pass`", tier, f"{cold:+.0f} ms", "≤ +25 ms", cold <= 25
        )


def table_row(
    work: str,
    root: str,
    topics: int,
    tier: str,
    flags: list[str],
    tools: dict[str, tuple[str, str]],
    runs: int,
    mnemolint: list[str],
    one_core: list[str],
    goals: Goals,
) -> str:
    """One tree's row for one rule set: every command interleaved with the others, `runs` times."""
    changed = os.path.join(root, "memory", topic_name(topics // 2))
    revision = iter(range(1, 1 << 30))

    def change() -> None:
        with open(changed, "w", encoding="utf-8") as handle:
            handle.write(topic(topics // 2, next(revision) % 2))

    cache = os.path.join(work, f"cache{topics}-{len(flags)}")
    check = [*mnemolint, "check", root, "--exit-zero", "--quiet", *flags]
    commands = {
        "cold": [*check, "--no-cache"],
        "one core": [*one_core, "check", root, "--exit-zero", "--quiet", "--no-cache", *flags],
        "warm": check,
        "changed": check,
        "floor": [sys.executable, "-c", FLOOR, root],
    }
    env = {"warm": cache_env(cache), "changed": cache_env(cache)}
    if "agnix" in tools:
        commands["agnix"] = [tools["agnix"][0], root]
    if "memory-lint" in tools:
        config = os.path.join(work, f"memory-lint-{topics}.yaml")
        with open(config, "w", encoding="utf-8") as handle:
            handle.write(MEMORY_LINT_CONFIG.format(root=root))
        commands["memory-lint"] = [tools["memory-lint"][0], "--config", config, "--format", "json"]
    run(commands["warm"], env["warm"])  # the cache is filled before the first warm run
    timings = Timings()
    timings.measure(commands, runs, before={"changed": change}, env=env)
    cold, floor, warm = timings.median("cold"), timings.median("floor"), timings.median("warm")
    cells = [f"{topics:,} topics, {tier}", ms(cold), ms(timings.median("one core")), ms(warm)]
    cells += [ms(timings.median("changed")), ms(floor), ratio(cold, floor), ratio(warm, floor)]
    cells += [ms(timings.median(name)) for name in tools]
    agnix, memory_lint = timings.median("agnix"), timings.median("memory-lint")
    if tools:
        cells += [ratio(memory_lint, cold), ratio(warm, agnix)]
    if topics == 10_000 and cold and floor and warm:
        goals.add("10,000 topics, cold, ÷ read+split+ruamel floor", tier, ratio(cold, floor), "≤ 1.0×", cold <= floor)
        goals.add("10,000 topics, warm, ÷ floor", tier, ratio(warm, floor), "≤ 0.2×", warm <= 0.2 * floor)
    if topics == 2_000 and warm and cold and agnix and memory_lint:
        shown = f"{ms(warm)} vs {ms(agnix)}"
        goals.add("2,000 topics warm vs agnix cold", tier, shown, "faster than agnix", warm < agnix)
        goals.add(
            "2,000 topics cold vs memory-lint",
            tier,
            f"{memory_lint / cold:.1f}× faster",
            "≥ 5×",
            memory_lint >= 5 * cold,
        )
    return "| " + " | ".join(cells) + " |"


def growth_table(work: str, runs: int, mnemolint: list[str], goals: Goals) -> None:
    """10,000, 50,000 and 100,000 topics in one dir, cold: time, time per file, peak memory."""
    print("\n| topics | rule set | mnemolint cold | per file | peak memory |\n|---|---|---|---|---|")
    limits = {50_000: (2_500, 120), 100_000: (8_000, 250)}
    for topics in (10_000, 50_000, 100_000):
        root = make_tree(os.path.join(work, f"growth{topics}"), topics)
        growth = Timings()
        commands = {
            tier: [*mnemolint, "check", root, "--exit-zero", "--quiet", "--no-cache", *flags]
            for tier, flags in TIERS.items()
        }
        growth.measure(commands, max(runs // 2, 1))
        for tier in TIERS:
            median, peak = growth.median(tier) or 0.0, growth.memory[tier]
            print(f"| {topics:,} | {tier} | {ms(median)} | {median * 1000 / topics:.0f} µs | {peak} MiB |")
            if topics in limits:
                most_ms, most_mib = limits[topics]
                measure = f"{topics:,} topics in one dir, cold: time, peak memory"
                met = median <= most_ms and peak <= most_mib
                goals.add(measure, tier, f"{ms(median)}, {peak} MiB", f"≤ {ms(most_ms)}, ≤ {most_mib} MiB", met)
        import shutil

        shutil.rmtree(root)


class Speaker:
    """A server process spoken to over stdio: the Language Server Protocol's framed messages
    (`Content-Length` headers), or MCP's one JSON message a line."""

    def __init__(self, command: list[str], framed: bool, cwd: str) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd
        )
        self.framed = framed
        self.next_id = 0

    def send(self, method: str, params: dict, request: bool = True) -> int | None:
        import json

        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) if self.framed else body + b"\n")
        stdin.flush()
        return message.get("id")

    def receive(self) -> dict:
        import json

        stdout = self.process.stdout
        assert stdout is not None
        if not self.framed:
            return json.loads(stdout.readline())
        length = 0
        while (line := stdout.readline().strip()) != b"":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(stdout.read(length))

    def until(self, wanted: Callable[[dict], bool]) -> float:
        """Read messages (answering the server's own requests) until one is `wanted`; the ms
        since the process started."""
        while True:
            message = self.receive()
            if "method" in message and "id" in message:  # a request of the server's: registerCapability
                self.answer(message["id"])
            if wanted(message):
                return (time.perf_counter() - self.started) * 1000

    def answer(self, number: object) -> None:
        import json

        body = json.dumps({"jsonrpc": "2.0", "id": number, "result": None}).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        stdin.flush()

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def _published(uri: str, version: int) -> Callable[[dict], bool]:
    def wanted(message: dict) -> bool:
        params = message.get("params") or {}
        return (
            message.get("method") == "textDocument/publishDiagnostics"
            and params.get("uri") == uri
            and params.get("version") == version
        )

    return wanted


def _language_server(
    root: str, opened: list[str], typed: tuple[str, ...] = (), keystrokes: int = 0, arguments: tuple[str, ...] = ()
) -> tuple[list[float], dict[str, list[float]]]:
    """ms from the start to the first diagnostics of each file of `opened`; then, for each file of
    `typed` (opened too), ms from each of `keystrokes` changes to its diagnostics."""
    import pathlib

    speaker = Speaker([sys.executable, "-c", CONSOLE, "server", *arguments], True, root)
    try:
        root_uri = pathlib.Path(root).as_uri()
        speaker.send("initialize", {"processId": None, "rootUri": root_uri, "capabilities": {}})
        speaker.until(lambda message: message.get("id") == 1)
        speaker.send("initialized", {}, request=False)
        times, texts = [], {}
        for path in opened:
            uri = pathlib.Path(path).as_uri()
            with open(path, encoding="utf-8") as handle:
                texts[uri] = handle.read()
            item = {"uri": uri, "languageId": "markdown", "version": 1, "text": texts[uri]}
            speaker.send("textDocument/didOpen", {"textDocument": item}, request=False)
            times.append(speaker.until(_published(uri, 1)))
        typing: dict[str, list[float]] = {}
        for path in typed:
            uri = pathlib.Path(path).as_uri()
            for version in range(2, 2 + keystrokes):
                texts[uri] += "x"
                change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": texts[uri]}]}
                time.sleep(0.05)  # a pause between keystrokes, longer than the server's debounce
                sent = time.perf_counter()
                speaker.send("textDocument/didChange", change, request=False)
                speaker.until(_published(uri, version))
                typing.setdefault(path, []).append((time.perf_counter() - sent) * 1000)
        return times, typing
    finally:
        speaker.close()


def _mcp_server(root: str) -> tuple[float, float]:
    """ms from the start to the answer of `initialize`, and to the answer of a first `lint`."""
    speaker = Speaker([sys.executable, "-c", CONSOLE, "mcp", "--root", root], False, root)
    try:
        client = {"name": "benchmark", "version": "1"}
        speaker.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client})
        started = speaker.until(lambda message: message.get("id") == 1)
        speaker.send("notifications/initialized", {}, request=False)
        speaker.send("tools/call", {"name": "lint", "arguments": {"path": "."}})
        return started, speaker.until(lambda message: message.get("id") == 2)
    finally:
        speaker.close()


def servers(work: str, small: str, runs: int) -> None:
    """The servers' table: start-up to a first answer, and a keystroke in a large memory dir."""
    import importlib.util

    big = os.path.join(work, "tree2000")
    if not os.path.isdir(big):
        make_tree(big, 2_000)
    topic = os.path.join(big, "memory", topic_name(1_000))
    index = os.path.join(big, "memory", "MEMORY.md")
    print("\n| server | measure | median | fastest |\n|---|---|---|---|")
    rows: dict[str, list[float]] = {}
    if importlib.util.find_spec("pygls") is not None:
        for _ in range(runs):
            rows.setdefault("server: start to first diagnostics (3-file repo)", []).extend(
                _language_server(small, [os.path.join(small, "memory", "MEMORY.md")])[0]
            )
            for arguments, rules in (((), "default rules"), (("--preview",), "--preview")):
                (first, _), typing = _language_server(big, [index, topic], (topic, index), 10, arguments)
                rows.setdefault(f"server: start to first diagnostics (2,000 topics, {rules})", []).append(first)
                for path, name in ((topic, "a topic"), (index, "MEMORY.md")):
                    label = f"server: keystroke in {name} to its diagnostics (2,000 topics, {rules})"
                    rows.setdefault(label, []).extend(typing[path])
    if importlib.util.find_spec("mcp") is not None:
        for _ in range(runs):
            started, linted = _mcp_server(small)
            rows.setdefault("mcp: start to `initialize` answered (3-file repo)", []).append(started)
            rows.setdefault("mcp: start to first `lint` answered (3-file repo)", []).append(linted)
    for label, values in rows.items():
        name, _, measure = label.partition(": ")
        print(f"| `mnemolint {name}` | {measure} | {ms(statistics.median(values))} | {ms(min(values))} |")


# --- `--hook`: `mnemolint hook post-tool-use` on a 2,000-topic memory dir ----------------------

HOOK_TOPIC = 1_000  # the topic written: linked from the index, past its 200-line cut


def hook_table(work: str, runs: int, goals: Goals) -> dict[str, Call]:
    """The hook answering an Edit of a topic (and of `MEMORY.md`) in 2,000 topics with a 1,962-line
    index: in a project's `.claude/projects/p/memory` (flat) and in a new user's auto memory
    (`HOME/.claude/projects/-home-me-proj/memory`, `XDG_CACHE_HOME` an empty folder: no cache
    anywhere), each with no cache and warm (after a `check` of the dir and a first hook call).
    Medians of interleaved runs of whole processes, wall time and CPU time (user + system)."""
    from functools import partial

    home = os.path.join(work, "hook-home")
    trees = {
        "flat": _auto_memory(os.path.join(work, "hook-flat"), "p"),
        "new user's": _auto_memory(home, "-home-me-proj"),
    }
    python = sys.executable
    commands: dict[str, Call] = {
        "`python -c pass`": ([python, "-c", "pass"], os.devnull, {}),
        "a write outside memory": _hook_call(work, os.path.join(work, "src", "app.py"), "outside", []),
    }
    before: dict[str, Callable[[], None]] = {}
    for tree, memory in trees.items():
        env = {"HOME": home} if tree == "new user's" else {}
        for written in (topic_name(HOOK_TOPIC), "MEMORY.md"):
            for preview in ([], ["--preview"]):
                for cache in ("no cache", "warm"):
                    name = f"{tree}|{cache}|{written}|{' '.join(preview)}"
                    command, stdin, call_env = _hook_call(work, os.path.join(memory, written), name, preview)
                    folder = os.path.join(work, "hook-cache", name.replace("|", "-").replace(" ", "_"))
                    call_env = {**call_env, **env, "XDG_CACHE_HOME": folder}
                    commands[name] = (command, stdin, call_env)
                    if cache == "no cache":
                        before[name] = partial(_empty, folder)
                    else:
                        check = [python, "-c", CONSOLE, "check", memory, "--exit-zero", "--quiet", *preview]
                        subprocess.run(check, env={**os.environ, **call_env}, stdout=subprocess.DEVNULL, check=False)
                        _timed(command, stdin, call_env)  # the first hook call: the timed ones are the next
    times = _interleaved(commands, runs, before)

    def cell(name: str) -> str:
        wall = statistics.median(each[0] for each in times[name])
        cpu = statistics.median(each[1] for each in times[name])
        return f"{ms(wall)} ({ms(cpu)} CPU)"

    print(
        "\n| hook post-tool-use | cache | topic write | topic write, --preview | index write | index write, --preview |"
    )
    print("|---|---|---|---|---|---|")
    for label in ("`python -c pass`", "a write outside memory"):
        print(f"| {label} | — | {cell(label)} | | | |")
    for tree in trees:
        for cache in ("no cache", "warm"):
            cells = [
                cell(f"{tree}|{cache}|{written}|{preview}")
                for written in (topic_name(HOOK_TOPIC), "MEMORY.md")
                for preview in ("", "--preview")
            ]
            print(f"| 2,000 topics, {tree} | {cache} | " + " | ".join(cells) + " |")
    for tier, preview in zip(TIERS, ("", "--preview"), strict=True):
        wall = {
            cache: max(
                statistics.median(each[0] for each in times[f"{tree}|{cache}|{topic_name(HOOK_TOPIC)}|{preview}"])
                for tree in trees
            )
            for cache in ("warm", "no cache")
        }
        shown = f"{ms(wall['warm'])} warm, {ms(wall['no cache'])} with no cache"
        met = wall["warm"] <= 50 and wall["no cache"] <= 150
        goals.add(
            "`hook post-tool-use`, topic write in a 2,000-topic dir (the slower tree)",
            tier,
            shown,
            "≤ 50 ms warm, ≤ 150 ms with no cache",
            met,
        )
    return {
        tier: commands[f"flat|warm|{topic_name(HOOK_TOPIC)}|{preview}"]
        for tier, preview in zip(TIERS, ("", "--preview"), strict=True)
    }


def _auto_memory(root: str, project: str) -> str:
    """`make_tree`'s 2,000 topics moved to `root/.claude/projects/<project>/memory`."""
    make_tree(os.path.join(root, "tree"), 2_000)
    memory = os.path.join(root, ".claude", "projects", project, "memory")
    os.makedirs(os.path.dirname(memory))
    os.rename(os.path.join(root, "tree", "memory"), memory)
    return memory


def _hook_call(work: str, written: str, name: str, args: list[str]) -> Call:
    """The hook's command and the file holding its event (an Edit of `written`)."""
    import json

    event = {"hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": {"file_path": written}, "cwd": work}
    stdin = os.path.join(work, f"event-{abs(hash(name))}.json")
    with open(stdin, "w", encoding="utf-8") as handle:
        json.dump(event, handle)
    return [sys.executable, "-c", CONSOLE, "hook", "post-tool-use", *args], stdin, {}


def _empty(folder: str) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def _timed(command: list[str], stdin: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU time (user + system) in ms of one run, its standard input from `stdin`."""
    with open(stdin, "rb") as handle:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdin=handle, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env}
        )
        _, _, usage = os.wait4(process.pid, 0)
        process.returncode = 0  # reaped here, not by Popen
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def _interleaved(
    commands: dict[str, Call], rounds: int, before: dict[str, Callable[[], None]]
) -> dict[str, list[tuple[float, float]]]:
    """Each command's wall and CPU times (`_timed`) over `rounds` rounds of all of them in turn,
    each run after its `before` step, if it has one."""
    times: dict[str, list[tuple[float, float]]] = {}
    for _ in range(rounds):
        for name, (command, stdin, env) in commands.items():
            if name in before:
                before[name]()
            times.setdefault(name, []).append(_timed(command, stdin, env))
    return times


# The console script, which writes the names of the modules its process imported to the file named
# by BENCHMARK_MODULES once the command is done (`startup_profile`).
MODULES_PROBE = """
import re, os, sys
from mnemolint import cli
command = cli.main
def main():
    try:
        return command()
    finally:
        with open(os.environ["BENCHMARK_MODULES"], "w", encoding="utf-8") as handle:
            handle.write("\\n".join(sys.modules))
cli.main = main
sys.argv[0] = "mnemolint"
sys.exit(cli.entry())
"""
# Imports the modules listed in the file `argv[1]`, in their order, and nothing else; with a
# second argument, only those of the standard library. It sets the collector as `cli.entry` does
# once `mnemolint.cli` is in, and exits as the console script does, without tearing modules down.
IMPORTS = """
import gc, os, sys
with open(sys.argv[1], encoding="utf-8") as handle:
    names = handle.read().split()
for name in names:
    if name not in sys.modules and (len(sys.argv) < 3 or name.split(".")[0] in sys.stdlib_module_names):
        try:
            __import__(name)
        except ImportError:
            pass  # a module made at run time, not importable by name
        if name == "mnemolint.cli":  # what `entry` does first, before the modules the run imports
            gc.freeze()
            gc.set_threshold(100_000, 20, 20)
os._exit(0)  # as the console script ends: without tearing the modules down
"""


def startup_profile(work: str, small: str, hooks: dict[str, Call], runs: int, mnemolint: list[str]) -> None:
    """Where a short run's time goes: the 3-file check cold (cache written) and the hook's warm
    topic write, each with both rule sets, against processes that stop earlier: the bare
    interpreter, one that imports only the standard library modules the run imports, and one
    that imports every module the run imports (mnemolint's too) and does nothing else. The
    fastest of many interleaved runs of each (what a noisy moment adds to one column would
    otherwise show in the difference of two); each column the difference from the one before."""
    from itertools import pairwise

    python = sys.executable
    cases: dict[str, Call] = {}
    before: dict[str, Callable[[], None]] = {}
    for tier, flags in TIERS.items():
        cache = os.path.join(work, f"profile-cache{len(flags)}")
        name = f"3 files, cold, {tier}"
        cases[name] = ([*mnemolint, "check", small, "--exit-zero", "--quiet", *flags], os.devnull, cache_env(cache))
        before[f"{name}|whole"] = forget(cache)
    for tier, case in hooks.items():
        cases[f"hook, topic write, warm, {tier}"] = case
    commands: dict[str, Call] = {"bare": ([python, "-c", "pass"], os.devnull, {})}
    for number, (name, (command, stdin, env)) in enumerate(cases.items()):
        listed = os.path.join(work, f"modules-{number}.txt")
        probe = [python, "-c", MODULES_PROBE, *command[3:]]  # the console script's arguments
        with open(stdin, "rb") as handle:
            subprocess.run(
                probe,
                stdin=handle,
                stdout=subprocess.DEVNULL,
                env={**os.environ, **env, "BENCHMARK_MODULES": listed},
                check=False,
            )
        if not os.path.isfile(listed):  # else its import-only processes would fail fast, and look fast
            print(f"\nThe start-up profile did not run: `{' '.join(probe[3:])}` named no modules.")
            return
        commands[f"{name}|standard library"] = (
            [python, "-c", IMPORTS, listed, "standard library only"],
            os.devnull,
            {},
        )
        commands[f"{name}|every module"] = ([python, "-c", IMPORTS, listed], os.devnull, {})
        commands[f"{name}|whole"] = (command, stdin, env)
    times = _interleaved(commands, max(runs * 4, 20), before)
    fastest = {name: min(wall for wall, _ in each) for name, each in times.items()}
    print(
        "\n| where a short run's time goes (fastest runs) | the interpreter | + its standard library imports "
        "| + mnemolint's modules | + the run itself | whole |"
    )
    print("|---|---|---|---|---|---|")
    for name in cases:
        steps = [
            fastest["bare"],
            *(fastest[f"{name}|{step}"] for step in ("standard library", "every module", "whole")),
        ]
        cells = [
            ms(steps[0]),
            *(f"{later - earlier:+.1f} ms" for earlier, later in pairwise(steps)),
            ms(steps[-1]),
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")


# The console script with every rule, on one core, a timer around each rule, and around the reading
# and the frontmatter of each file before its first rule: the seconds each took, as JSON.
RULE_TIMES = """
import json, sys, time
import mnemolint.parallel as parallel
parallel.MIN_DOCUMENTS = 1 << 62
from mnemolint import cli, rules
from mnemolint.parse.document import Document
spent, seen, wrapped, family, command = {}, set(), set(), rules._family, cli.main
def add(name, seconds):
    spent[name] = spent.get(name, 0.0) + seconds
def timed(check, code):
    def run(target, options):
        if type(target) is Document and id(target) not in seen:
            seen.add(id(target))
            start = time.perf_counter()
            target.text, target.lines
            read = time.perf_counter()
            target.frontmatter
            add("reading", read - start)
            add("frontmatter", time.perf_counter() - read)
        start = time.perf_counter()
        hits = list(check(target, options))
        add(code, time.perf_counter() - start)
        return hits
    return run
def timed_family(module):
    found = family(module)
    for rule in found.rules:
        if rule.code not in wrapped:
            wrapped.add(rule.code)
            rule.check = timed(rule.check, rule.code)
    return found
def main():
    start = time.perf_counter()
    try:
        return command()
    finally:
        spent["whole run"] = time.perf_counter() - start
        print(json.dumps(spent))
rules._family, cli.main = timed_family, main
sys.argv = ["mnemolint", "check", sys.argv[1], "--no-cache", "--exit-zero", "--quiet", "--preview"]
cli.entry()  # as the console script runs it: its collector settings too
"""


def per_file_profile(root: str, topics: int, shown: int = 10) -> None:
    """Where the per-file time of a cold run with every rule goes, on one core: the reading and
    the frontmatter of each file, each rule (the ten dearest, then the others), and the rest (the
    walk, the engine's loop, the report, the timers' own cost), in µs per file."""
    import json

    process = subprocess.run([sys.executable, "-c", RULE_TIMES, root], capture_output=True, text=True, check=False)
    try:
        spent: dict[str, float] = json.loads(process.stdout.splitlines()[-1])
    except (IndexError, ValueError):
        print(f"\nThe per-file profile did not run: {process.stderr.strip()[-500:]}")
        return
    whole = spent.pop("whole run")
    ranked = sorted(spent.items(), key=lambda item: -item[1])
    rules = [item for item in ranked if item[0] not in ("reading", "frontmatter")]
    rows = [item for item in ranked if item[0] in ("reading", "frontmatter")] + rules[:shown]
    if rules[shown:]:
        rows.append((f"the other {len(rules) - shown} rules", sum(seconds for _, seconds in rules[shown:])))
    rows.append(("the rest: walk, engine, report, timers", whole - sum(spent.values())))
    print(f"\n| {topics:,} topics, every rule, one core, cold | µs per file | share |\n|---|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds * 1e6 / topics:.1f} | {seconds / whole:.0%} |")
    print(f"| whole run | {whole * 1e6 / topics:.1f} | 100% |")


if __name__ == "__main__":
    main()
