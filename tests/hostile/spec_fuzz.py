"""Byte-level fuzz of spec files through the command line's path: mutated bytes on disk,
read by ``codegen check`` (and, for a sample of inputs that still load cleanly, rendered by
every backend, as ``codegen generate`` would).

Usage: ``python -m tests.hostile.spec_fuzz --per-spec 10000`` (``make fuzz``); the bounded
``tests/hostile/test_spec_fuzz.py`` runs a few dozen inputs per spec.

Each input is one spec directory (a copy per worker process) with its sources, and now and
then its spec.toml, replaced by mutated bytes: truncation, bit flips, inserted ``\\xff``,
NUL bytes, byte order marks (UTF-8 and UTF-16), deletions, duplications, splices, language
tokens; 15 % of the inputs mutate whole files, the rest a window of up to 200 lines (small
inputs cover the same code faster).  One in ``SPECIAL_EVERY`` is a pathological file of the
spec's language: nesting hundreds deep (``Array<`` 248 deep, Rust ``Vec<`` 497 deep, Go
``[]``/``map[`` chains), a TypeScript union of 992 string literals, a 1 MB comment, 10,000
syntax errors; each of those also runs once per spec on its own.

Outcomes per spec: uncaught exceptions (a traceback the user would see: the CLI's own
exception, or a backend's), hangs (no answer within ``--timeout`` seconds: the worker is
killed and replaced), INT001 diagnostics (crashes the pipeline's net turned into
diagnostics: each is a frontend bug, reported with its innermost frame), slow inputs, and
the exit codes.  Written to ``build/fuzz/spec_fuzz.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent.parent
SPECIAL_EVERY = 250
WINDOW_SHARE = 0.85
TOML_SHARE = 0.05
SLOW_SECONDS = 5.0

TOKENS: dict[str, list[bytes]] = {
    "typescript": [
        b"{",
        b"}",
        b"<",
        b">",
        b"(",
        b")",
        b"[",
        b"]",
        b"|",
        b"&",
        b";",
        b"?:",
        b"/**",
        b"*/",
        b"//",
        b"`",
        b'"',
        b"'",
        b"export interface X {",
        b"extends ",
        b"export type T = ",
        b"export const enum E {",
        b" = 1 << 3",
        b"@method ",
        b"@direction ",
        b"@example\n```jsonc\n",
        b"```",
        b"Record<string, ",
        b"keyof typeof ",
        b"import type { A } from './a.js';\n",
        b"\\u{1F600}",
    ],
    "rust": [
        b"{",
        b"}",
        b"<",
        b">",
        b"(",
        b")",
        b"[",
        b"]",
        b"#[serde(",
        b"rename_all = ",
        b'tag = "type"',
        b"untagged",
        b"flatten",
        b"pub struct X {",
        b"pub enum E {",
        b"Option<",
        b"Vec<",
        b"HashMap<String, ",
        b"///",
        b"/*",
        b"*/",
        b'r#"',
        b"acp_peer!(",
        b"impl ",
        b"'a",
        b"::",
        b"=>",
        b"#[derive(Serialize)]\n",
    ],
    "go": [
        b"{",
        b"}",
        b"[]",
        b"map[",
        b"*",
        b"`",
        b'json:"',
        b",omitempty",
        b"yaml:",
        b"type X struct {\n",
        b"const (\n",
        b")\n",
        b"}\n",
        b"iota",
        b" << ",
        b"interface{",
        b"chan ",
        b"func ",
        b"added in v",
        b"// ",
        b"Method",
        b"json.RawMessage",
        b"any",
    ],
    "prose": [
        b"```ts\n",
        b"```\n",
        b"# ",
        b"## ",
        b'Request: { method: "',
        b"Response: { ",
        b"result: ",
        b"params: ",
        b"interface X {",
        b"}",
        b"type T = ",
        b" | ",
        b"`",
        b"<",
        b">",
        b"[",
        b"](",
        b"\n\n",
    ],
}


# ------------------------------------------------------------------------- mutations


def _deep(language: str, depth: int) -> bytes:
    if language == "typescript":
        body = "Array<" * depth + "string" + ">" * depth
        return f"\nexport type Deep = {body};\n".encode()
    if language == "rust":
        body = "Vec<" * depth + "String" + ">" * depth
        return (
            "\n#[derive(Debug, Clone, Serialize, Deserialize)]\n"
            f"pub struct Deep {{ pub x: {body} }}\n"
        ).encode()
    if language == "go":
        chain = "[]map[string]" * (depth // 2)
        return f'\ntype Deep struct {{\n\tX {chain}string `json:"x"`\n}}\n'.encode()
    body = "Array<" * depth + "string" + ">" * depth
    return f"\n\n```ts\ninterface Deep {{ x: {body} }}\n```\n\n".encode()


def _union(language: str, size: int) -> bytes:
    if language == "rust":
        variants = ",\n".join(
            f'    #[serde(rename = "v{i}")]\n    V{i}' for i in range(size)
        )
        return (
            "\n#[derive(Debug, Clone, Serialize, Deserialize)]\n"
            f"pub enum Big {{\n{variants}\n}}\n"
        ).encode()
    if language == "go":
        values = "\n".join(f'\tBigV{i} Big = "v{i}"' for i in range(size))
        return f"\ntype Big string\n\nconst (\n{values}\n)\n".encode()
    union = " | ".join(f'"v{i}"' for i in range(size))
    if language == "prose":
        return f"\n\n```ts\ntype Big = {union};\n```\n\n".encode()
    return f"\nexport type Big = {union};\n".encode()


def _comment(language: str, size: int) -> bytes:
    text = ("lorem ipsum " * (size // 12 + 1))[:size]
    if language == "typescript":
        return (
            f"\n/** {text} */\nexport interface AfterComment {{ x: string }}\n".encode()
        )
    if language == "rust":
        return (
            f"\n/// {text}\n#[derive(Debug, Clone, Serialize, Deserialize)]\n"
            "pub struct AfterComment { pub x: String }\n"
        ).encode()
    if language == "go":
        return f"\n// {text}\ntype AfterComment struct {{\n\tX string\n}}\n".encode()
    return f"\n\n{text}\n\n".encode()


def _errors(language: str, count: int) -> bytes:
    line = {
        "typescript": "export interface Bad{i} {{ x: ;; }} @@ {i}\n",
        "rust": "pub struct Bad{i} {{ x: , }} ## {i}\n",
        "go": "type Bad{i} struct {{ X , }} %% {i}\n",
        "prose": "```ts\ninterface Bad{i} {{ x: ;; }}\n```\n",
    }[language]
    return "".join(line.format(i=i) for i in range(count)).encode()


def _brackets(_language: str, depth: int) -> bytes:
    return b"\n" + b"({[" * depth + b"\n"


SPECIALS: dict[str, Callable[[str], bytes]] = {
    "deep-248": lambda lang: _deep(lang, 248),
    "deep-497": lambda lang: _deep(lang, 497),
    "deep-2000": lambda lang: _deep(lang, 2000),
    "union-992": lambda lang: _union(lang, 992),
    "comment-1mb": lambda lang: _comment(lang, 1_000_000),
    "syntax-errors-10000": lambda lang: _errors(lang, 10_000),
    "brackets-5000": lambda lang: _brackets(lang, 5000),
}


def mutate(data: bytes, language: str, rng: random.Random) -> tuple[bytes, str]:
    """A few random byte-level edits of ``data``; returns the bytes and their names."""
    names: list[str] = []
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(
            [
                "truncate",
                "bitflip",
                "xff",
                "nul",
                "bom-utf8",
                "bom-utf16",
                "utf16",
                "delete",
                "duplicate",
                "splice",
                "random",
                "token",
                "token",
                "token",
            ]
        )
        names.append(kind)
        position = rng.randint(0, len(out))
        if kind == "truncate":
            del out[position:]
        elif kind == "bitflip" and out:
            for _ in range(rng.randint(1, 8)):
                spot = rng.randrange(len(out))
                out[spot] ^= 1 << rng.randrange(8)
        elif kind == "xff":
            out[position:position] = b"\xff" * rng.randint(1, 3)
        elif kind == "nul":
            out[position:position] = b"\x00" * rng.randint(1, 4)
        elif kind == "bom-utf8":
            out[0:0] = b"\xef\xbb\xbf"
        elif kind == "bom-utf16":
            out[0:0] = b"\xff\xfe"
        elif kind == "utf16":
            out = bytearray(
                b"\xff\xfe" + bytes(out).decode("utf-8", "replace").encode("utf-16-le")
            )
        elif kind == "delete":
            del out[position : position + rng.randint(1, 400)]
        elif kind == "duplicate":
            out[position:position] = out[position : position + rng.randint(1, 400)]
        elif kind == "splice" and out:
            start = rng.randrange(len(out))
            out[position:position] = out[start : start + rng.randint(1, 200)]
        elif kind == "random":
            out[position:position] = bytes(
                rng.randrange(256) for _ in range(rng.randint(1, 16))
            )
        else:
            out[position:position] = rng.choice(TOKENS[language])
    return bytes(out), "+".join(names)


def window(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    size = rng.randint(5, max(5, min(200, len(lines) // 4)))
    start = rng.randint(0, max(0, len(lines) - size))
    return b"\n".join(lines[start : start + size])


# --------------------------------------------------------------------------- specs


@dataclass
class Spec:
    id: str
    language: str
    sources: list[str]  # relative to the spec dir
    files: dict[str, bytes]  # every file of the spec dir the fuzz may replace


def load_specs(only: list[str] | None = None) -> list[Spec]:
    import tomllib

    out: list[Spec] = []
    for toml in sorted((REPO / "specs").glob("*/spec.toml")):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        spec_id = toml.parent.name
        if only and spec_id not in only:
            continue
        sources = [str(s) for s in data["spec"]["sources"]]
        files = {
            rel: (toml.parent / rel).read_bytes() for rel in [*sources, "spec.toml"]
        }
        out.append(Spec(spec_id, str(data["spec"]["language"]), sources, files))
    return out


def make_input(
    spec: Spec, rng: random.Random, number: int
) -> tuple[dict[str, bytes], str]:
    """The replaced files of one input, and what was done to them."""
    if number % SPECIAL_EVERY == SPECIAL_EVERY - 1:
        name = rng.choice(sorted(SPECIALS))
        return special_input(spec, name, rng), f"special:{name}"
    if rng.random() < TOML_SHARE:
        data, how = mutate(spec.files["spec.toml"], "rust", rng)
        return {"spec.toml": data}, f"spec.toml:{how}"
    target = rng.choice(spec.sources)
    base = spec.files[target]
    shape = "whole"
    replaced: dict[str, bytes] = {}
    if rng.random() < WINDOW_SHARE:
        base, shape = window(base, rng), "window"
        for other in spec.sources:  # small inputs: the other sources go too
            if other != target:
                replaced[other] = b""
    data, how = mutate(base, spec.language, rng)
    replaced[target] = data
    return replaced, f"{target}:{shape}:{how}"


def special_input(spec: Spec, name: str, rng: random.Random) -> dict[str, bytes]:
    target = rng.choice(spec.sources)
    return {target: spec.files[target] + SPECIALS[name](spec.language)}


# -------------------------------------------------------------------------- workers


def _innermost(tb: Any) -> str:
    frames = traceback.extract_tb(tb)
    mine = [f for f in frames if "/codegen/" in f.filename.replace(os.sep, "/")]
    frame = (mine or frames)[-1]
    rel = frame.filename.replace(os.sep, "/").split("/codegen/", 1)[-1]
    return f"codegen/{rel}:{frame.lineno} in {frame.name}"


def _worker(conn: Connection, root: Path, render_every: int, net: bool = True) -> None:
    """Serve inputs until the parent closes the pipe: write them, run the CLI's check
    command in this process, report what happened.  ``net=False``: the pipeline's
    safety net re-raises (to show what it catches)."""
    import typer.testing
    from typer.main import get_command

    from codegen import pipeline
    from codegen.cli.commands import app

    os.chdir(root)
    runner = typer.testing.CliRunner()
    # typer rebuilds its click command on every CliRunner.invoke (a third of the time of
    # an input); the command line is the same each time, so build it once.
    command = get_command(app)
    setattr(typer.testing, "_get_command", lambda _app: command)  # noqa: B010
    caught: list[str] = []
    original_net = getattr(pipeline, "report_internal_error")  # noqa: B009

    def recording_net(diags: Any, error: Exception, doing: str, fallback: Any) -> None:
        depth = len(traceback.extract_tb(error.__traceback__))
        caught.append(
            f"{type(error).__name__} at {_innermost(error.__traceback__)} (stack {depth})"
        )
        if not net:
            raise error
        original_net(diags, error, doing, fallback)

    setattr(pipeline, "report_internal_error", recording_net)  # noqa: B010
    # The fuzz never mutates the samples in examples/: read them once per worker.
    cache: dict[Path, Any] = {}
    original_samples = getattr(pipeline, "load_samples")  # noqa: B009

    def cached_samples(folder: Path, repo_root: Path, diags: Any) -> Any:
        if folder not in cache:
            cache[folder] = original_samples(folder, repo_root, diags)
        return cache[folder]

    setattr(pipeline, "load_samples", cached_samples)  # noqa: B010
    rendered = 0
    dirty: dict[Path, bytes] = {}  # files the last input replaced: path → original
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        spec_id, originals, replaced = job
        spec_dir = root / "specs" / spec_id
        for path, data in dirty.items():
            path.write_bytes(data)
        dirty = {spec_dir / rel: originals[rel] for rel in replaced}
        for rel, data in replaced.items():
            (spec_dir / rel).write_bytes(data)
        caught.clear()
        started = time.perf_counter()
        outcome: dict[str, Any] = {}
        try:
            result = runner.invoke(app, ["check", str(spec_dir)], catch_exceptions=True)
            outcome["exit"] = result.exit_code
            error = result.exception
            if error is not None and not isinstance(error, SystemExit):
                assert result.exc_info is not None
                outcome["uncaught"] = (
                    f"{type(error).__name__} at {_innermost(result.exc_info[2])}"
                )
            elif "Traceback" in result.output:
                outcome["uncaught"] = "a traceback in the output"
            if result.exit_code == 0 and render_every and "uncaught" not in outcome:
                rendered += 1
                if rendered % render_every == 0:
                    outcome["rendered"] = True
                    loaded = pipeline.load_protocol(spec_dir, root)
                    if loaded.protocol is not None and loaded.config is not None:
                        try:
                            pipeline.render_protocol(loaded.protocol, loaded.config)
                        except Exception as exc:  # noqa: BLE001 - what the fuzz finds
                            outcome["uncaught"] = (
                                f"backend {type(exc).__name__} at {_innermost(exc.__traceback__)}"
                            )
        except BaseException as exc:  # noqa: BLE001 - the harness must report, not die
            outcome["uncaught"] = f"harness {type(exc).__name__}: {exc}"
        outcome["seconds"] = time.perf_counter() - started
        outcome["int001"] = list(caught)
        conn.send(outcome)


@dataclass
class Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    root: Path
    job: Any = None
    started: float = 0.0


@dataclass
class Report:
    spec: str
    inputs: int = 0
    uncaught: Counter[str] = field(default_factory=Counter)
    hangs: list[str] = field(default_factory=list)
    int001: Counter[str] = field(default_factory=Counter)
    exits: Counter[int] = field(default_factory=Counter)
    slow: int = 0
    max_seconds: float = 0.0
    rendered: int = 0
    examples: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "uncaught_exceptions": sum(self.uncaught.values()),
            "hangs": len(self.hangs),
            "int001_caught_by_the_net": sum(self.int001.values()),
            "slow_inputs": self.slow,
            "max_seconds": round(self.max_seconds, 2),
            "rendered_by_the_backends": self.rendered,
            "exit_codes": {str(k): v for k, v in sorted(self.exits.items())},
            "uncaught_by_site": dict(self.uncaught.most_common()),
            "int001_by_site": dict(self.int001.most_common()),
            "hang_inputs": self.hangs[:20],
            "an_input_per_finding": self.examples,
        }


class Pool:
    def __init__(
        self,
        size: int,
        specs: list[Spec],
        render_every: int,
        net: bool = True,
        target: Callable[..., None] = _worker,
    ) -> None:
        self.specs = specs
        self.render_every = render_every
        self.net = net
        self.target = target
        self.base = Path(tempfile.mkdtemp(prefix="codegen-fuzz-"))
        self.context = multiprocessing.get_context("fork")
        self.workers = [self._start(n) for n in range(size)]

    def _start(self, number: int) -> Worker:
        root = self.base / f"w{number}-{time.monotonic_ns()}"
        (root / "specs").mkdir(parents=True)
        shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
        for spec in self.specs:
            shutil.copytree(REPO / "specs" / spec.id, root / "specs" / spec.id)
        parent, child = self.context.Pipe()
        process = self.context.Process(
            target=self.target,
            args=(child, root, self.render_every, self.net),
            daemon=True,
        )
        process.start()
        child.close()
        return Worker(process, parent, root)

    def close(self) -> None:
        for worker in self.workers:
            worker.conn.close()
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
        shutil.rmtree(self.base, ignore_errors=True)

    def run(
        self,
        jobs: list[tuple[Spec, dict[str, bytes], str]],
        timeout: float,
        reports: dict[str, Report],
        progress: Callable[[int], None] | None = None,
    ) -> None:
        pending = list(reversed(jobs))
        done = 0
        while pending or any(w.job is not None for w in self.workers):
            for worker in self.workers:
                if worker.job is None and pending:
                    spec, replaced, how = pending.pop()
                    worker.job = (spec, how, replaced)
                    worker.started = time.monotonic()
                    worker.conn.send((spec.id, spec.files, replaced))
            busy = [w for w in self.workers if w.job is not None]
            ready = wait([w.conn for w in busy], timeout=0.5)
            now = time.monotonic()
            for index, worker in enumerate(self.workers):
                if worker.job is None:
                    continue
                spec, how, replaced = worker.job
                report = reports[spec.id]
                if worker.conn in ready:
                    try:
                        outcome = worker.conn.recv()
                    except (EOFError, OSError):  # the worker died (a crash in C code)
                        outcome = {"uncaught": "worker process died", "seconds": 0.0}
                        self.workers[index] = self._restart(worker)
                    self._record(report, outcome, how, replaced)
                elif now - worker.started > timeout:
                    report.inputs += 1
                    report.hangs.append(how)
                    self._save(report, "hang", how, replaced)
                    self.workers[index] = self._restart(worker)
                else:
                    continue
                self.workers[index].job = None
                done += 1
                if progress is not None:
                    progress(done)

    def _restart(self, worker: Worker) -> Worker:
        worker.process.kill()
        worker.process.join(5)
        worker.conn.close()
        shutil.rmtree(worker.root, ignore_errors=True)
        return self._start(self.workers.index(worker))

    def _record(
        self,
        report: Report,
        outcome: dict[str, Any],
        how: str,
        replaced: dict[str, bytes],
    ) -> None:
        report.inputs += 1
        seconds = float(outcome.get("seconds", 0.0))
        report.max_seconds = max(report.max_seconds, seconds)
        if seconds > SLOW_SECONDS:
            report.slow += 1
            self._save(report, f"slow ({seconds:.0f} s): {how}", how, replaced)
        report.rendered += bool(outcome.get("rendered"))
        if "exit" in outcome:
            report.exits[int(outcome["exit"])] += 1
        if "uncaught" in outcome:
            report.uncaught[outcome["uncaught"]] += 1
            self._save(report, outcome["uncaught"], how, replaced)
        for site in outcome.get("int001", []):
            report.int001[site] += 1
            self._save(report, site, how, replaced)

    def _save(
        self, report: Report, finding: str, how: str, replaced: dict[str, bytes]
    ) -> None:
        """Keep one input per finding under build/fuzz/inputs/ to reproduce it."""
        if finding in report.examples:
            return
        folder = (
            REPO / "build/fuzz/inputs" / report.spec / f"{len(report.examples):03d}"
        )
        folder.mkdir(parents=True, exist_ok=True)
        for rel, data in replaced.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)  # src/lib.rs
            (folder / rel).write_bytes(data)
        (folder / "what.txt").write_text(f"{finding}\n{how}\n", encoding="utf-8")
        report.examples[finding] = str(folder.relative_to(REPO))


def run(
    per_spec: int,
    seed: int,
    workers: int,
    timeout: float,
    only: list[str] | None = None,
    render_every: int = 10,
    specials: bool | list[str] = True,
    quiet: bool = False,
    net: bool = True,
) -> dict[str, Report]:
    specs = load_specs(only)
    rng = random.Random(seed)
    jobs: list[tuple[Spec, dict[str, bytes], str]] = []
    for spec in specs:
        if specials:  # each pathological file once per spec, on its own
            names = sorted(SPECIALS) if specials is True else specials
            for name in names:
                jobs.append((spec, special_input(spec, name, rng), f"special:{name}"))
        for number in range(per_spec):
            replaced, how = make_input(spec, rng, number)
            jobs.append((spec, replaced, how))
    rng.shuffle(jobs)  # specs interleaved: slow ones do not bunch up at the end
    reports = {spec.id: Report(spec.id) for spec in specs}
    pool = Pool(workers, specs, render_every, net)
    started = time.monotonic()

    def progress(done: int) -> None:
        if not quiet and done % 1000 == 0:
            print(
                f"  {done}/{len(jobs)} inputs, {time.monotonic() - started:.0f} s",
                flush=True,
            )

    try:
        pool.run(jobs, timeout, reports, progress)
    finally:
        pool.close()
    return reports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-spec", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per input")
    parser.add_argument(
        "--render-every",
        type=int,
        default=10,
        help="render every Nth input that loads cleanly through every backend",
    )
    parser.add_argument("--spec", action="append", help="only these specs")
    parser.add_argument(
        "--no-specials", action="store_true", help="skip the one-off pathological files"
    )
    options = parser.parse_args()
    started = time.monotonic()
    reports = run(
        options.per_spec,
        options.seed,
        options.workers,
        options.timeout,
        options.spec,
        options.render_every,
        specials=not options.no_specials,
    )
    elapsed = time.monotonic() - started
    summary = {
        "seconds": round(elapsed, 1),
        "per_spec": options.per_spec,
        "seed": options.seed,
        "workers": options.workers,
        "specs": {spec: report.to_json() for spec, report in reports.items()},
    }
    out = REPO / "build/fuzz/spec_fuzz.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        f"\n{'spec':<10} {'inputs':>7} {'uncaught':>9} {'hangs':>6} {'INT001':>7} {'slow':>5} {'max s':>6}"
    )
    for spec, report in reports.items():
        data = report.to_json()
        print(
            f"{spec:<10} {data['inputs']:>7} {data['uncaught_exceptions']:>9} "
            f"{data['hangs']:>6} {data['int001_caught_by_the_net']:>7} "
            f"{data['slow_inputs']:>5} {data['max_seconds']:>6}"
        )
        for site, count in data["int001_by_site"].items():
            print(f"    INT001 ×{count}: {site}")
        for site, count in data["uncaught_by_site"].items():
            print(f"    UNCAUGHT ×{count}: {site}")
    print(f"{elapsed:.0f} s; details in {out.relative_to(REPO)}")
    failed = any(r.uncaught or r.hangs for r in reports.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
