"""Record what the real clients load: `python tools/oracle/record.py [--install] [CASE ...]`.

Writes every case of the `cases_*.py` modules, runs its client (Claude Code, Codex, Gemini CLI or OpenCode,
the pinned versions from npm; `--client` for some) offline on it, and writes one fixture per case
to tests/oracle/<client>/<case>.json (extract.py and gemini.py say what a fixture holds).
Re-recording after a client update is this one command and a reviewed diff of tests/oracle/. Needs
root or user namespaces (`unshare -n`), npm and Python 3.10+; nothing outside the standard
library. Exit 0: recorded; 1: a case failed; 3: the oracle cannot run
here (the message says why; tools/oracle/live.sh turns it into a SKIP line).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gemini  # noqa: E402
from casetree import CLIENTS, lay_out, write_all  # noqa: E402
from extract import CaptureError, dumps, fixture  # noqa: E402
from runner import Clients, Unavailable, netns_command, run_case  # noqa: E402

# The client versions the fixtures are recorded from (npm packages); change them here to move on.
PINS = {
    "claude": ("@anthropic-ai/claude-code", os.environ.get("CLAUDE_VERSION", "2.1.332")),
    "codex": ("@openai/codex", os.environ.get("CODEX_VERSION", "0.171.0")),
    gemini.CLIENT: (gemini.PACKAGE, gemini.VERSION),
    "opencode": ("opencode-ai", os.environ.get("OPENCODE_VERSION", "1.18.33")),
}
REPO = Path(__file__).resolve().parents[2]
DEFAULT_NPM = Path(
    os.environ.get("MNEMOLINT_ORACLE_NPM")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mnemolint-oracle" / "npm"
)


def install(prefix: Path, clients: list[str]) -> None:
    """`npm install` the pinned `clients` into `prefix` (cheap when they are there already)."""
    if shutil.which("npm") is None:
        raise Unavailable("npm is not installed")
    prefix.mkdir(parents=True, exist_ok=True)
    packages = [f"{PINS[client][0]}@{PINS[client][1]}" for client in clients]
    command = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error", *packages]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise Unavailable(f"npm install {' '.join(packages)} failed: {last[:200]}")


def check_versions(clients: Clients, chosen: list[str]) -> dict[str, str]:
    """Each chosen client's version, which must be the pinned one (else the fixtures would lie)."""
    versions = {}
    for client in chosen:
        package, pinned = PINS[client]
        found = clients.version(client)
        if found != pinned:
            raise Unavailable(f"{package} is {found} under {clients.prefix}, not {pinned} (run with --install)")
        versions[client] = found
    return versions


def record(names: list[str], out: Path, clients: Clients, jobs: int, work: Path, only: list[str]) -> int:
    """Record `names` (all cases of the clients `only` when empty) into `out`; return the number of
    failed cases."""
    netns = netns_command()
    cases = write_all(work / "cases")
    unknown = sorted(set(names) - set(cases))
    if unknown:
        raise SystemExit(f"record.py: no such case: {', '.join(unknown)} (known: {', '.join(sorted(cases))})")
    client_of = {name: (folder / "client").read_text().strip() for name, folder in cases.items()}
    chosen = names or sorted(name for name in cases if client_of[name] in only)
    versions = check_versions(clients, sorted({client_of[name] for name in chosen}))

    def one(name: str) -> str | None:
        session = lay_out(cases[name], work / "sessions" / name)
        capture = work / "captures" / session.client / name
        run_case(session, clients, capture, netns)
        try:
            make = gemini.fixture if session.client == gemini.CLIENT else fixture
            text = dumps(make(session, capture, versions[session.client]))
        except CaptureError as error:
            return str(error)
        target = out / session.client / f"{name}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return None

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        failures = [(name, error) for name, error in zip(chosen, pool.map(one, chosen), strict=True) if error]
    if not names:  # a full recording: a fixture whose case is gone goes too
        for client in only:
            for stale in sorted((out / client).glob("*.json")):
                if stale.stem not in cases:
                    stale.unlink()
    for name, error in failures:
        print(f"record.py: {name} FAILED: {error}", file=sys.stderr)
    return len(failures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="record.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help="cases to record (default: all)")
    parser.add_argument("--install", action="store_true", help="npm install the pinned clients first")
    parser.add_argument(
        "--npm", type=Path, default=DEFAULT_NPM, help=f"npm prefix of the clients (default {DEFAULT_NPM})"
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "tests" / "oracle", help="fixture folder (default tests/oracle)"
    )
    parser.add_argument(
        "--keep", type=Path, help="keep the cases, sessions and raw captures here (default: a temp dir)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument(
        "--client", action="append", choices=CLIENTS, help="only this client's cases (repeatable; default: all)"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    work = args.keep or Path(tempfile.mkdtemp(prefix="mnemolint-oracle-"))
    try:
        only = args.client or list(CLIENTS)
        if args.install:
            install(args.npm, only)
        failed = record(args.cases, args.out, Clients(args.npm), max(1, args.jobs), work, only)
    except Unavailable as why:
        print(f"record.py: cannot run the oracle here: {why}", file=sys.stderr)
        return 3
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"record.py: {len(args.cases) or 'all'} cases into {args.out} in {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
