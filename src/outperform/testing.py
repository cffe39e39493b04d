"""Helpers for test suites: a model release gated inside pytest.

>>> import pandas as pd
>>> base = pd.DataFrame({"model": "v1", "item": range(400), "score": [1, 0, 1, 1] * 100})
>>> assert_no_regression(base, base.assign(model="v2"), margin=0.05).verdict   # same answers
'pass'
"""
from __future__ import annotations

__all__ = ["assert_no_regression"]


def assert_no_regression(baseline, candidate, *, margin: float | None = None,
                         inconclusive_fails: bool = True, **options):
    """Raise AssertionError unless the gate between ``baseline`` and ``candidate`` passes.

    Parameters
    ----------
    baseline, candidate, margin
        As :func:`outperform.gate`.
    inconclusive_fails : bool
        An inconclusive verdict fails the test (default), as a regression does; False lets
        it pass (the test then only catches a shown regression).
    **options
        Any other keyword of :func:`outperform.gate` (alpha, cluster, metric, task, ...).

    Returns
    -------
    GateResult
        The gate, when it passes.

    Raises
    ------
    AssertionError
        With the gate's Markdown summary (the verdict, each task's difference, interval,
        p-values and power).
    """
    from .compare import gate
    from .report import gate_output, render_output

    result = gate(baseline, candidate, margin=margin, **options)
    if result.verdict == "regression" or (result.verdict == "inconclusive"
                                          and inconclusive_fails):
        raise AssertionError("\n" + render_output(gate_output(result), "markdown"))
    return result
