"""Conversion of result fields to JSON-safe Python values."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np


def jsonable(value: Any) -> Any:
    """Return ``value`` with numpy scalars/arrays, tuples and NaN turned into JSON-safe types.

    NaN and infinities become ``None`` (JSON has no NaN); arrays become nested lists.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.repr}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)
