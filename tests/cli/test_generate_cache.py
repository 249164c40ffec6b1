"""The generation record (``codegen.cache``): a spec is skipped only when nothing that shapes
its output changed and its output is exactly what the record says; every way the output
or an input can differ makes it run again.  Each accepting test has a rejecting twin.

Runs are in-process (``generate.run``) with a spy on ``drafting.draft_all``, the one place
specs are read and rendered, so "skipped" is observed, not inferred from timing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from codegen import cache
from codegen.cli import drafting
from codegen.cli import generate as generating
from codegen.cli.output import Output
from codegen.writer import TX_DIR

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = ("openctx", "acp")
MODELS = "generated/openctx/python/openctx_protocol/models.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for spec in SPECS:
        shutil.copytree(REPO / "specs" / spec, tmp_path / "specs" / spec)
    return tmp_path


@pytest.fixture
def drafted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The spec ids each run read and rendered, run by run."""
    calls: list[str] = []
    real = drafting.draft_all

    def spy(project: object, dirs: list[Path], base: Path) -> list[drafting.Drafted]:
        calls.extend(d.name for d in dirs)
        return real(project, dirs, base)  # type: ignore[arg-type]

    monkeypatch.setattr(drafting, "draft_all", spy)
    yield calls


def generate(root: Path, *flags: str, **options: object) -> int:
    request = generating.Request(
        cwd=root, check="--check" in flags, **options  # type: ignore[arg-type]
    )
    return generating.run(request, Output(quiet=True))


