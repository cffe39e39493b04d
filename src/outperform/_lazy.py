"""Package surfaces whose public names are imported on first use (PEP 562).

``import outperform`` and ``outperform --help`` then load no kernel's dependencies (scipy.stats,
pandas, statsmodels) until a name that needs them is used.
"""
from __future__ import annotations

import importlib
from typing import Callable


def lazy_exports(package: str, where: dict[str, str], namespace: dict,
                 fallback: Callable[[str], object] | None = None):
    """``(__getattr__, __dir__)`` for ``package``, whose names live in private modules.

    ``where`` maps each public name to its module relative to the package (``"._ranks"``);
    a name is imported on first access and stored in ``namespace`` (the package's
    ``globals()``), so later lookups skip the hook. ``fallback(name)`` handles other names
    (deprecated aliases); without it they raise AttributeError.
    """
    def __getattr__(name: str):
        if name in where:
            value = getattr(importlib.import_module(where[name], package), name)
            namespace[name] = value
            return value
        if fallback is not None:
            return fallback(name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
