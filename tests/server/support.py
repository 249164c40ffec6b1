"""Helpers of the stub server tests: which protocols have a generated server, and
servers started as subprocesses over real transports (stdio pipes, 127.0.0.1 ports).
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 20.0
TRANSPORTS = {"ndjson-stdio": "stdio", "websocket": "websocket", "http-post": "http"}


@dataclass(frozen=True)
class Generated:
    spec: str
    package: str
    framings: tuple[str, ...]
    jsonrpc: bool

    @property
    def python_dir(self) -> Path:
        return REPO / "generated" / self.spec / "python"

    def module(self, name: str) -> ModuleType:
        if str(self.python_dir) not in sys.path:
            sys.path.insert(0, str(self.python_dir))
        return importlib.import_module(f"{self.package}.{name}")

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.python_dir)
        return env

    def argv(self, transport: str, *options: str) -> list[str]:
        server = f"{self.package}.server"
        return [sys.executable, "-m", server, "--transport", transport, *options]


def generated() -> list[Generated]:
    """Every spec whose stub server has been generated (specs land one by one)."""
    import tomllib

    out: list[Generated] = []
    for toml in sorted((REPO / "specs").glob("*/spec.toml")):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        spec = data.get("spec", {}).get("id", toml.parent.name)
        package = data.get("python", {}).get("package")
        transport = data.get("transport", {})
        server = REPO / "generated" / spec / "python" / str(package) / "server.py"
        if package and server.is_file():
            out.append(
                Generated(
                    spec,
                    package,
                    tuple(transport.get("framings", ())),
                    transport.get("kind") == "jsonrpc-2.0",
                )
            )
    return out


def with_transport(framing: str) -> list[Generated]:
    return [g for g in generated() if framing in g.framings]


class RawStdio:
    """A stub server on stdio, driven with raw bytes (lines are read by a thread)."""

    def __init__(self, gen: Generated, *options: str) -> None:
        self.process = subprocess.Popen(
            gen.argv("stdio", *options),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=gen.env(),
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def _pump_err(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send_json(self, message: Any) -> None:
        self.send(json.dumps(message).encode() + b"\n")

    def receive(self, timeout: float = TIMEOUT) -> Any:
        return json.loads(self.lines.get(timeout=timeout))

    def receive_text(self, timeout: float = TIMEOUT) -> bytes:
        return self.lines.get(timeout=timeout)

    def silent(self, timeout: float = 0.3) -> bool:
        try:
            extra = self.lines.get(timeout=timeout)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected reply: {extra!r}")

    def call(self, message: Any) -> Any:
        self.send_json(message)
        return self.receive()

    def close(self) -> int:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


_ADDRESS = re.compile(rb"listening on (\w+)://([^/\s]+):(\d+)/")


class NetworkServer:
    """A stub server on an ephemeral 127.0.0.1 port (the port is read from stderr)."""

    def __init__(self, gen: Generated, transport: str, *options: str) -> None:
        self.process = subprocess.Popen(
            gen.argv(transport, "--port", "0", *options),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=gen.env(),
        )
        assert self.process.stderr is not None
        self.stderr: list[bytes] = []
        while True:
            line = self.process.stderr.readline()
            if not line:
                raise AssertionError(f"server exited: {b''.join(self.stderr)!r}")
            self.stderr.append(line)
            match = _ADDRESS.search(line)
            if match:
                break
        self.scheme = match.group(1).decode()
        self.host = match.group(2).decode()
        self.port = int(match.group(3))
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump_err(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/"

    def terminate(self) -> int:
        self.process.terminate()
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
