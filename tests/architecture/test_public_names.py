"""One word per concept in the public Python API (issue 24, "Why", first bullet; docs/design.md,
Conventions): a column of cluster ids is ``cluster``, the level of an inference ``alpha``,
and ``random_state`` defaults to 0. The old keywords (``group``, ``cluster_by``,
``confidence_level``) keep working for one release: they warn, naming the new one, and give
the same numbers as the new keyword.
"""
from __future__ import annotations

import importlib
import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

from outperform import OutperformDeprecationWarning
from outperform._validation import InvalidInputError

PACKAGES = ("outperform", "outperform.compare", "outperform.data", "outperform.stats",
            "outperform.bayes", "outperform.plan", "outperform.simulate",
            "outperform.experiments", "outperform.plot")
#: Old spellings of ``cluster`` and ``alpha``.
FORBIDDEN = {"group", "groups", "cluster_by", "confidence", "confidence_level"}
#: Justified exceptions, by qualified name: (parameter, reason).
ALLOWED = {
    # scipy's convention for a result's or a distribution's interval method
    "BetaMixture.interval": "confidence",
    # a data array (each answer's confidence score, as sklearn's y_score), not a level
    "roc_auc": "confidence", "roc_curve": "confidence", "answer_auc": "confidence",
    # the cliques of models joined by a bar (Demšar 2006 Fig. 1), not clusters of items
    "cd_diagram": "groups",
}
#: Methods that draw from a distribution object: fresh draws each call, as scipy's ``rvs``
#: (documented in their docstrings and in docs/design.md).
RANDOM_STATE_NONE = {"PoissonBinomial.rvs", "BetaBinomialHyperposterior.sample"}
#: Result methods keep scipy's ``confidence_level``.
RESULT_METHODS = {"confidence_interval", "score_interval"}


def _public_callables():
    seen, out = set(), []
    for name in PACKAGES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if id(obj) in seen or not callable(obj):
                continue
            seen.add(id(obj))
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue
                out.append((attr, obj))
                out += [(f"{attr}.{k}", v) for k, v in vars(obj).items()
                        if callable(v) and not k.startswith("_")]
            else:
                out.append((attr, obj))
    return out


def _parameters(func):
    try:
        return inspect.signature(func).parameters.values()
    except (TypeError, ValueError):    # builtins without a signature
        return ()


PUBLIC = _public_callables()


def test_the_walk_sees_the_public_api():
    names = {n for n, _ in PUBLIC}
    assert {"compare", "compare_predictions", "compare_evals", "read_eval_logs", "compare_runs",
            "aggregate_runs", "bradley_terry", "paired_bootstrap", "power"} <= names
    assert len(PUBLIC) > 150


def test_no_public_parameter_uses_an_old_spelling():
    bad = [f"{name}({p.name}=)" for name, func in PUBLIC for p in _parameters(func)
           if p.name in FORBIDDEN and ALLOWED.get(name) != p.name
           and name.rsplit(".", 1)[-1] not in RESULT_METHODS]
    assert bad == []


def test_every_random_state_defaults_to_zero():
    bad = [f"{name}(random_state={p.default!r})" for name, func in PUBLIC
           for p in _parameters(func)
           if p.name == "random_state" and p.default is not inspect.Parameter.empty
           and p.default != 0 and name not in RANDOM_STATE_NONE]
    assert bad == []
    drawn = {name for name, func in PUBLIC for p in _parameters(func)
             if p.name == "random_state" and p.default is None}
    assert drawn == RANDOM_STATE_NONE          # the exceptions are still there, and only them


# --- the old keywords: same numbers, one warning naming the new keyword --------------------

