"""Packaging and set-up: the wheel carries grammars/ and reports/, a wheel install works,
and the README's two commands, scripts/ and .ci/run agree with each other."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import site
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from rulediff.parse import parse_file

ROOT = Path(__file__).resolve().parent.parent
# What a build reads; everything else in the checkout (tests, .venv, out/) stays out.
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "rulediff", "grammars",
           "reports", "corpus"]  # fmt: skip
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
PROBE = Path("reports") / "probe-nested" / "deeper" / "probe.css"


def _copy_sources(dest: Path) -> None:
    dest.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=IGNORE)
        elif src.is_file():
            shutil.copy2(src, dest / name)
    # A nested file under reports/ proves sub-folders ship too, whatever reports/ holds today.
    (dest / PROBE).parent.mkdir(parents=True, exist_ok=True)
    (dest / PROBE).write_text("/* probe */\n", encoding="utf-8")


def _tracked_files(folder: str) -> list[str]:
    """Files of a top-level folder as the checkout has them (relative to the folder)."""
    base = ROOT / folder
    if not base.is_dir():
        return []
    return sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc")
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel from a copy of the sources (the checkout is never written)."""
    for needed in ("setuptools", "wheel"):
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"{needed} is not installed: cannot build a wheel without the network")
    tmp = tmp_path_factory.mktemp("wheel")
    src, dist = tmp / "src", tmp / "dist"
    _copy_sources(src)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-q", "-w", str(dist), str(src)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = dist.glob("rulediff-*.whl")
    return built


def test_wheel_carries_code_grammars_reports_and_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rulediff/grammars/document.lark" in names
    for rel in _tracked_files("grammars"):
        assert f"rulediff/grammars/{rel}" in names, rel
    for rel in _tracked_files("reports"):
        assert f"rulediff/reports/{rel}" in names, rel
    assert f"rulediff/{PROBE.as_posix()}" in names
    for rel in _tracked_files("corpus"):
        if rel.endswith(".toml"):  # the manifest and the engine's scenarios
            assert f"rulediff/data/{rel}" in names, rel
        else:
            assert f"rulediff/data/{rel}" not in names, rel
    assert "rulediff/schemas/parse.schema.json" in names
    # Every module of the package, sub-packages included (none forgotten in setup.py).
    for module in (ROOT / "rulediff").rglob("*.py"):
        if "__pycache__" not in module.parts:
            assert module.relative_to(ROOT).as_posix() in names, module
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert not any(n.startswith(("tests/", "grammars/", "reports/")) for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert re.search(r"^rulediff\s*=\s*rulediff\.cli:run$", text, re.MULTILINE)


def _site_dirs() -> list[str]:
    """Where this interpreter finds the dependencies (lark, click …)."""
    dirs = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    dirs += [d for d in site.getsitepackages() if d not in dirs]
    return [d for d in dict.fromkeys(dirs) if Path(d).is_dir()]


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throw-away venv with the wheel installed (--no-deps); deps come from this env.

    The dependencies are reached through a .pth file listing this interpreter's
    site-packages: a plain path there does not run the editable-install hooks, so
    ``rulediff`` itself can only come from the wheel.
    """
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # pip runs under the venv's python: an inherited PYTHONPATH (".") would show it the
    # checkout's egg-info as rulediff already installed, and it would install nothing.
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "--disable-pip-version-check", "-q", str(wheel)],
        capture_output=True, text=True, check=False, env=_clean_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / "zz_rulediff_test_deps.pth").write_text("\n".join(_site_dirs()) + "\n")
    return venv


def _clean_env() -> dict[str, str]:
    """This environment without PYTHONPATH/PYTHONHOME: the venv sees only its own files."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _run_installed(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = _clean_env()
    env["RULEDIFF_CACHE_DIR"] = str(cwd / "cache")
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, check=False)


