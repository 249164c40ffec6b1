"""The generation cache keys a spec by the files its run reads (issue 33, item 5), not by
every file of its folder: a large unrelated file there is never opened and changing it
keeps the key; changing a source, a file an include names, spec.toml or an example
changes it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen import cache
from codegen.frontends.prose import includes as prose_includes
from codegen.frontends.typescript import includes as ts_includes
from codegen.spec import include_syntax


def _options(root: Path) -> cache.Options:
    return cache.Options(root, root / "generated", "ruff", False, None, None, None)


@pytest.fixture()
def spec(tmp_path: Path) -> Path:
    root = tmp_path
    folder = root / "specs" / "demo"
    (folder / "examples" / "methods").mkdir(parents=True)
    (folder / "spec.toml").write_text(
        '[spec]\nid = "demo"\nlanguage = "typescript"\nsources = ["schema.ts"]\n'
    )
    (folder / "schema.ts").write_text(
        "/** {@includeCode ./payload.json} */\nexport interface A { a: string }\n"
    )
    (folder / "payload.json").write_text('{"a": "x"}\n')
    (folder / "examples" / "methods" / "a.json").write_text("[]\n")
    with (folder / "dump.bin").open("wb") as big:  # 2 GB, sparse: costly to hash
        big.truncate(2 * 1024**3)
    (folder / "notes.txt").write_text("unrelated\n")
    return folder


def _key(spec: Path) -> str:
    return cache.spec_key(spec, _options(spec.parents[1]))


def test_the_inputs_are_what_the_spec_reads(spec: Path) -> None:
    inputs = [path for path, _ in cache.spec_inputs(spec, spec.parents[1])]
    names = sorted(path.relative_to(spec).as_posix() for path in inputs)
    assert names == [
        "examples/methods/a.json",
        "payload.json",
        "schema.ts",
        "spec.toml",
    ]


def test_a_large_unrelated_file_is_never_opened(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = os.open

    def recording_open(path: object, *args: object, **kwargs: object) -> int:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", recording_open)
    _key(spec)
    assert not any(name.endswith(("dump.bin", "notes.txt")) for name in opened)
    assert any(name.endswith("schema.ts") for name in opened)  # the twin: sources are


def test_changing_an_unrelated_file_keeps_the_key(spec: Path) -> None:
    before = _key(spec)
    (spec / "notes.txt").write_text("edited\n")
    with (spec / "dump.bin").open("r+b") as big:
        big.write(b"changed")
    (spec / "new.txt").write_text("a new unrelated file\n")
    assert _key(spec) == before


@pytest.mark.parametrize(
    "edited",
    ["payload.json", "schema.ts", "spec.toml", "examples/methods/a.json"],
)
def test_changing_a_file_the_spec_reads_changes_the_key(
    spec: Path, edited: str
) -> None:
    before = _key(spec)
    with (spec / edited).open("a") as stream:
        stream.write("\n")
    assert _key(spec) != before


def test_a_new_example_changes_the_key(spec: Path) -> None:
    before = _key(spec)
    (spec / "examples" / "types").mkdir()
    (spec / "examples" / "types" / "b.json").write_text("[]\n")
    assert _key(spec) != before


def test_prose_includes_are_followed_where_the_frontend_looks(tmp_path: Path) -> None:
    root = tmp_path
    folder = root / "specs" / "doc"
    folder.mkdir(parents=True)
    (root / "specs" / "_includes").mkdir()
    (folder / "spec.toml").write_text(
        '[spec]\nid = "doc"\nlanguage = "prose"\nsources = ["page.md"]\n'
    )
    (folder / "page.md").write_text("# Page\n{% include note.md %}\n")
    note = root / "specs" / "_includes" / "note.md"
    note.write_text("a note {% include deeper.md %}\n")
    (root / "specs" / "_includes" / "deeper.md").write_text("deeper\n")
    key = lambda: cache.spec_key(folder, _options(root))
    before = key()
    note.write_text("an edited note {% include deeper.md %}\n")
    edited = key()
    assert edited != before  # an included page is read
    (root / "specs" / "_includes" / "deeper.md").write_text("edited\n")
    assert key() != edited  # transitively
    deeper = key()
    (folder / "note.md").write_text("now beside the page\n")  # found first, now
    assert key() != deeper


def test_keying_a_spec_imports_no_frontend(tmp_path: Path) -> None:
    # The include patterns live in codegen.spec.include_syntax so that the cache (a no-op
    # run) knows them without importing a frontend; the frontends use the same objects.
    assert ts_includes.TS_INCLUDE is include_syntax.TS_INCLUDE
    assert prose_includes._INCLUDE is include_syntax.PROSE_INCLUDE
    probe = (
        "import sys; from pathlib import Path; from codegen import cache; "
        "cache.spec_inputs(Path(sys.argv[1]), Path(sys.argv[1]).parent); "
        "print(sorted(m for m in sys.modules if m.startswith('codegen.frontends')))"
    )
    spec = tmp_path / "specs" / "x"
    spec.mkdir(parents=True)
    (spec / "spec.toml").write_text('[spec]\nsources = ["a.md"]\n')
    (spec / "a.md").write_text("{% include b.md %}\n")
    run = subprocess.run(
        [sys.executable, "-c", probe, str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
    # The twin: importing a frontend shows in the same probe.
    twin = probe.replace(
        "from codegen import cache;",
        "from codegen import cache; import codegen.frontends.prose;",
    )
    shown = subprocess.run(
        [sys.executable, "-c", twin, str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "codegen.frontends.prose" in shown.stdout
