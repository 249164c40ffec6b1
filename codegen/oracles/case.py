"""The records every oracle module shares: a case, an answer, the oracle protocol.

Phase: verification (``make oracle``).
Inputs: none (definitions only).
Outputs: ``Case`` (one JSON text to read as one named type, with where it came from),
``Answer`` (accept or reject, and what the reader writes back), the ``Oracle`` protocol a
language module implements, and ``OracleUnavailable`` (a toolchain is missing).
Guarantees: a case's ``key`` depends only on its type and text, so the same case gets the
same key in every run (``--failed`` re-runs by key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Case:
    """One JSON text read as one named type of a spec."""

    spec: str
    type_name: str
    text: str
    origin: str  # "sample:<file>/<name>", "ours:<n>" (our schema), "official:<n>"
    kind: str = "base"  # "base" or the mutation kind ("drop", "null", "int-bound", ...)
    mutation: str = ""  # what was changed, e.g. "drop /chunks/0/text"

    @property
    def key(self) -> str:
        digest = hashlib.sha256(f"{self.type_name}\t{self.text}".encode())
        return digest.hexdigest()[:16]

    def as_dict(self) -> dict[str, str]:
        return {
            "key": self.key,
            "spec": self.spec,
            "type": self.type_name,
            "json": self.text,
            "origin": self.origin,
            "kind": self.kind,
            "mutation": self.mutation,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """A reader's verdict on a case: accepted (with what it writes back) or rejected."""

    accept: bool
    output: str | None = None  # the JSON it writes for what it read (None if rejected)
    detail: str = ""  # the reader's error message when it rejects

    def as_dict(self) -> dict[str, object]:
        return {"accept": self.accept, "output": self.output, "detail": self.detail}


class OracleUnavailable(Exception):
    """The oracle's toolchain is missing or its build failed; the message says why and
    what to install."""


class Oracle(Protocol):
    """A source language's own reader and writer for the named types of one spec."""

    language: str
    # "bytes": outputs compared token for token (key order, number spelling);
    # "values": compared as JSON values (TypeScript has no writer of its own).
    compares: str

    def type_names(self) -> set[str]:
        """The source types this oracle can read (and write back)."""
        ...

    def judge(self, cases: Sequence[Case]) -> list[Answer]:
        """One answer per case, in order."""
        ...
