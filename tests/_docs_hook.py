"""The mkdocs hook that runs the tutorials (docs/hooks/tutorials.py), loaded once for the tests
that run documentation pages (``from _docs_hook import load_hook, lines``; ``tests`` is on
pytest's ``pythonpath``)."""
from __future__ import annotations

import functools
import importlib.util
import sys

from _paths import ROOT


@functools.cache
def load_hook():
    """docs/hooks/tutorials.py as a module, registered in ``sys.modules`` as mkdocs loads hooks
    (its dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location("docs_hook_tutorials",
                                                  ROOT / "docs" / "hooks" / "tutorials.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def lines(text: str) -> list[str]:
    """A printed or expected text as its lines, trailing blanks and outer newlines dropped."""
    return [line.rstrip() for line in text.strip("\n").splitlines()]