def test_wheel_install_runs_from_its_own_files(
    installed: Path, corpus_dir: Path, tmp_path: Path
) -> None:
    python = str(installed / "bin" / "python")
    where = _run_installed(
        installed, python, "-c",
        "import rulediff, rulediff.parse as p; print(rulediff.__file__); print(p.grammar_path())",
        cwd=tmp_path,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr.decode()
    package_file, grammar = where.stdout.decode().split()
    assert Path(package_file).is_relative_to(installed), package_file
    assert Path(grammar).is_relative_to(installed), grammar  # the packaged copy, not the repo's
    assert Path(grammar).as_posix().endswith("rulediff/grammars/document.lark")

    for cmd in (
        [str(installed / "bin" / "rulediff"), "--help"],
        [python, "-m", "rulediff", "--help"],
    ):
        done = _run_installed(installed, *cmd, cwd=tmp_path)
        assert done.returncode == 0, done.stderr.decode()
        assert b"parse" in done.stdout

    latest = max(corpus_dir.glob("*.txt"))
    done = _run_installed(
        installed, str(installed / "bin" / "rulediff"), "parse", str(latest), "--format", "text",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == parse_file(latest).to_text().encode("utf-8")

    schema = _run_installed(
        installed, python, "-c",
        "from rulediff.commands.parse import parse_schema; print(parse_schema()['title'])",
        cwd=tmp_path,
    )  # fmt: skip
    assert schema.returncode == 0, schema.stderr.decode()


# --- README, scripts and CI agree -------------------------------------------------------------
def _readme_commands() -> list[str]:
    """The commands of the README's first two code blocks."""
    blocks = re.findall(r"```(?:sh|bash)?\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    return [block.strip() for block in blocks[:2]]


def test_readme_opens_with_the_main_job_and_the_test_command() -> None:
    main_job, tests = _readme_commands()
    for command in (main_job, tests):
        assert "\n" not in command, command
        script = ROOT / command.split()[0]
        assert script.is_file(), command
        assert script.stat().st_mode & stat.S_IXUSR, f"{script} is not executable"
    # .ci/run runs exactly the README's test command, as its own line.
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(rf"^{re.escape(tests)}$", ci, re.MULTILINE), ci


def test_scripts_are_executable_in_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-s", ".ci/run", "scripts/main.sh", "scripts/test.sh"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\n")  # fmt: skip
    modes = {line.split()[-1]: line.split()[0] for line in out if line.strip()}
    assert modes == {p: "100755" for p in (".ci/run", "scripts/main.sh", "scripts/test.sh")}


def _fake_venv(tmp_path: Path) -> Path:
    """A 'venv' whose python is this interpreter and whose install stamp is current."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    key = subprocess.run(
        ["bash", "-c", f'source "{ROOT}/scripts/lib.sh" && install_key'],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    (venv / ".rulediff-installed").write_text(key)
    return venv


def test_test_script_fails_when_no_test_is_collected(tmp_path: Path) -> None:
    env = dict(os.environ, RULEDIFF_VENV=str(_fake_venv(tmp_path)))
    cmd = [str(ROOT / "scripts" / "test.sh"), "-q", "-p", "no:cacheprovider",
           "tests/test_packaging.py"]  # fmt: skip
    none = subprocess.run(
        [*cmd, "-k", "no_test_has_this_name"], env=env, capture_output=True, text=True,
        check=False, cwd=tmp_path,
    )  # fmt: skip
    assert none.returncode == 1, none.stdout + none.stderr
    assert "collected no tests" in none.stderr
    some = subprocess.run(
        [*cmd, "-k", "readme_opens"], env=env, capture_output=True, text=True, check=False,
        cwd=tmp_path,
    )  # fmt: skip
    assert some.returncode == 0, some.stdout + some.stderr
    assert re.search(r"\b1 passed\b", some.stdout)


def test_ci_run_fails_clearly_without_the_corpus(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    (clone / ".ci").mkdir(parents=True)
    shutil.copy2(ROOT / ".ci" / "run", clone / ".ci" / "run")
    shutil.copytree(ROOT / "scripts", clone / "scripts")
    done = subprocess.run(
        ["bash", str(clone / ".ci" / "run")], capture_output=True, text=True, check=False,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode != 0
    assert "corpus" in done.stderr and "missing" in done.stderr
    assert not (clone / ".venv").exists()