def test_a_second_run_reads_nothing(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    assert sorted(drafted) == sorted(SPECS)
    drafted.clear()
    assert generate(project) == 0
    assert generate(project, "--check") == 0
    assert drafted == []


def test_without_the_cache_every_spec_is_read(
    project: Path, drafted: list[str]
) -> None:
    assert generate(project) == 0
    drafted.clear()
    assert generate(project, cache=False) == 0
    assert sorted(drafted) == sorted(SPECS)


def test_an_edited_output_file_is_noticed(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    original = (project / MODELS).read_text(encoding="utf-8")
    (project / MODELS).write_text(original + "# edited\n", encoding="utf-8")
    drafted.clear()
    assert generate(project, "--check") == 1
    assert drafted == ["openctx"]  # the other spec is still skipped
    assert generate(project) == 0
    assert (project / MODELS).read_text(encoding="utf-8") == original


def test_a_missing_output_file_is_noticed(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    (project / MODELS).unlink()
    drafted.clear()
    assert generate(project, "--check") == 1
    assert drafted == ["openctx"]
    assert generate(project) == 0
    assert (project / MODELS).is_file()


def test_a_stale_extra_file_is_noticed(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    stale = project / "generated/openctx/python/openctx_protocol/old.py"
    stale.write_text("x = 1\n", encoding="utf-8")
    drafted.clear()
    assert generate(project, "--check") == 1
    assert drafted == ["openctx"]
    assert generate(project) == 0
    assert not stale.exists()


def test_build_output_beside_the_package_is_no_change(
    project: Path, drafted: list[str]
) -> None:
    """The twin of the stale file: what ``pip install .`` leaves is not the generator's."""
    assert generate(project) == 0
    build = project / "generated/openctx/python/build/lib/x.py"
    build.parent.mkdir(parents=True)
    build.write_text("x = 1\n", encoding="utf-8")
    drafted.clear()
    assert generate(project, "--check") == 0
    assert drafted == []


def test_an_edited_source_is_read_again(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    toml = project / "specs/openctx/spec.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('title = "', 'title = "New ', 1),
        encoding="utf-8",
    )
    drafted.clear()
    assert generate(project, "--check") == 1
    assert drafted == ["openctx"]
    assert generate(project) == 0
    drafted.clear()
    assert generate(project, "--check") == 0
    assert drafted == []


def test_a_template_change_invalidates(project: Path, drafted: list[str]) -> None:
    templates = project / "my-templates" / "docs"
    templates.mkdir(parents=True)
    index = templates / "index.md.j2"
    index.write_text("# first {{ 1 }}\n", encoding="utf-8")
    flag = {"templates": project / "my-templates"}
    assert generate(project, **flag) == 0
    drafted.clear()
    assert generate(project, **flag) == 0
    assert drafted == []  # the twin: the same template, nothing read
    index.write_text("# second {{ 2 }}\n", encoding="utf-8")
    assert generate(project, **flag) == 0
    assert sorted(drafted) == sorted(SPECS)
    assert (project / "generated/openctx/docs/index.md").read_text(
        encoding="utf-8"
    ) == "# second 2\n"


def test_the_template_folder_itself_is_an_input(
    project: Path, drafted: list[str]
) -> None:
    assert generate(project) == 0
    drafted.clear()
    (project / "my-templates").mkdir()
    assert generate(project, templates=project / "my-templates") == 0
    assert sorted(drafted) == sorted(SPECS)


def test_a_new_generator_version_invalidates(
    project: Path, drafted: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert generate(project) == 0
    drafted.clear()
    assert generate(project) == 0
    assert drafted == []
    monkeypatch.setattr(cache, "_distribution", lambda: "codegen-99.0.dist-info")
    assert generate(project) == 0
    assert sorted(drafted) == sorted(SPECS)


def test_the_fingerprint_covers_code_templates_and_version(tmp_path: Path) -> None:
    code, templates = tmp_path / "code", tmp_path / "templates"
    code.mkdir()
    templates.mkdir()
    (code / "a.py").write_text("x = 1\n", encoding="utf-8")
    (templates / "t.j2").write_text("{{ x }}\n", encoding="utf-8")
    first = cache._fingerprint(code, templates, "codegen-1", ())
    assert cache._fingerprint(code, templates, "codegen-1", ()) == first
    cache._fingerprint.cache_clear()
    assert cache._fingerprint(code, templates, "codegen-2", ()) != first
    (code / "a.py").write_text("x = 2\n", encoding="utf-8")
    cache._fingerprint.cache_clear()
    assert cache._fingerprint(code, templates, "codegen-1", ()) != first
    (code / "a.py").write_text("x = 1\n", encoding="utf-8")
    (templates / "t.j2").write_text("{{ y }}\n", encoding="utf-8")
    cache._fingerprint.cache_clear()
    assert cache._fingerprint(code, templates, "codegen-1", ()) != first
    (templates / "t.j2").write_text("{{ x }}\n", encoding="utf-8")
    cache._fingerprint.cache_clear()
    assert cache._fingerprint(code, templates, "codegen-1", ()) == first


def test_options_are_part_of_the_key(project: Path, drafted: list[str]) -> None:
    assert generate(project) == 0
    drafted.clear()
    assert generate(project, formatter="none") == 0
    assert sorted(drafted) == sorted(SPECS)
    drafted.clear()
    assert generate(project, formatter="none") == 0
    assert drafted == []


def test_a_spec_edited_during_the_run_leaves_no_record(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys are taken before reading and again after rendering: output rendered from the
    text before an edit is never recorded under the key of the edited text."""
    toml = project / "specs/openctx/spec.toml"
    before = toml.read_text(encoding="utf-8")
    real = drafting.draft_all

    def draft_then_edit(
        project_: object, dirs: list[Path], base: Path
    ) -> list[drafting.Drafted]:
        done = real(project_, dirs, base)  # type: ignore[arg-type]
        toml.write_text(before.replace('title = "', 'title = "Mid ', 1), "utf-8")
        return done

    monkeypatch.setattr(drafting, "draft_all", draft_then_edit)
    assert generate(project) == 0
    monkeypatch.setattr(drafting, "draft_all", real)
    assert generate(project, "--check") == 1  # the output is of the text before: stale
    assert generate(project) == 0
    assert generate(project, "--check") == 0  # the twin: once regenerated, current


def test_an_interrupted_write_bypasses_the_records(project: Path) -> None:
    assert generate(project) == 0
    assert generate(project, "--check") == 0  # the twin: no journal, current
    (project / TX_DIR).mkdir()
    (project / TX_DIR / "journal.json").write_text(
        '{"state": "staging", "units": []}', encoding="utf-8"
    )
    assert generate(project, "--check") == 1  # says: finish the interrupted write
    assert generate(project) == 0
    assert not (project / TX_DIR).exists()


def test_parallel_and_serial_runs_write_the_same_bytes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert drafting.workers(len(SPECS)) >= 1
    monkeypatch.setattr(drafting, "workers", lambda jobs: min(jobs, 2))
    assert generate(project, cache=False, output=project / "parallel") == 0
    monkeypatch.setattr(drafting, "workers", lambda jobs: 1)
    assert generate(project, cache=False, output=project / "serial") == 0
    parallel = _tree(project / "parallel")
    assert parallel and parallel == _tree(project / "serial")
    # The twin: a tree that differs is told apart.
    (project / "serial/acp/schema/acp.schema.json").write_text("{}", encoding="utf-8")
    assert parallel != _tree(project / "serial")


def test_concurrent_runs_with_records(project: Path) -> None:
    """Three processes at once, with the records warm and a spec edited: all succeed,
    the tree is what one run makes, and an edited output is still noticed after."""
    assert _cli(project, "generate").returncode == 0
    toml = project / "specs/openctx/spec.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('title = "', 'title = "Raced ', 1),
        encoding="utf-8",
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "codegen", "generate"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for run in runs:
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0 and "Traceback" not in err, err
    raced = _tree(project / "generated")
    assert _cli(project, "generate", "--check").returncode == 0
    assert _cli(project, "generate", "--no-cache").returncode == 0
    assert _tree(project / "generated") == raced
    (project / MODELS).write_text("# edited\n", encoding="utf-8")
    assert _cli(project, "generate", "--check").returncode == 1


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_output_and_records_inside_the_spec_folder_are_not_inputs(
    tmp_path: Path, drafted: list[str]
) -> None:
    """A spec folder that is the project itself, its output inside it: what a run
    writes there (output, records, compiled templates) never changes the spec's key."""
    shutil.copytree(REPO / "specs" / "openctx", tmp_path / "openctx")
    spec = tmp_path / "openctx"
    (spec / "pyproject.toml").write_text(
        '[tool.codegen]\nspecs = ["."]\noutput = "out"\n', encoding="utf-8"
    )
    assert generate(spec) == 0
    assert (spec / "out" / "openctx").is_dir() and (spec / cache.CACHE_DIR).is_dir()
    drafted.clear()
    assert generate(spec) == 0
    assert drafted == []
    source = spec / "protocol.md"  # the twin: the spec's own text is an input
    source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert generate(spec) == 0
    assert drafted == ["openctx"]
