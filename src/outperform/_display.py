"""Jupyter shows result objects as HTML, although they sit below the report renderer.

The layers (docs/design.md, import-linter) put ``outperform.results`` below ``outperform.report``:
a result may not import the renderer, not even inside a method. So the dependency is
inverted through this bottom-layer registry, which imports nothing of the package:

1. The result classes (and :class:`~outperform.results.ComparisonReport`) inherit
   ``_repr_html_`` from :class:`HTMLRepr`, which asks the registry for a renderer.
2. ``outperform.report`` registers its renderer (:func:`register_html`) when it is imported.
3. The root package ``outperform``, the facade above every layer, registers a loader
   (:func:`set_loader`) that imports ``outperform.report`` on the first display. Every
   import of a subpackage runs the root package first, so the loader is always there, and
   ``import outperform`` stays light: the renderer (rich, matplotlib) loads only when a
   notebook displays a result.

With no renderer (the loader not installed), ``_repr_html_`` returns None and Jupyter falls
back to the plain ``repr``.
"""
from __future__ import annotations

from typing import Callable

_renderer: Callable[[object], str] | None = None
_loader: Callable[[], None] | None = None


def register_html(renderer: Callable[[object], str]) -> None:
    """Make ``renderer(result) -> str`` the HTML display of every result object."""
    global _renderer
    _renderer = renderer


def set_loader(loader: Callable[[], None]) -> None:
    """Call ``loader()`` on the first display when no renderer is registered yet; it is
    expected to import the module that registers one."""
    global _loader
    _loader = loader


def html(result) -> str | None:
    """HTML of ``result`` by the registered renderer (loaded on first use), or None."""
    if _renderer is None and _loader is not None:
        _loader()
    return None if _renderer is None else _renderer(result)


class HTMLRepr:
    """Base of the result classes: their rich display in Jupyter (IPython's ``_repr_html_``)."""

    __slots__ = ()

    def _repr_html_(self) -> str | None:
        return html(self)
