"""Old keyword names that keep working for one release (docs/design.md, Conventions).

One helper, :func:`renamed`, used by every public function whose keyword was renamed to
the package's one word per concept (``cluster``, ``alpha``, ``random_state``).
"""
from __future__ import annotations

import functools
import math
import warnings
from typing import Callable

from ._validation import InvalidInputError, OutperformDeprecationWarning


def confidence_to_alpha(confidence_level):
    """``alpha = 1 - confidence_level`` (the conversion of the old keyword's value)."""
    try:
        return 1.0 - float(confidence_level)
    except (TypeError, ValueError):
        raise InvalidInputError(f"confidence_level must be a number in (0, 1), got "
                                f"{confidence_level!r}; give alpha= (= 1 - confidence "
                                "level) instead.") from None


#: the conversions :func:`renamed` knows, by the old keyword's name
_CONVERSIONS = {"confidence_level": (confidence_to_alpha, "1 - confidence_level"),
                "confidence": (confidence_to_alpha, "1 - confidence")}


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):      # arrays and the like: the same object only
        return a is b


def renamed(**old_to_new: str) -> Callable:
    """Decorate a function whose keywords were renamed: ``@renamed(group="cluster")``.

    A call with an old keyword warns :class:`OutperformDeprecationWarning` naming the new
    one and passes the value on under the new name; ``confidence_level=c`` (or
    ``confidence=c``) becomes ``alpha=1 - c``. Giving both names with different values
    raises :class:`InvalidInputError` (never two answers at once); a new keyword given as
    None counts as not given. The decorated
    function's ``inspect.signature`` is the new one (``functools.wraps``).
    """
    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                value = kwargs.pop(old)
                convert, how = _CONVERSIONS.get(old, (None, None)) if new == "alpha" \
                    else (None, None)
                shown = f"{new}= ({how})" if how else f"{new}="
                warnings.warn(f"{func.__name__}({old}=...) is deprecated and will be removed "
                              f"in the next release: use {shown}.",
                              OutperformDeprecationWarning, stacklevel=2)
                if convert is not None:
                    value = convert(value)
                if kwargs.get(new) is not None and not _same(kwargs[new], value):
                    raise InvalidInputError(
                        f"{func.__name__}() got {old}= and {new}= with different values; "
                        f"give {new}= only ({old}= is its deprecated name).")
                kwargs[new] = value
            return func(*args, **kwargs)
        wrapper.__renamed__ = dict(old_to_new)     # read by tests/architecture
        return wrapper
    return decorate
