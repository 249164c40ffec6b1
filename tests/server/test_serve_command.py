"""``codegen serve <id>`` starts the stub with one command and prints its address."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

from tests.server.support import REPO, generated


def test_codegen_serve_prints_the_bound_address_and_stops_on_sigterm() -> None:
    for gen in generated():
        network = [f for f in gen.framings if f in ("websocket", "http-post")]
        if not network:
            continue
        process = subprocess.Popen(
            [sys.executable, "-m", "codegen", "serve", gen.spec, "--quiet"],
            cwd=REPO,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        assert process.stderr is not None
        line = process.stderr.readline().decode()
        assert re.search(r"listening on (ws|http)://127\.0\.0\.1:\d+/", line), line
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        process.stderr.close()
