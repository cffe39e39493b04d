"""docs/trackers.md runs: each ```python block, in order, prints the ```text block that
follows it (as the tutorials, tests/architecture/test_docs.py). MLflow's import and the
creation of its SQLite store take seconds: slow."""
from __future__ import annotations

import importlib.util
import sys

import pytest

from _paths import ROOT

PAGE = ROOT / "docs" / "trackers.md"


def _hook():
    spec = importlib.util.spec_from_file_location("docs_hook_tutorials",
                                                  ROOT / "docs" / "hooks" / "tutorials.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


@pytest.mark.slow
def test_the_trackers_page_prints_what_it_says(tmp_path):
    pytest.importorskip("mlflow")
    pytest.importorskip("tensorboard")
    blocks = _hook().run_tutorial(PAGE, tmp_path)
    assert len(blocks) == 5
    for n, block in enumerate(blocks, start=1):
        assert block.expected is not None, f"block {n} has no text block after it"
        assert _lines(block.printed) == _lines(block.expected), f"block {n}"


def test_the_page_is_in_the_site_navigation():
    assert "trackers.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
