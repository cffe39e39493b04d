"""docs/reports.md runs: its python blocks are executed in order (the hook that runs the
tutorials) and each ```text block after one is exactly what it prints (issue 28: the methods
paragraph, references, fragments and figures for a paper are documented with executed code)."""
from __future__ import annotations

import importlib.util
import sys

import pytest

from _paths import ROOT

PAGE = ROOT / "docs" / "reports.md"


def _hook():
    spec = importlib.util.spec_from_file_location("docs_hook_tutorials_reports",
                                                  ROOT / "docs" / "hooks" / "tutorials.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_reports_page_code_runs_and_prints_what_the_page_says(tmp_path):
    blocks = _hook().run_tutorial(PAGE, tmp_path)
    shown = [b for b in blocks if b.expected is not None]
    assert len(shown) >= 4
    for n, block in enumerate(blocks, start=1):
        if block.expected is not None:
            got = [ln.rstrip() for ln in block.printed.strip("\n").splitlines()]
            want = [ln.rstrip() for ln in block.expected.strip("\n").splitlines()]
            assert got == want, f"reports.md, block {n}"
