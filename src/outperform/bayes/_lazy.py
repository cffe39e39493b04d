"""A scipy frozen distribution built on first use, so that tests called in loops skip it.

Freezing a scipy distribution costs about half a millisecond (argument checks, docstring
formatting), more than the whole closed-form test; most callers (all-pairs tables, the
Poisson test, simulations) only read the region probabilities. The result keeps the recipe
(distribution name and parameters) and builds the frozen distribution when an attribute is
first read; it pickles as its recipe.
"""
from __future__ import annotations

_SLOTS = ("_name", "_args", "_kwds", "_frozen")


class LazyFrozen:
    """Stands for ``getattr(scipy.stats, name)(*args, **kwds)``, built on first attribute use.

    Every attribute of the frozen distribution (``pdf``, ``cdf``, ``ppf``, ``interval``,
    ``mean``, ``dist``, ...) is forwarded to it.

    Examples
    --------
    >>> post = LazyFrozen("t", 9.0, loc=0.5, scale=0.1)
    >>> round(float(post.cdf(0.5)), 3)
    0.5
    """

    __slots__ = _SLOTS

    def __init__(self, name: str, *args, **kwds):
        self._name, self._args, self._kwds, self._frozen = name, args, kwds, None

    def frozen(self):
        """The scipy frozen distribution itself (built once)."""
        if self._frozen is None:
            from scipy import stats   # on use: importing scipy.stats costs about a second

            self._frozen = getattr(stats, self._name)(*self._args, **self._kwds)
        return self._frozen

    def __getattr__(self, attr):
        # Only reached for names that are not slots; dunders (copy, pickle probes) stay ours.
        if attr in _SLOTS or attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(self.frozen(), attr)

    def __reduce__(self):
        return (_rebuild, (self._name, self._args, self._kwds))

    def __repr__(self) -> str:
        params = [repr(a) for a in self._args] + [f"{k}={v!r}" for k, v in self._kwds.items()]
        return f"scipy.stats.{self._name}({', '.join(params)})"


def _rebuild(name, args, kwds) -> LazyFrozen:
    return LazyFrozen(name, *args, **kwds)
