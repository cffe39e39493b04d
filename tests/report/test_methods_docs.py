"""docs/reports.md runs: its python blocks are executed in order (the hook that runs the
tutorials) and each ```text block after one is exactly what it prints (issue 28: the methods
paragraph, references, fragments and figures for a paper are documented with executed code)."""
from __future__ import annotations

import pytest

from _docs_hook import lines, load_hook
from _paths import ROOT

PAGE = ROOT / "docs" / "reports.md"


@pytest.mark.slow
def test_reports_page_code_runs_and_prints_what_the_page_says(tmp_path):
    blocks = load_hook().run_tutorial(PAGE, tmp_path)
    shown = [b for b in blocks if b.expected is not None]
    assert len(shown) >= 4
    for n, block in enumerate(blocks, start=1):
        if block.expected is not None:
            assert lines(block.printed) == lines(block.expected), f"reports.md, block {n}"
