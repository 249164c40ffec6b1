"""Fake peers for the client-side hostile suites: each misbehaves in one way.

``stdio_peer(mode, record)`` is the command line of a child that speaks over its
stdin/stdout; it appends every line it reads to ``record``.  Modes:

- ``silent``: reads everything, answers nothing;
- ``wrong``: answers each request with garbage, then a response to another id;
- ``bad-result``: answers each request with ``{"_meta": 5}`` (no result type takes it);
- ``huge-error``: answers each request with an error whose message is 100 kB of text
  holding terminal escapes;
- ``deaf``: never reads its stdin (a writer to it fills the pipe and blocks).
"""

from __future__ import annotations

import sys
from pathlib import Path

_SCRIPT = r"""
import json, sys, time
mode, record = sys.argv[1], sys.argv[2]
if mode == "deaf":
    time.sleep(600)
out = sys.stdout
with open(record, "a", encoding="utf-8") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message:
            continue
        if "method" not in message:  # a response (to our garbage): never answered
            continue
        rid = message["id"]
        if mode == "wrong":
            out.write("this is not JSON\n")
            other = rid + 1000 if isinstance(rid, int) else "other"
            out.write(json.dumps({"jsonrpc": "2.0", "id": other, "result": {}}) + "\n")
        elif mode == "bad-result":
            answer = {"jsonrpc": "2.0", "id": rid, "result": {"_meta": 5}}
            out.write(json.dumps(answer) + "\n")
        elif mode == "huge-error":
            text = "\x1b[2J\x1b]0;owned\x07" + "x" * 100000
            answer = {"jsonrpc": "2.0", "id": rid, "error": {"code": -1, "message": text}}
            out.write(json.dumps(answer) + "\n")
        out.flush()
"""


def stdio_peer(mode: str, record: Path) -> list[str]:
    """The command line of a fake stdio peer misbehaving as ``mode``."""
    return [sys.executable, "-c", _SCRIPT, mode, str(record)]


def recorded(record: Path) -> list[str]:
    """The lines a fake stdio peer read, in order."""
    if not record.exists():
        return []
    return record.read_text(encoding="utf-8").splitlines()
