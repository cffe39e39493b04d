"""docs/trackers.md runs: each ```python block, in order, prints the ```text block that
follows it (as the tutorials, tests/architecture/test_docs.py). MLflow's import and the
creation of its SQLite store take seconds: slow."""
from __future__ import annotations

import pytest

from _docs_hook import lines, load_hook
from _paths import ROOT

PAGE = ROOT / "docs" / "trackers.md"


@pytest.mark.slow
def test_the_trackers_page_prints_what_it_says(tmp_path):
    pytest.importorskip("mlflow")
    pytest.importorskip("tensorboard")
    blocks = load_hook().run_tutorial(PAGE, tmp_path)
    assert len(blocks) == 5
    for n, block in enumerate(blocks, start=1):
        assert block.expected is not None, f"block {n} has no text block after it"
        assert lines(block.printed) == lines(block.expected), f"block {n}"


def test_the_page_is_in_the_site_navigation():
    assert "trackers.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
