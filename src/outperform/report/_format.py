"""Number formatting shared by the renderers."""
from __future__ import annotations

import math

import numpy as np


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


def tests_rows(report) -> list[list[str]]:
    """Rows (method, statistic, df, p-value, effect size) of the report's tests."""
    rows = []
    for key, res in report.tests.items():
        if hasattr(res, "pvalue"):
            eff = "–" if res.effect_size is None else (
                f"{res.effect_size_name} = {res.effect_size:.3f}" if res.effect_size_name
                else f"{res.effect_size:.3f}")
            star = " ←" if key == report.recommended else ""
            rows.append([res.method + star, fmt_num(float(res.statistic)), fmt_num(res.df),
                         fmt_p(float(res.pvalue)), eff])
    return rows


def is_bayesian(res) -> bool:
    """Whether a PairwiseResult holds posterior probabilities rather than p-values."""
    return "p_rope" in res.details and res.adjustment == "none"


def bayes_pairwise_rows(res) -> list[list[str]]:
    """Rows (A, B, P(A better), P(equivalent), P(B better), decision) of a Bayesian table."""
    p_rope = np.asarray(res.details["p_rope"], dtype=float)
    decision = np.asarray(res.details["decision"], dtype=object)
    rows = []
    for i, j in res.pairs():
        d = {"A better": f"{res.names[i]} better", "B better": f"{res.names[j]} better"}.get(
            decision[i, j], decision[i, j])
        rows.append([res.names[i], res.names[j], f"{res.statistic[i, j]:.3f}",
                     f"{p_rope[i, j]:.3f}", f"{res.statistic[j, i]:.3f}", d])
    return rows


BAYES_PAIR_HEADER = ["A", "B", "P(A better)", "P(equivalent)", "P(B better)", "decision"]
POSTHOC_HEADER = ["A", "B", "rank A better by", "statistic", "adj. p", "significant"]


def posthoc_rows(res) -> list[list[str]]:
    """Rows (A, B, rank difference, statistic, adjusted p, significant) of a post-hoc result."""
    frame = res.to_frame()
    rows = []
    for r in frame.to_dict(orient="records"):
        rows.append([r["model_a"], r["model_b"],
                     fmt_num(float(r.get("rank_difference", float("nan")))),
                     fmt_num(float(r["statistic"])), fmt_p(float(r["pvalue_adjusted"])),
                     "yes" if r["reject"] else "no"])
    return rows


def bayes_rows(report) -> list[list[str]]:
    """Rows (method, P(A better), P(equivalent), P(B better), ROPE, decision) of Bayesian tests."""
    a, b = (report.models + ("", ""))[:2] if len(report.models) == 2 else ("A", "B")
    rows = []
    for res in report.tests.values():
        if hasattr(res, "p_rope"):
            lo, hi = res.rope
            decision = {"A better": f"{a} better", "B better": f"{b} better"}.get(
                res.decision, res.decision)
            rows.append([res.method, f"{res.p_a_better:.3f}", f"{res.p_rope:.3f}",
                         f"{res.p_b_better:.3f}", f"[{lo:.3g}, {hi:.3g}]", decision])
    return rows


def headline(report) -> str:
    """One line saying what was compared."""
    direction = "higher is better" if report.higher_is_better else "lower is better"
    what = (f"{len(report.models)} models over {report.n_tasks} data sets" if report.question == "Q3"
            else f"{len(report.models)} models on one task" if report.question == "Q2"
            else f"{len(report.models)} predictors on one test set")
    return f"{report.question}: {what} — metric {report.metric} ({direction}), α = {report.alpha}"


def summary_columns(report) -> list[str]:
    """Columns of the summary table, in the order of its first row."""
    return list(report.summary[0]) if report.summary else []
