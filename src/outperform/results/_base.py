"""What every result object has: a short repr, ``to_dict()``, ``to_frame()``, notebook display.

:class:`Result` is the base of the frozen result classes. A subclass names the few fields
its ``repr`` shows (``_repr_fields``, or overrides ``_summary``), so ``print(report)`` in a
session is a line or two (the question, the models, the decision), not a dump of every
table; ``str()`` of the classes that define one prints their full table, and the renderers
of :mod:`outperform.report` (``render_text``, ``render_markdown``, ...) the whole report.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._display import HTMLRepr
from ._serialize import jsonable

#: longest text shown for one field of a repr; longer text ends with "..."
REPR_TEXT = 100
#: most names shown of a list of models or tasks; the rest are counted
REPR_ITEMS = 6


def short_value(value: Any) -> str:
    """One field's value as a repr shows it: numbers to 4 significant digits, long text and
    long lists of names cut short (with the count of what is left out)."""
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.4g}" if math.isfinite(value) else repr(float(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, str):
        return repr(value if len(value) <= REPR_TEXT else value[:REPR_TEXT - 3] + "...")
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiub":
        return f"array(shape={value.shape})"
    if isinstance(value, (tuple, list, np.ndarray)):
        items = [short_value(v) for v in list(value)[:REPR_ITEMS]]
        if len(value) > REPR_ITEMS:
            items.append(f"... {len(value) - REPR_ITEMS} more")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        return f"{{{len(value)} entries}}"
    return repr(value) if len(repr(value)) <= REPR_TEXT else f"<{type(value).__name__}>"


def short_repr(name: str, fields: dict[str, Any]) -> str:
    """``name(field=value, ...)`` of the fields that are not None, each cut short."""
    shown = ", ".join(f"{k}={short_value(v)}" for k, v in fields.items() if v is not None)
    return f"{name}({shown})"


class Result(HTMLRepr):
    """Base of the result classes: short repr, ``to_dict``, ``to_frame``, ``_repr_html_``.

    ``to_dict()`` is the JSON-safe dictionary of the fields (NaN becomes None) and
    ``to_frame()`` a one-row :class:`pandas.DataFrame` of its scalar entries; the classes
    with tables override both. ``_repr_html_`` is the notebook display (the report's HTML
    renderer, loaded on first use; see :mod:`outperform._display`).
    """

    __slots__ = ()
    #: the fields ``repr`` shows, in order (None values are left out)
    _repr_fields: tuple[str, ...] = ()

    def _summary(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._repr_fields}

    def __repr__(self) -> str:
        return short_repr(type(self).__name__, self._summary())

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of the fields (NaN and infinities become ``None``)."""
        return jsonable(self)

    def to_frame(self):
        """One-row :class:`pandas.DataFrame` of the scalar entries of :meth:`to_dict`."""
        import pandas as pd

        return pd.DataFrame([{k: v for k, v in self.to_dict().items()
                              if v is None or isinstance(v, (bool, int, float, str))}])


def detail(key: str, doc: str, default: Any = None) -> property:
    """A method-specific value of ``details`` as a read-only attribute (as scipy's named
    results have): ``result.p_rope`` is ``result.details["p_rope"]``, ``default`` (None)
    when the method that made the result has no such value. ``details`` keeps every key, so
    dict access keeps working."""
    def get(self):
        return self.details.get(key, default)

    return property(get, doc=f"{doc} (``details[{key!r}]``; {default!r} when absent)")