def _clustered_predictions():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    return pd.DataFrame({"y_true": y,
                         "A": np.where(rng.random(300) < 0.8, y, 1 - y),
                         "B": np.where(rng.random(300) < 0.7, y, 1 - y),
                         "C": np.where(rng.random(300) < 0.75, y, 1 - y),
                         "doc": np.arange(300) // 6})


def _item_table():
    rng = np.random.default_rng(5)
    rows = [(m, "qa", i, float(rng.random() < p), f"P{i // 4}")
            for m, p in (("big", 0.8), ("small", 0.6)) for i in range(80)]
    return pd.DataFrame(rows, columns=["model", "task", "item", "score", "passage"])


def _runs_table():
    rng = np.random.default_rng(7)
    rows = [{"task": f"t{t}", "model": m, "run": r, "step": s,
             "accuracy": 0.6 + shift + 0.001 * s + rng.normal(0, 0.05)}
            for t in range(5) for m, shift in (("x", 0.0), ("y", 0.04))
            for r in range(4) for s in (0, 100)]
    return pd.DataFrame(rows)


def _runs_arrays():
    rng = np.random.default_rng(8)
    return rng.normal(0.6, 0.1, (5, 6)), rng.normal(0.65, 0.1, (5, 6))


def _battles():
    rng = np.random.default_rng(0)
    names = np.array(["gpt", "llama", "mistral"])
    a = rng.integers(0, 3, 400)
    b = (a + rng.integers(1, 3, 400)) % 3
    w = np.where(rng.random(400) < (a < b) * 0.4 + 0.3, "model_a", "model_b")
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": w})


def _accuracy(y, p):
    return float(np.mean(y == p))


def _cases():
    from outperform import compare
    from outperform.compare import (bradley_terry, compare_evals, compare_predictions,
                                    compare_runs, sample_efficiency)
    from outperform.compare._q1 import read_predictions
    from outperform.data import read_eval_logs
    from outperform import stats
    x, y = _runs_arrays()
    preds = _clustered_predictions()
    battles = _battles()
    return [
        # (function, call, old, new, a number of the result)
        (compare, lambda kw: compare(preds, **kw), {"group": "doc"}, {"cluster": "doc"},
         lambda r: (r.details["groups"], float(np.nansum(r.posthoc["paired_t_holm"].pvalue_adjusted)))),
        (compare_predictions, lambda kw: compare_predictions(preds[["y_true", "A", "B", "doc"]],
                                                             **kw),
         {"group": "doc"}, {"cluster": "doc"}, lambda r: r.details["groups"]),
        (read_predictions, lambda kw: read_predictions(preds, models=["A", "B"], **kw),
         {"group": "doc"}, {"cluster": "doc"}, lambda r: float(r[2].sum())),
        (compare_evals, lambda kw: compare_evals(_item_table(), **kw),
         {"cluster_by": "passage"}, {"cluster": "passage"},
         lambda r: r.per_task["qa"][0].tests["paired_difference"].details["n_clusters"]),
        (read_eval_logs, lambda kw: read_eval_logs(_item_table(), **kw),
         {"cluster_by": "passage"}, {"cluster": "passage"},
         lambda r: r.scores["cluster"].nunique()),
        (compare_runs, lambda kw: compare_runs(_runs_table().query("step == 0"),
                                               n_resamples=50, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1},
         lambda r: r.aggregates["x"]["mean"].low),
        (sample_efficiency, lambda kw: sample_efficiency(_runs_table(), n_resamples=50, **kw),
         {"confidence_level": 0.8}, {"alpha": 0.2}, lambda r: float(r.low["y"][1])),
        (bradley_terry, lambda kw: bradley_terry(battles, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: float(r.rating_low[0])),
        (stats.bradley_terry, lambda kw: stats.bradley_terry(
            battles.model_a, battles.model_b,
            battles.winner.map({"model_a": "a", "model_b": "b"}), **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: float(r.rating_high[-1])),
        (stats.aggregate_runs, lambda kw: stats.aggregate_runs({"x": x}, n_resamples=50, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: r["x"]["iqm"].high),
        (stats.probability_of_improvement,
         lambda kw: stats.probability_of_improvement(x, y, n_resamples=50, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: r.low),
        (stats.performance_profile,
         lambda kw: stats.performance_profile(x, n_resamples=50, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: float(np.sum(r.low))),
        (stats.paired_bootstrap, lambda kw: stats.paired_bootstrap(
            preds.y_true, preds.A, preds.B, _accuracy, n_resamples=200, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: r.confidence_interval()[0]),
        (stats.proportion_confint, lambda kw: stats.proportion_confint(81, 100, **kw),
         {"confidence_level": 0.9}, {"alpha": 0.1}, lambda r: float(r[0])),
    ]


CASES = _cases()


@pytest.mark.parametrize("func, call, old, new, number", CASES,
                         ids=[f"{c[0].__name__.rsplit('.', 1)[-1]}-{next(iter(c[2]))}" for c in CASES])
def test_old_keyword_warns_naming_the_new_one_and_gives_the_same_number(func, call, old, new,
                                                                        number):
    with warnings.catch_warnings():
        warnings.simplefilter("error", OutperformDeprecationWarning)
        expected = number(call(new))              # the new keyword does not warn
    (old_name,), (new_name,) = old, new
    with pytest.warns(OutperformDeprecationWarning, match=f"{old_name}=.*use {new_name}="):
        got = number(call(old))
    assert got == expected
    assert new_name in inspect.signature(func).parameters
    assert old_name not in inspect.signature(func).parameters


def test_the_old_keyword_changes_the_result_it_names():
    # The cluster column is used (the test would pass trivially if both calls ignored it):
    # 300 examples in 50 documents of 6 (Williams 2026 §6.1: the clusters are the units).
    from outperform.compare import compare_predictions
    df = _clustered_predictions()[["y_true", "A", "B", "doc"]]
    with pytest.warns(OutperformDeprecationWarning):
        assert compare_predictions(df, group="doc").details["groups"] == 50
    # alpha = 1 - confidence_level: statsmodels.stats.proportion.proportion_confint(81, 100,
    # alpha=0.1, method="wilson") = (0.7376400476715522, 0.8660274654428798)
    from outperform.stats import proportion_confint
    low, high = proportion_confint(81, 100, alpha=0.1)
    assert (round(float(low), 4), round(float(high), 4)) == (0.7376, 0.866)


@pytest.mark.parametrize("call, message", [
    (lambda: __import__("outperform").compare(_clustered_predictions(), group="doc",
                                                 cluster="A"), "group= and cluster="),
    (lambda: __import__("outperform.stats", fromlist=["x"]).proportion_confint(
        81, 100, confidence_level=0.9, alpha=0.05), "confidence_level= and alpha="),
])
def test_old_and_new_keyword_with_different_values_are_refused(call, message):
    with pytest.warns(OutperformDeprecationWarning), \
            pytest.raises(InvalidInputError, match=message):
        call()
