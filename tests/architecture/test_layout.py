"""The tests mirror the package (issue 24, item 6).

``tests/<package>/test_<module>[_<aspect>].py`` for ``src/outperform/<package>/_<module>.py``
(or the package itself, ``test_<package>_<aspect>.py``); ``tests/cli/`` for the command line
(its modules are named after commands, so only the folder is checked); ``tests/architecture/``
for checks of the whole project (layers, lint, public API, start-up, docs, this file);
``tests/test_<module>.py`` only for a private module at the package's root
(``outperform/_validation.py``); ``tests/fixtures/`` for files the tests read.

Basenames are unique across the folders: the suite runs in pytest's default import mode,
without ``__init__.py`` files, where two ``test_x.py`` would collide.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from _paths import ROOT, TESTS

PACKAGE = ROOT / "src" / "outperform"
#: Folders of tests/ that are not a package of outperform.
OTHER_FOLDERS = {"architecture", "cli", "fixtures"}


def _modules(folder: Path) -> set[str]:
    """Names a test file may start with: the package's modules and sub-packages, no underscore."""
    names = {p.stem.lstrip("_") for p in folder.glob("*.py") if p.stem != "__init__"}
    names |= {p.name.lstrip("_") for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return names | {folder.name}


def _named_after(stem: str, modules: set[str]) -> bool:
    rest = stem.removeprefix("test_")
    return any(rest == m or rest.startswith(m + "_") for m in modules)


def misplaced(tests: Path, package: Path) -> list[str]:
    """Every test file or folder of ``tests`` that does not mirror ``package``, with the reason."""
    problems = []
    packages = {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    cli_exists = (package / "cli.py").is_file() or (package / "cli" / "__init__.py").is_file()
    for folder in sorted(p for p in tests.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if folder.name in OTHER_FOLDERS:
            if folder.name == "cli" and not cli_exists:
                problems.append("tests/cli/: outperform has no cli module or package")
        elif folder.name not in packages:
            problems.append(f"tests/{folder.name}/: no package outperform/{folder.name}/")
    files = sorted(p for p in tests.rglob("test_*.py") if "fixtures" not in p.relative_to(tests).parts)
    for path in files:
        where = path.relative_to(tests)
        if len(where.parts) == 1:
            if not (package / f"_{path.stem.removeprefix('test_')}.py").is_file():
                problems.append(f"tests/{where}: not named after a module at the package's root; "
                                f"move it to tests/<package>/")
        elif len(where.parts) > 2:
            problems.append(f"tests/{where}: one folder level only (tests/<package>/test_x.py)")
        elif (where.parts[0] in packages and where.parts[0] not in OTHER_FOLDERS
              and not _named_after(path.stem, _modules(package / where.parts[0]))):
            problems.append(f"tests/{where}: not named after a module of outperform/{where.parts[0]}/")
    for name, count in Counter(p.name for p in files).items():
        if count > 1:
            problems.append(f"{name}: {count} test files share this name (pytest's import mode needs one)")
    return problems


def test_the_tests_mirror_the_package():
    assert misplaced(TESTS, PACKAGE) == []


def _tree(root: Path, files: list[str]) -> Path:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    return root


@pytest.mark.parametrize("test_file, reason", [
    ("stats/test_quantum.py", "not named after a module of outperform/stats/"),
    ("statistics/test_statistics.py", "tests/statistics/: no package outperform/statistics/"),
    ("test_quantum.py", "not named after a module at the package's root"),
    ("stats/deep/test_ttest_deep.py", "one folder level only"),
    ("bayes/test_ttest.py", "2 test files share this name"),
])
def test_a_misplaced_test_file_is_named(tmp_path, test_file, reason):
    package = _tree(tmp_path / "pkg", ["__init__.py", "_validation.py", "cli.py", "stats/__init__.py",
                                        "stats/_ttest.py", "bayes/__init__.py", "bayes/_ttest.py"])
    tests = _tree(tmp_path / "tests", ["stats/test_ttest.py", "stats/test_ttest_batched.py",
                                       "stats/test_stats_extra.py", "test_validation.py",
                                       "cli/test_anything.py", "fixtures/evals/test_x.py"])
    assert misplaced(tests, package) == []
    _tree(tests, [test_file])
    problems = misplaced(tests, package)
    assert len(problems) == 1 and reason in problems[0], problems
