"""The byte-level fuzz of spec files (tests/hostile/spec_fuzz.py), bounded: every
pathological file once per spec, and ``CODEGEN_SPEC_FUZZ`` (default 15) mutated inputs per
spec (seed ``CODEGEN_FUZZ_SEED``, default 17), through the command line's ``check`` (and
every backend for a sample).  ``make fuzz`` runs 10,000 per spec.  No input may end in a traceback or a hang; crashes the pipeline's net
turned into INT001 diagnostics are listed (they are frontend bugs, fixed where they occur).
"""

from __future__ import annotations

import json
import os
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from tests.hostile import spec_fuzz

REPO = Path(__file__).resolve().parent.parent.parent
PER_SPEC = int(os.environ.get("CODEGEN_SPEC_FUZZ", "15"))
SEED = int(os.environ.get("CODEGEN_FUZZ_SEED", "17"))


# 70 s: run by make test-long; make fuzz runs the same campaign at 3,000+ per spec.
@pytest.mark.long
def test_mutated_spec_files_never_crash_the_command_line() -> None:
    reports = spec_fuzz.run(
        PER_SPEC,
        seed=int(time.strftime("%j")),
        workers=2,
        timeout=90,
        render_every=5,
        quiet=True,
    )
    summary = {spec: report.to_json() for spec, report in reports.items()}
    out = REPO / "build/fuzz/spec_fuzz_bounded.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    assert {"ahp", "acp", "piglet", "openctx"} <= set(reports)
    for spec, report in reports.items():
        assert report.inputs == PER_SPEC + len(spec_fuzz.SPECIALS), spec
        assert not report.uncaught, (spec, dict(report.uncaught), report.examples)
        assert not report.hangs, (spec, report.hangs)
        assert sum(report.exits.values()) == report.inputs  # every input was judged
        assert set(report.exits) <= {0, 1}, (spec, dict(report.exits))


def test_without_the_net_deep_files_are_diagnostics_not_tracebacks() -> None:
    """With the pipeline's net made to re-raise, the deep-nesting files still end as
    diagnostics: the frontends bound nesting themselves, the net is not what saves them.
    """
    reports = spec_fuzz.run(
        0,
        seed=1,
        workers=2,
        timeout=90,
        only=["ahp", "acp", "piglet", "openctx"],
        render_every=0,
        specials=["deep-248", "deep-2000", "union-992"],
        quiet=True,
        net=False,
    )
    for spec, report in reports.items():
        assert report.inputs == 3, spec
        assert not report.uncaught, (spec, dict(report.uncaught))
        assert set(report.exits) <= {0, 1}, (spec, dict(report.exits))
    # Go cuts chains at the bound, as an error (the TS frontends read 248 deep).
    assert reports["piglet"].exits[1] >= 2, dict(reports["piglet"].exits)
    # Rust cuts them too, but no method reaches `Deep`, so the finding is a warning
    # naming what it would break and the spec still generates (scoped findings).
    assert reports["acp"].exits == {0: 3}, dict(reports["acp"].exits)


def _fake_worker(conn: Connection, *_: object) -> None:
    while True:
        try:
            _spec, _originals, replaced = conn.recv()
        except EOFError:
            return
        text = b"".join(replaced.values())
        if b"HANG" in text:
            time.sleep(60)
        conn.send(
            {"exit": 0, "seconds": 0.0, "int001": []}
            if b"BOOM" not in text
            else {"uncaught": "ValueError at fake", "seconds": 0.0, "int001": []}
        )


def test_the_harness_reports_hangs_and_exceptions() -> None:
    specs = spec_fuzz.load_specs(["openctx"])
    pool = spec_fuzz.Pool(1, specs, 0, target=_fake_worker)
    reports = {"openctx": spec_fuzz.Report("openctx")}
    jobs = [
        (specs[0], {"protocol.md": b"fine"}, "fine"),
        (specs[0], {"protocol.md": b"HANG"}, "hang"),
        (specs[0], {"protocol.md": b"BOOM"}, "boom"),
        (specs[0], {"protocol.md": b"fine again"}, "after"),
    ]
    try:
        pool.run(jobs, timeout=1.0, reports=reports)
    finally:
        pool.close()
    report = reports["openctx"]
    assert report.inputs == 4 and report.hangs == ["hang"]
    assert dict(report.uncaught) == {"ValueError at fake": 1}
    assert report.exits[0] == 2
