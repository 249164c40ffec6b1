"""One oracle campaign over one spec: cases → the source language → our side → verdicts.

Phase: verification (``make oracle``; a bounded slice in ``tests/oracle``).
Inputs: a spec id, the repository root, ``Options`` (budget per type, draws, ``failed``:
re-run only the cases of the last run's ``<spec>-failures.jsonl``).
Outputs: a ``SpecReport`` (written to ``build/oracle/`` by ``write_report``).
Guarantees: the oracle is chosen by the spec's language (``ORACLES``); the types tested are
those the source declares, the bindings export and our schema defines, and every source
type left out is listed with the reason; a missing toolchain or a failed oracle build is an
error of the spec (``SpecReport.error``), never a pass.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from codegen.oracles import ORACLES
from codegen.oracles.case import Case, Oracle, OracleUnavailable
from codegen.oracles.cases import build_cases
from codegen.oracles.divergences import Divergences, Rule
from codegen.oracles.ours import Ours
from codegen.oracles.report import SpecReport
from codegen.oracles.subject import Subject, SubjectError, load_subject
from codegen.oracles.verdict import classify

BUILD_DIR = Path("build/oracle")


@dataclass(frozen=True)
class Options:
    per_type: int = 300
    draws: int = 12
    official_draws: int = 8
    failed: bool = False
    types: tuple[str, ...] = ()  # only these types (all when empty)


def make_oracle(subject: Subject, build_dir: Path) -> Oracle:
    module_name = ORACLES.get(subject.language)
    if module_name is None:
        raise OracleUnavailable(f"no oracle for language {subject.language!r}")
    module = importlib.import_module(module_name)
    oracle: Oracle = module.make_oracle(subject, build_dir)
    return oracle


def run_spec(
    spec: str,
    repo: Path,
    divergences: Divergences,
    options: Options = Options(),
    open_findings: Sequence[Rule] = (),
) -> SpecReport:
    started = time.monotonic()
    report = SpecReport(spec, "?")
    try:
        subject = load_subject(spec, repo)
        report.language = subject.language
        report.official = subject.official[0] if subject.official else None
        oracle = make_oracle(subject, repo / BUILD_DIR / spec)
        narrow = getattr(oracle, "narrow", None)
        if options.types and narrow is not None:
            # only the asked types in the oracle's table: a smaller program to build
            narrow(set(options.types))
        ours = Ours(subject)
        names = oracle.type_names()
        report.skipped = dict(getattr(oracle, "skipped", {}))
        for name in sorted(names):
            if not ours.has_type(name):
                report.skipped[name] = "no binding or schema definition of this name"
        report.targets = sorted(
            n
            for n in names
            if ours.has_type(n) and (not options.types or n in options.types)
        )
        if options.failed:
            cases = _failed_cases(
                repo / BUILD_DIR / f"{spec}-failures.jsonl", set(report.targets)
            )
        else:
            cases = build_cases(
                subject,
                report.targets,
                per_type=options.per_type,
                draws=options.draws,
                official_draws=options.official_draws,
            )
        answers = oracle.judge(cases)
        for case, answer in zip(cases, answers, strict=True):
            report.outcomes.append(
                classify(
                    case,
                    answer,
                    ours.judge(case),
                    language=subject.language,
                    compares=oracle.compares,
                    divergences=divergences,
                    rejudge=ours.judge,
                    open_findings=open_findings,
                )
            )
        # The normalizations the oracle itself applied (the TypeScript checker's reading).
        for name, count in getattr(oracle, "used", {}).items():
            divergences.used[name] += count
    except (OracleUnavailable, SubjectError) as exc:
        report.error = str(exc)
    report.seconds = time.monotonic() - started
    return report


def _failed_cases(path: Path, targets: set[str]) -> list[Case]:
    if not path.is_file():
        return []
    out: list[Case] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data["type"] in targets:
            out.append(
                Case(
                    data["spec"],
                    data["type"],
                    data["json"],
                    data["origin"],
                    data["kind"],
                    data["mutation"],
                )
            )
    return out
