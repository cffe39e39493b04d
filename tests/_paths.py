"""Folders the tests read, in one place (test files sit one level down, in tests/<package>/).

``tests`` is on pytest's ``pythonpath`` (pyproject.toml), so any test imports these with
``from _paths import ROOT, FIXTURES``.
"""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: The repository's root (pyproject.toml, docs/, src/).
ROOT = TESTS.parent
#: Files the tests read: evaluation logs of other tools (``fixtures/evals/``, see its README).
FIXTURES = TESTS / "fixtures"
