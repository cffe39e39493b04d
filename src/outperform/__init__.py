"""outperform: is model A really better than model B, how sure is that, and by how much?

Statistical comparison of machine-learning models and algorithms after Demšar (2006),
Lacoste, Laviolette & Marchand (2012), Corani & Benavoli (2015) and Williams (2026).

>>> from outperform import compare
>>> from outperform.data import load_demsar_table6
>>> compare(load_demsar_table6()).recommended
'iman_davenport'
"""
from . import _display
from ._validation import (ConvergenceWarning, DegenerateDataError, InvalidInputError,
                          MissingDependencyError, OutperformDeprecationWarning, OutperformError,
                          OutperformWarning, PerformanceWarning, TooFewError)

#: The one place the version is written: pyproject.toml reads it
#: (``[tool.setuptools.dynamic] version = {attr = "outperform.__version__"}``).
__version__ = "0.1.0"

from . import compare  # noqa: E402  (the package, callable as compare(); after __version__)


def __getattr__(name: str):
    # read_results on first use: it loads pandas, which `import outperform` and
    # `outperform --help` do not need.
    if name == "read_results":
        from .data import read_results

        globals()[name] = read_results
        return read_results
    if name == "gate":     # the regression gate (outperform.compare.gate), loaded on use
        from .compare import gate

        globals()[name] = gate
        return gate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _load_report() -> None:
    """Import the report renderer, which registers itself as the HTML display of results.

    Called on the first Jupyter display of a result, not at import: the root package is
    above every layer, so this import is in plain sight of the layer contract and allowed,
    and ``import outperform`` does not load rich or matplotlib.
    """
    from . import report  # noqa: F401


_display.set_loader(_load_report)

__all__ = [
    "ConvergenceWarning",
    "DegenerateDataError",
    "InvalidInputError",
    "MissingDependencyError",
    "OutperformDeprecationWarning",
    "OutperformError",
    "OutperformWarning",
    "PerformanceWarning",
    "TooFewError",
    "__version__",
    "compare",
    "gate",
    "read_results",
]
