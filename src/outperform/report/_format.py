"""Number formatting of the report tables: one rule per kind of number."""
from __future__ import annotations

import math


def fmt_p(p: float | None) -> str:
    """p-value with 3 significant digits; very small values in scientific notation."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def fmt_num(x, digits: int = 3) -> str:
    """A statistic or score with ``digits`` decimals; tuples of df joined by commas."""
    if x is None:
        return "–"
    if isinstance(x, (tuple, list)):
        return ", ".join(fmt_num(v, digits) for v in x)
    if isinstance(x, float) and math.isnan(x):
        return "–"
    if isinstance(x, float) and float(x).is_integer() and abs(x) < 1e6:
        return f"{int(x)}"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def fmt_column(values, digits: int = 3) -> list[str]:
    """One format for a column of numbers: integers when every value is one, else ``digits``
    decimals for all, so that an average rank 2 is printed 2.000 next to 1.964."""
    if any(not isinstance(v, (int, float)) and v is not None and not hasattr(v, "dtype")
           for v in values):   # words in the column: each cell as it is
        return [fmt_num(v, digits) for v in values]
    nums = [None if v is None else float(v) for v in values]
    finite = [v for v in nums if v is not None and math.isfinite(v)]
    integral = all(v.is_integer() and abs(v) < 1e6 for v in finite)
    return ["–" if v is None or math.isnan(v) else
            (f"{int(v)}" if integral and math.isfinite(v) else f"{v:.{digits}f}") for v in nums]


def is_bayesian(res) -> bool:
    """Whether a PairwiseResult holds posterior probabilities rather than p-values."""
    return "p_rope" in res.details and res.adjustment == "none"
