"""Judged evaluations: the judge's scores corrected by a subset of human labels (PPI++ and,
for 0/1 verdicts, Rogan–Gladen), and the agreement of judge and people on those items.

``compare_evals(..., gold=...)`` calls :func:`judge_corrections` once per comparison; every
model and every pair of a task goes through one call of the row kernel
:func:`outperform.stats._ppi.ppi_mean_estimates` (models and pairs are its rows).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ..data._evals._gold import read_gold
from ..data._evals._pairing import PairedTask
from ..results._judges import JudgeCorrection
from ..stats._agreement import cohen_kappa, gwet_ac1, krippendorff_alpha
from ..stats._multipletests import adjust_pvalues
from ..stats._ppi import ppi_mean_estimates
from ..stats._rogan_gladen import rogan_gladen_estimates
from ._words import conclusion, favoured

#: bootstrap resamples of the agreement coefficients in a report
AGREEMENT_RESAMPLES = 2000


def _gold_matrix(p: PairedTask, rows: pd.DataFrame) -> tuple[np.ndarray, int]:
    """(m, n) human scores aligned with ``p.scores.T`` (NaN: unlabelled), and the number of
    rows of ``rows`` that name no (model, item) of the task."""
    item_pos = pd.Index(np.asarray(p.examples).astype(str))
    model_pos = pd.Index(list(p.models))
    i = item_pos.get_indexer(rows["example"].to_numpy())
    k = model_pos.get_indexer(rows["model"].to_numpy())
    ok = (i >= 0) & (k >= 0)
    y = np.full((len(p.models), len(p.examples)), np.nan)
    y[k[ok], i[ok]] = rows["human"].to_numpy()[ok]
    return y, int((~ok).sum())


def _task_rows(gold: pd.DataFrame, tasks) -> dict[str, pd.DataFrame]:
    if gold["task"].isna().all():
        if len(tasks) > 1:
            raise InvalidInputError(
                f"the gold labels have no task column but the logs hold {len(tasks)} tasks "
                f"({', '.join(tasks)}): add a task column to say which task each label is of.")
        return {tasks[0]: gold}
    return {t: g for t, g in gold.groupby("task", sort=False) if t in tasks}


def judge_corrections(paired: Mapping[str, PairedTask], gold, pairs, directions,
                      alpha: float) -> tuple[dict[str, JudgeCorrection], list[str]]:
    """Per task: judge-only and human-corrected means and paired differences, agreement.

    Parameters
    ----------
    paired : mapping of task to PairedTask
        The judge's scores (the evaluation logs), paired by item.
    gold : path or DataFrame
        Human labels (:func:`outperform.data._evals._gold.read_gold`).
    pairs : list of (int, int)
        Indices of the pairs of models compared (as ``compare_evals``).
    directions : mapping of task to bool
        Higher is better, per task.
    alpha : float

    Returns
    -------
    (dict of str to JudgeCorrection, list of str)
        The corrections of the tasks with human labels, and warnings.

    Raises
    ------
    InvalidInputError, TooFewError
        No label matches the logs, a model with fewer than 2 labels, no task column with
        several tasks.
    """
    table = read_gold(gold)
    tasks = list(paired)
    by_task = _task_rows(table, tasks)
    warnings = []
    unknown = sorted(set(table["task"].dropna()) - set(tasks))
    if unknown:
        warnings.append(f"gold labels of task(s) not in the logs left out: {', '.join(unknown)}.")
    matched = {}
    for task, rows in by_task.items():
        y, unmatched = _gold_matrix(paired[task], rows)
        if unmatched:
            warnings.append(f"{task}: {unmatched} of {len(rows)} gold labels name a model or "
                            "item not among the paired items and were left out (item ids are "
                            "compared as text).")
        if np.isfinite(y).any():
            matched[task] = (y, len(rows))
    if not matched:
        raise InvalidInputError("no gold label matches a (model, item) of the evaluation logs: "
                                "check the model names and item ids of the gold table.")
    out = {task: _one_task(paired[task], y, pairs, directions[task], alpha, n_rows)
           for task, (y, n_rows) in matched.items()}
    return out, warnings


def _one_task(p: PairedTask, y, pairs, hib, alpha, n_rows) -> JudgeCorrection:
    f = p.scores.T                                        # (m, n) judge scores
    counts = np.isfinite(y).sum(1)
    few = [f"{m} ({c})" for m, c in zip(p.models, counts) if c < 2]
    if few:
        raise TooFewError(f"{p.task}: the PPI++ correction needs at least 2 human labels per "
                          f"model; too few for {', '.join(few)}.")
    warnings = []
    both = np.array([int((np.isfinite(y[a]) & np.isfinite(y[b])).sum()) for a, b in pairs])
    if (both < 2).any():
        bad = [f"{p.models[a]} vs {p.models[b]}" for (a, b), c in zip(pairs, both) if c < 2]
        warnings.append(f"{p.task}: no corrected paired difference for {', '.join(bad)}: it "
                        "needs at least 2 items labelled by people for both models (label the "
                        "same items for every model).")
        pairs = [q for q, c in zip(pairs, both) if c >= 2]
    ia, ib = (np.array([q[k] for q in pairs], dtype=int) for k in (0, 1))
    rows_y = np.concatenate([y, y[ia] - y[ib]])           # NaN unless both labelled
    rows_f = np.concatenate([f, f[ia] - f[ib]])
    est = ppi_mean_estimates(rows_y, rows_f, alpha=alpha)
    z = _z(alpha)
    binary = bool(p.binary and np.isin(y[np.isfinite(y)], (0.0, 1.0)).all())
    rg = rogan_gladen_estimates(y, f, alpha=alpha) if binary else None
    m = len(p.models)
    models = tuple(_model_row(p.models[k], est, k, z, rg) for k in range(m))
    # more than one pair: Holm over the pairs decides (one family-wise decision per task)
    raw = est["pvalue"][m:]
    adjusted = adjust_pvalues(raw, "holm") if len(pairs) > 1 else raw
    pair_rows, words = [], []
    for r, (a, b) in enumerate(pairs):
        row = _pair_row(p.models[a], p.models[b], est, m + r, z, alpha, hib,
                        float(adjusted[r]))
        pair_rows.append(row)
        p_words = (f"p = {row['pvalue']:.3g}" if len(pairs) == 1 else
                   f"unadjusted p = {row['pvalue']:.3g}, Holm-adjusted over the "
                   f"{len(pairs)} pairs p = {row['pvalue_adjusted']:.3g}")
        words.append(conclusion(
            "PPI++ paired difference", row["a"], row["b"],
            decision=bool(row["pvalue_adjusted"] < alpha), difference=row["ppi_difference"],
            higher_is_better=hib,
            evidence=f"{row['a']} − {row['b']} = {row['ppi_difference']:+.4g}, "
                     f"{1 - alpha:.0%} CI [{row['ppi_low']:+.4g}, {row['ppi_high']:+.4g}] "
                     f"from the judge corrected by {row['n_gold']} human-labelled items "
                     f"(judge alone {row['judge_difference']:+.4g}); {p_words}"))
    labelled = np.isfinite(y)
    agreement = _agreement(f[labelled], y[labelled], binary, alpha)
    if p.clusters is not None:
        warnings.append(f"{p.task}: the PPI++ intervals treat items as independent; the "
                        "clusters are not used by the correction.")
    if rg is not None and (rg["raw"] > 1).any() | (rg["raw"] < 0).any():
        warnings.append(f"{p.task}: a Rogan–Gladen rate fell outside [0, 1] and was clipped "
                        "(the judge's sensitivity and specificity are imprecise with few labels).")
    if rg is not None and np.isnan(rg["estimate"]).any():
        warnings.append(f"{p.task}: no Rogan–Gladen rate where the labelled items hold no right "
                        "or no wrong answer, or the judge is no better than chance there.")
    gold = {"rows": int(n_rows), "labels_used": int(labelled.sum()),
            "items_labelled": int(labelled.any(0).sum()), "items": int(len(p.examples)),
            "per_model": dict(zip(p.models, counts.tolist()))}
    return JudgeCorrection(task=p.task, alpha=alpha, binary=binary, models=models,
                           pairs=tuple(pair_rows), agreement=agreement, gold=gold,
                           warnings=tuple(warnings), conclusions=tuple(words))


def _z(alpha):
    from scipy import stats

    return float(stats.norm.ppf(1 - alpha / 2))


def _model_row(name, est, k, z, rg) -> dict:
    row = {"model": name, "judge_mean": float(est["judge_mean"][k]),
           "judge_low": float(est["judge_mean"][k] - z * est["judge_se"][k]),
           "judge_high": float(est["judge_mean"][k] + z * est["judge_se"][k]),
           "ppi_mean": float(est["estimate"][k]), "ppi_low": float(est["low"][k]),
           "ppi_high": float(est["high"][k]), "ppi_se": float(est["standard_error"][k]),
           "lam": float(est["lam"][k]), "human_mean": float(est["classical_mean"][k]),
           "n_gold": int(est["n_gold"][k]), "n_unlabelled": int(est["n_unlabelled"][k]),
           "n_effective": float(est["n_effective"][k])}
    if rg is not None:
        row.update(rg_mean=float(rg["estimate"][k]), rg_low=float(rg["low"][k]),
                   rg_high=float(rg["high"][k]), sensitivity=float(rg["sensitivity"][k]),
                   specificity=float(rg["specificity"][k]))
    return row


def _pair_row(a, b, est, r, z, alpha, hib, adjusted) -> dict:
    d, p = float(est["estimate"][r]), float(est["pvalue"][r])
    side = favoured(d, higher_is_better=hib) if adjusted < alpha else 0
    return {"a": a, "b": b, "judge_difference": float(est["judge_mean"][r]),
            "judge_low": float(est["judge_mean"][r] - z * est["judge_se"][r]),
            "judge_high": float(est["judge_mean"][r] + z * est["judge_se"][r]),
            "ppi_difference": d, "ppi_low": float(est["low"][r]),
            "ppi_high": float(est["high"][r]), "ppi_se": float(est["standard_error"][r]),
            "pvalue": p, "pvalue_adjusted": adjusted, "lam": float(est["lam"][r]),
            "n_gold": int(est["n_gold"][r]),
            "n_effective": float(est["n_effective"][r]),
            "better": {1: a, -1: b}.get(side, "")}


def _agreement(judge, human, binary, alpha):
    """Judge against people on the labelled (item, model) units."""
    if judge.size < 2:
        return ()
    ratings = np.column_stack([judge, human])
    kw = {"alpha": alpha, "n_resamples": AGREEMENT_RESAMPLES, "random_state": 0}
    if np.unique(ratings).size < 2:
        return ()
    if binary:
        return (cohen_kappa(judge, human, **kw), gwet_ac1(ratings, **kw),
                krippendorff_alpha(ratings, level="nominal", **kw))
    return (krippendorff_alpha(ratings, level="interval", **kw),)
