"""[tool.codegen] settings: found upward, validated, overridden by flags; spec names resolved
with the known ids and a suggestion."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codegen.project import Project, ProjectError, find_pyproject, load_project

REPO = Path(__file__).resolve().parent.parent.parent


def _spec(folder: Path, name: str, source: str = "ahp") -> Path:
    shutil.copytree(REPO / "specs" / source, folder / name)
    return folder / name


def _pyproject(root: Path, body: str) -> Path:
    path = root / "pyproject.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_this_repository_configures_itself_the_same_way() -> None:
    project = load_project(REPO / "codegen" / "cli")
    assert project.pyproject == REPO / "pyproject.toml"
    assert project.spec_folders == (REPO / "specs",)
    assert project.output == REPO / "generated"
    assert "ahp" in project.discover()


def test_settings_are_found_from_a_subfolder_upward(tmp_path: Path) -> None:
    _pyproject(tmp_path, '[tool.codegen]\nspecs = ["protocols"]\noutput = "out"\n')
    # a nearer pyproject.toml without [tool.codegen] does not count (as with ruff)
    inner = tmp_path / "pkg" / "deep"
    inner.mkdir(parents=True)
    _pyproject(tmp_path / "pkg", '[project]\nname = "x"\n')
    assert find_pyproject(inner) == tmp_path / "pyproject.toml"
    project = load_project(inner)
    assert project.root == tmp_path.resolve()
    assert project.spec_folders == (tmp_path.resolve() / "protocols",)
    assert project.output == tmp_path.resolve() / "out"


def test_without_settings_the_current_folder_is_the_project(tmp_path: Path) -> None:
    project = load_project(tmp_path)
    assert project.pyproject is None and project.root == tmp_path.resolve()
    assert project.spec_folders == (tmp_path.resolve() / "specs",)
    assert project.output == tmp_path.resolve() / "generated"
    with pytest.raises(ProjectError, match="no specs found.*codegen init"):
        project.resolve(tmp_path, None)


@pytest.mark.parametrize(
    ("body", "message", "place"),
    [
        (
            'outptu = "x"',
            "unknown key 'outptu' in [tool.codegen]; did you mean 'output'?",
            "2:1",
        ),
        (
            "specs = 3",
            "tool.codegen.specs must be a list or a string, not an integer",
            "2:9",
        ),
        (
            'formatter = "rufff"',
            (
                "tool.codegen.formatter must be one of ruff, none, not 'rufff'; "
                "did you mean 'ruff'?"
            ),
            "2:13",
        ),
        (
            'strict = "yes"',
            "tool.codegen.strict must be true or false, not a string",
            "2:10",
        ),
        ('output = ""', "tool.codegen.output must not be empty", "2:10"),
        (
            '[tool.codegen.spec.ahp]\npackage = "not-valid"',
            "tool.codegen.spec.ahp.package 'not-valid' is not a Python identifier",
            "3:11",
        ),
        (
            "[tool.codegen.spec.ahp]\npakage = 1",
            "unknown key 'pakage' in [tool.codegen.spec.ahp]; did you mean 'package'?",
            "3:1",
        ),
        (
            '[tool.codegen.spec.ahp]\ndistribution = "a b"',
            "tool.codegen.spec.ahp.distribution 'a b' is not a valid project name",
            "3:16",
        ),
    ],
)
def test_bad_settings_are_named_at_their_place(
    tmp_path: Path, body: str, message: str, place: str
) -> None:
    _pyproject(tmp_path, f"[tool.codegen]\n{body}\n")
    with pytest.raises(ProjectError) as caught:
        load_project(tmp_path)
    assert caught.value.rendered is not None
    head, _gutter, _line, caret = caught.value.rendered.splitlines()[:4]
    assert head == f"pyproject.toml:{place}: error[CFG002]: {message}"
    assert caret.endswith("^")


def test_every_settings_mistake_is_reported_once(tmp_path: Path) -> None:
    _pyproject(
        tmp_path, '[tool.codegen]\noutpt = "gen"\nformatter = "black"\nstrict = 1\n'
    )
    with pytest.raises(ProjectError) as caught:
        load_project(tmp_path)
    assert caught.value.rendered is not None
    heads = [x for x in caught.value.rendered.splitlines() if "error[" in x]
    assert [h.split(": error")[0] for h in heads] == [
        "pyproject.toml:2:1",
        "pyproject.toml:3:13",
        "pyproject.toml:4:10",
    ]


def test_good_settings_of_every_key_are_accepted(tmp_path: Path) -> None:
    _pyproject(
        tmp_path,
        '[tool.codegen]\nspecs = "s"\noutput = "o"\ntemplates = "t"\n'
        'formatter = "none"\nstrict = true\n[tool.codegen.spec.ahp]\n'
        'package = "ahp_v1"\ndistribution = "ahp-v1"\nstrict = false\n',
    )
    project = load_project(tmp_path)
    assert project.formatter == "none" and project.strict
    assert project.specs["ahp"].package == "ahp_v1"


def test_broken_toml_in_the_settings_is_an_error_not_a_traceback(
    tmp_path: Path,
) -> None:
    _pyproject(tmp_path, "[tool.codegen]\nspecs = [\n")
    with pytest.raises(ProjectError, match="not valid TOML"):
        load_project(tmp_path, Path("pyproject.toml"))
    with pytest.raises(ProjectError, match="no such file"):
        load_project(tmp_path, Path("missing.toml"))


def test_spec_names_resolve_to_folders_with_suggestions(tmp_path: Path) -> None:
    _pyproject(tmp_path, '[tool.codegen]\nspecs = ["a", "b/one"]\n')
    _spec(tmp_path / "a", "ahp")
    _spec(tmp_path / "b", "one", "piglet")
    project = load_project(tmp_path)
    assert list(project.discover()) == ["ahp", "one"]
    assert project.resolve(tmp_path, ["ahp"]) == [tmp_path.resolve() / "a" / "ahp"]
    # a folder of specs expands, a spec folder is taken as it is
    assert project.resolve(tmp_path, ["a"]) == [tmp_path.resolve() / "a" / "ahp"]
    assert project.resolve(tmp_path, ["b/one"]) == [tmp_path.resolve() / "b" / "one"]
    with pytest.raises(ProjectError) as caught:
        project.resolve(tmp_path, ["aph"])
    assert str(caught.value) == (
        "unknown spec 'aph' (known: ahp, one); did you mean 'ahp'?"
    )
    with pytest.raises(ProjectError, match="known: ahp, one\\)$"):
        project.resolve(tmp_path, ["zzz"])


def test_two_specs_of_one_name_are_refused(tmp_path: Path) -> None:
    _pyproject(tmp_path, '[tool.codegen]\nspecs = ["a", "b"]\n')
    _spec(tmp_path / "a", "ahp")
    _spec(tmp_path / "b", "ahp")
    with pytest.raises(ProjectError, match="two specs are called 'ahp'"):
        load_project(tmp_path).discover()


def test_per_spec_settings_apply_and_stale_ones_are_refused(tmp_path: Path) -> None:
    _pyproject(
        tmp_path,
        "[tool.codegen]\nstrict = true\n"
        '[tool.codegen.spec.ahp]\npackage = "ahp_v9"\nstrict = false\n',
    )
    spec_dir = _spec(tmp_path / "specs", "ahp")
    project = load_project(tmp_path)
    outcome = project.load(spec_dir)
    assert outcome.config is not None
    assert outcome.config.python_package == "ahp_v9"
    assert outcome.config.python_distribution == "ahp-v9"
    assert project.strict_for(spec_dir) is False  # the spec's own setting wins
    assert project.with_flags(tmp_path, strict=True).strict_for(spec_dir) is True
    _pyproject(tmp_path, '[tool.codegen.spec.ahq]\npackage = "x"\n')
    with pytest.raises(ProjectError, match="spec.ahq.*did you mean 'ahp'"):
        load_project(tmp_path).resolve(tmp_path, None)


def test_flags_override_settings_relative_to_the_current_folder(tmp_path: Path) -> None:
    _pyproject(tmp_path, '[tool.codegen]\noutput = "gen"\nformatter = "none"\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    project = load_project(sub)
    assert project.output == tmp_path.resolve() / "gen"
    changed = project.with_flags(sub, output=Path("here"), formatter="ruff")
    assert changed.output == sub.resolve() / "here"
    assert changed.formatter == "ruff" and project.formatter == "none"


def test_a_spec_outside_the_project_is_relative_to_its_own_folder(
    tmp_path: Path,
) -> None:
    project = Project(tmp_path / "proj", None, (), tmp_path / "proj" / "generated")
    outside = tmp_path / "elsewhere" / "ahp"
    assert project.root_for(outside) == (tmp_path / "elsewhere").resolve()
    assert project.root_for(tmp_path / "proj" / "specs" / "x") == tmp_path / "proj"
    assert project.base([outside]) == tmp_path
