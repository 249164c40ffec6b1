"""The installed tool in a user's project: init, generate with settings from the user's
pyproject.toml, --check, --watch, serve, validate, vendor and diff, all outside the repo.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import tarfile
import zipfile
from pathlib import Path

from tests.cli.installed import REPO, Installed, Lines

LANGUAGES = {"chat": "typescript", "calc": "rust", "piggy": "go", "notes": "prose"}

PYPROJECT = """\
[project]
name = "myapp"
version = "0.1.0"

[tool.codegen]
specs = ["protocols"]
output = "src/myapp/wire"

[tool.codegen.spec.chat]
package = "chat_v1"
"""


def _project(installed: Installed, scratch: Path) -> Path:
    (scratch / "pyproject.toml").write_text(PYPROJECT)
    for spec, language in LANGUAGES.items():
        made = installed.run(scratch, "init", spec, "--language", language)
        assert made.returncode == 0, made.stderr
        assert f"created protocols/{spec}/spec.toml" in made.stderr
    return scratch


def test_the_wheel_and_the_sdist_carry_the_templates(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    assert "codegen/templates/python/models.py.j2" in names
    assert "codegen/templates/_macros.j2" in names
    assert not any(
        name.startswith(("tests/", "specs/", "generated/")) for name in names
    )
    with tarfile.open(installed.sdist) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert "templates/server/server.py.j2" in members and "pyproject.toml" in members
    # the installed package is the wheel's, not this checkout
    where = subprocess.run(
        [str(installed.python), "-c", "import codegen; print(codegen.__file__)"],
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(installed.env) in where and str(REPO) not in where
    checked = subprocess.run(
        [str(installed.python), "-m", "pip", "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_version_and_python_dash_m(installed: Installed, scratch: Path) -> None:
    version = installed.run(scratch, "--version")
    assert version.returncode == 0 and version.stdout.strip() == "codegen 0.1.0"
    module = subprocess.run(
        [str(installed.python), "-m", "codegen", "-h"],
        cwd=scratch,
        capture_output=True,
        text=True,
        check=False,
        env=installed.environ(),
    )
    assert module.returncode == 0 and "generate" in module.stdout


def test_every_language_generates_into_the_users_folder(
    installed: Installed, scratch: Path
) -> None:
    project = _project(installed, scratch)
    # settings are found from a subfolder upward, as ruff finds [tool.ruff]
    inner = project / "protocols" / "chat"
    generated = installed.run(inner, "generate")
    assert generated.returncode == 0, generated.stderr
    assert "files in src/myapp/wire:" in generated.stderr
    assert "warning" not in generated.stderr and "error" not in generated.stderr
    wire = project / "src/myapp/wire"
    assert sorted(p.name for p in wire.iterdir()) == sorted(LANGUAGES)
    assert (wire / "chat/python/chat_v1/models.py").is_file()  # per-spec package
    assert (wire / "calc/python/calc_protocol/models.py").is_file()
    assert (wire / "chat/python/.gitignore").is_file()
    assert not (project / "generated").exists()
    # each package imports and validates strictly
    script = (
        "import sys, importlib\n"
        "for name in sys.argv[1:]:\n"
        "    m = importlib.import_module(name)\n"
        "    info = m.METHODS['initialize']\n"
        "    info.params.validate_json('{\"protocolVersion\": 1}')\n"
        "    try:\n"
        '        info.params.validate_json(\'{"protocolVersion": "1"}\')\n'
        "    except Exception:\n"
        "        pass\n"
        "    else:\n"
        "        raise SystemExit(name + ' accepted a string version')\n"
        "print('ok')\n"
    )
    packages = {
        "chat": "chat_v1",
        "calc": "calc_protocol",
        "piggy": "piggy_protocol",
        "notes": "notes_protocol",
    }
    path = ":".join(str(wire / spec / "python") for spec in packages)
    ran = subprocess.run(
        [str(installed.python), "-c", script, *packages.values()],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        env=installed.environ(PYTHONPATH=path),
    )
    assert ran.stdout.strip() == "ok", ran.stderr
    assert installed.run(project, "generate", "--check").returncode == 0
    source = project / "protocols/chat/protocol.ts"
    source.write_text(source.read_text().replace("clientName?: string;", ""))
    stale = installed.run(project, "generate", "--check")
    assert stale.returncode == 1 and "run `codegen generate`" in stale.stderr
    assert "src/myapp/wire/chat/python/chat_v1/models.py" in stale.stdout
    # a flag overrides the settings: --output writes elsewhere, the project's stays
    other = installed.run(project, "generate", "chat", "-o", "elsewhere", "-q")
    assert other.returncode == 0 and other.stderr == ""
    assert (project / "elsewhere/chat/python/chat_v1/server.py").is_file()
    assert installed.run(project, "generate", "--check").returncode == 1


def test_watch_regenerates_on_change_and_stops_on_sigterm(
    installed: Installed, scratch: Path
) -> None:
    project = _project(installed, scratch)
    process = subprocess.Popen(
        [str(installed.codegen), "generate", "chat", "--watch"],
        cwd=project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=installed.environ(),
    )
    try:
        lines = Lines(process)
        lines.wait_for("watching")
        models = project / "src/myapp/wire/chat/python/chat_v1/models.py"
        assert "client_name" in models.read_text()
        source = project / "protocols/chat/protocol.ts"
        edited = source.read_text().replace("clientName", "displayName")
        # "watching" is printed just before the watcher starts: write until it sees it.
        for _ in range(60):
            source.write_text(edited)
            if lines.poll_for("changed: protocols/chat/protocol.ts", 1.0):
                break
        else:
            raise AssertionError(f"no change seen:\n{''.join(lines.seen)}")
        lines.wait_for("updated")
        assert "display_name" in models.read_text()
        lines.wait_for("watching")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_validate_vendor_and_diff(installed: Installed, scratch: Path) -> None:
    project = _project(installed, scratch)
    assert installed.run(project, "generate", "-q").returncode == 0
    transcript = project / "traffic.jsonl"
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": 1},
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "initialize",
            "params": {"protocolVersion": "x"},
        },
    ]
    served = installed.run(
        project,
        "serve",
        "chat",
        "--transport",
        "stdio",
        "--fail",
        "initialize=-32001",
        "--transcript",
        str(transcript),
        "-q",
        stdin="".join(json.dumps(r) + "\n" for r in requests),
    )
    assert served.returncode == 0, served.stderr
    answers = [json.loads(line) for line in served.stdout.splitlines()]
    assert answers[0]["error"] == {"code": -32001, "message": "UnsupportedVersion"}
    validated = installed.run(project, "validate", "chat", str(transcript))
    assert validated.returncode == 1
    (problem,) = validated.stdout.splitlines()
    assert re.match(
        rf"{re.escape(str(transcript))}:\d: /params/protocolVersion:", problem
    )
    assert "protocols/chat/protocol.ts:" in problem
    assert "4 message(s), 1 invalid" in validated.stderr

    vendored = installed.run(
        project, "vendor", "calc", "vendor", "--package", "calc_v2"
    )
    assert vendored.returncode == 0, vendored.stderr
    intact = installed.run(project, "vendor", "--check", "vendor/calc_v2")
    assert intact.returncode == 0 and "intact and current" in intact.stdout

    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "protocols"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "specs"], cwd=project, check=True)
    same = installed.run(project, "diff", "HEAD:piggy", "piggy")
    assert same.returncode == 0, same.stderr
    source = project / "protocols/piggy/protocol.go"
    source.write_text(
        source.read_text().replace(
            '`json:"clientName,omitempty"`', '`json:"clientName"`'
        )
    )
    # Dropping omitempty only makes the key always written; a missing key reads as ""
    # before and after (encoding/json's zero value): a compatible change.
    changed = installed.run(
        project, "diff", "HEAD:piggy", "piggy", "--fail-on", "compatible"
    )
    assert changed.returncode == 1, changed.stdout + changed.stderr
    assert "compatible (1)" in changed.stdout
    assert "InitializeParams.clientName" in changed.stdout
    assert "HEAD:protocols/piggy/protocol.go:" in changed.stdout
