"""The inside of one oracle run: `unshare -n python3 sandbox.py SPEC.json` (runner.py starts it).

In the fresh network namespace it brings up loopback, refuses to go on if any other interface
exists, serves the fake API on 127.0.0.1, runs the client once with a timeout and writes what it
captured. When this process ends, the namespace and the server end with it.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_api import FakeAPI  # noqa: E402

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
PORT_TOKEN = "@@PORT@@"


def loopback_only() -> None:
    """Bring `lo` up; fail unless it is the only interface (i.e. we are in an empty namespace)."""
    names = sorted(name for _, name in socket.if_nameindex())
    if names != ["lo"]:
        raise SystemExit(f"sandbox: not in an empty network namespace (interfaces: {names})")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14s", b"lo", 0, b"\0" * 14)
        flags = struct.unpack("16sH", fcntl.ioctl(sock, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | IFF_UP, b"\0" * 14))


def run(spec: dict) -> int:
    """Serve, run the client, write stdout/stderr/rc into the capture folder; return the client's rc."""
    capture = Path(spec["capture"])
    loopback_only()
    api = FakeAPI(capture / "requests.jsonl", spec["reads"])
    api.start()
    try:
        for path, text in spec.get("files_with_port", {}).items():  # Codex's config names the port
            Path(path).write_text(text.replace(PORT_TOKEN, str(api.port)), encoding="utf-8")
        env = {key: value.replace(PORT_TOKEN, str(api.port)) for key, value in spec["env"].items()}
        with (capture / "stdout").open("wb") as out, (capture / "stderr").open("wb") as err:
            client = subprocess.Popen(
                spec["argv"],
                cwd=spec["cwd"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
            try:
                rc = client.wait(timeout=spec["timeout"])
            except subprocess.TimeoutExpired:
                rc = 124
            try:  # whatever the client left running (or all of it, on a timeout)
                os.killpg(client.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            client.wait()
    finally:
        api.stop()
    (capture / "rc").write_text(f"{rc}\n")
    return rc


if __name__ == "__main__":
    run(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
