"""Q1: predictors compared on one shared test set (Williams 2026 §5.1–5.4, §6).

Decision logic:
- 0/1 loss (labels): McNemar's exact test and the Bayesian McNemar test of Lacoste et al.
  (2012) Theorem 4.1 with the ROPE of Williams eq. 7, Cohen's g; DeLong's test of the AUROCs
  when the predictions are probabilities of a binary outcome; k > 2: Cochran's Q, then all
  pairs (or all against a control) with Holm's correction, and the Bayesian table.
- real-valued losses (log, squared, absolute, or given per example): the paired t-test and the
  Bayesian t-test (Williams eq. 6) on the per-example differences, Wilcoxon on examples,
  Cohen's d; a normality check of the differences.
- ``groups``: examples of a group (a document, a speaker, a video) are not independent, so the
  losses are averaged per group first and the real-valued tests run on the groups (Williams
  §6.1).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, check_choice,
                           check_probability, check_threshold)
from .._deprecation import renamed
from ..bayes._mcnemar import bayesian_mcnemar
from ..bayes._ttest import bayesian_ttest
from ..data._arrays import read_prediction_array
from ..data._sklearn_estimators import estimator_predictions, is_estimators
from ..data._columns import (CLUSTER_HINTS, TASK, Y_TRUE, column_role,
                             refuse_stripped_twins)
from ..data._io import read_table
from ..results import ComparisonReport, PairwiseResult
from ..stats._delong import delong_test
from ..bayes._mcnemar import pairwise_bayesian_mcnemar
from ..stats._leaderboard import against_control, pairwise_mcnemar
from ..stats._mcnemar import cochrans_q, discordance_counts, mcnemar
from ..stats._noninferiority import noninferiority_test
from ..stats._multipletests import adjust_pvalues
from ..stats._risk_bounds import beta_risk_bound
from ..stats._tost import tost
from ..stats._ttest import paired_ttest
from ..stats._wilcoxon import wilcoxon
from ._guards import check_predictions
from ._pair_choice import choose_pairs
from ._q1_words import (bayes_words, chosen_pair_words, freq_words, mcnemar_words,
                        noninferiority_words, omnibus_words, tost_words)

LOSSES = ("zero-one", "log", "squared", "absolute", "given")
EPS = 1e-15  # log loss of a probability 0 for the true class would be infinite
NORMALITY_ALPHA = 0.01

def _probabilities(pred: np.ndarray) -> bool:
    return pred.dtype.kind == "f" and np.all((pred >= 0) & (pred <= 1)) and np.any(
        pred != np.round(pred))


def per_example_losses(y_true: np.ndarray, pred: np.ndarray, loss: str) -> np.ndarray:
    """Loss of each example: 0/1, log, squared or absolute (lower is better).

    For ``log``, ``squared`` and ``absolute`` the predictions are probabilities of the
    positive class of a binary 0/1 ``y_true`` (log: −log p(y); squared: the Brier score
    (p − y)²), or, for ``squared``/``absolute`` with numeric non-binary ``y_true``, regression
    predictions.
    """
    if loss == "zero-one":
        if _probabilities(pred):
            pred = (pred >= 0.5).astype(y_true.dtype if y_true.dtype.kind in "iub" else float)
        return (pred != y_true).astype(float)
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(pred, dtype=float)
    if loss == "log":
        if not np.all(np.isin(y, (0, 1))) or np.any((p < 0) | (p > 1)):
            raise InvalidInputError("log loss needs a 0/1 y_true and probabilities in [0, 1].")
        return -np.log(np.clip(np.where(y == 1, p, 1 - p), EPS, 1.0))
    if loss == "squared":
        return (p - y) ** 2
    return np.abs(p - y)


def _refuse_roles_among_models(names, y_true) -> None:
    """Raise if a column taken as a model's predictions names data sets (``task``) or holds
    true labels (``y_true``, ``label``, ... when ``y_true`` is another column or None, as
    with ``loss="given"``): it would be ranked as a model, and the tasks' items pooled."""
    for name in names:
        role = column_role(name)
        if role == TASK:
            raise InvalidInputError(
                f"column {name!r} names data sets, not a model's predictions: a predictions "
                "table holds one test set. Compare one task at a time (e.g. "
                f"df[df[{name!r}] == t].drop(columns={name!r})): pooling the tasks' "
                "examples would weigh each task by its size.")
        if role == Y_TRUE:
            why = ("with loss='given' (--loss given) every other column is read as a model's "
                   "per-example losses" if y_true is None else
                   f"the true labels are read from {y_true!r}")
            raise InvalidInputError(
                f"column {name!r} looks like true labels, not a model's predictions: {why}. "
                f"Drop {name!r}, or name the models with models=[...].")


@renamed(group="cluster")
def read_predictions(data, *, y_true: str | None = "y_true", models=None, cluster: str | None = None
                     ) -> tuple[np.ndarray | None, dict[str, np.ndarray], np.ndarray | None]:
    """Split a per-example table into y_true, {model: column} and groups.

    Raises
    ------
    InvalidInputError
        Missing columns (labels, models or cluster), NaN, fewer than 2 models, fewer than 2
        examples.
    """
    df = read_table(data) if not isinstance(data, pd.DataFrame) else data
    if y_true is not None and y_true not in df.columns:
        raise InvalidInputError(
            f"no {y_true!r} column of true labels; columns are {list(df.columns)}. Name it with "
            "--y-true, or pass losses per example with --loss given.")
    if cluster is not None and cluster not in df.columns:
        raise InvalidInputError(
            f"no cluster column {cluster!r} (cluster ids); columns are {list(df.columns)}.")
    reserved = {y_true, cluster, "example", "id"} | set(CLUSTER_HINTS)
    names = list(models) if models else [c for c in df.columns if c not in reserved]
    missing = [m for m in names if m not in df.columns]
    if missing:
        raise InvalidInputError(f"model column(s) {missing} not in the table.")
    if not models:
        _refuse_roles_among_models(names, y_true)
    refuse_stripped_twins(names, "model")
    if len(names) < 2:
        raise TooFewError(f"{len(names)} model column(s): at least 2 are needed to compare.")
    if len(df) < 2:
        raise TooFewError("fewer than 2 examples: nothing to compare.")
    cols = names + ([y_true] if y_true else []) + ([cluster] if cluster else [])
    bad = df[cols].isna().any()
    if bad.any():
        raise InvalidInputError(
            f"column(s) {list(bad[bad].index)} have missing values: every model needs a "
            "prediction for every example.")
    preds = {m: df[m].to_numpy() for m in names}
    return (df[y_true].to_numpy() if y_true else None, preds,
            df[cluster].to_numpy() if cluster else None)


@renamed(group="cluster", reference="control")
def compare_predictions(data, *, y_true: str | None = "y_true", models=None,
                        loss: str = "zero-one", control: str | None = None,
                        cluster: str | None = None, rope: float | None = None,
                        alpha: float = 0.05, threshold: float = 0.95,
                        encoding: str | None = None,
                        noninferiority_margin: float | None = None,
                        X=None, pairs: str | None = None) -> ComparisonReport:
    """Compare predictors on one test set from their per-example predictions (Williams Q1).

    Parameters
    ----------
    data : str, Path, DataFrame or dict of fitted estimators
        One row per test example: a ``y_true`` column and one prediction column per model
        (labels, or probabilities of the positive class for a binary task). A dict
        ``{name: fitted estimator}`` is run on the test set ``X`` (``predict``, or
        ``predict_proba`` for ``loss="log"``), with ``y_true`` its labels (an array). A
        2-D numpy array is read with rows = test examples, columns = models (named
        ``model_0``, ... or by ``models``), with ``y_true`` its labels (an array); a warning
        says when it looks transposed. With
        ``loss="given"`` the model columns are already per-example losses (lower is better)
        and ``y_true`` may be None.
    y_true : str or None
    models : sequence of str, optional
        Model columns (default: every other column).
    loss : {"zero-one", "log", "squared", "absolute", "given"}
    control : str, optional
        Compare every model with this one, the baseline (Williams §5.6; Demšar 2006 §3.2.2
        calls it the control), instead of all pairs.
    cluster : str, optional
        Column of cluster ids (a document, a speaker); losses are averaged per cluster before
        testing (Williams §6.1). ``group=`` is its deprecated name (one release).
    rope : float, optional
        0/1 loss: half-width of the ROPE around φ = 0.5 (default Williams eq. 7). Other losses:
        half-width in loss units (default 0.1 × sd of the differences).
    alpha, threshold : float
        Significance level; Bayesian decision threshold, in (0.5, 1).
    encoding : str, optional
        Encoding of a text file that is not UTF-8 (e.g. ``"cp1252"``).
    X : array-like, optional
        The test set of a dict of estimators (rows = examples).
    pairs : {"all", "neighbours", "control"}, optional
        More than two models: which pairs the conclusions and tables show in full, as in
        :func:`outperform.compare.compare` (``details["pairs"]``).
    noninferiority_margin : float, optional
        0/1 loss, two models: also test that the new model loses at most this much accuracy
        (accuracy units, 0.01 = one point) against the reference, by Tango's score test
        (:func:`~outperform.stats.noninferiority_test`; Tango 1998). The reference is
        ``control`` when given, else the second model.

    Returns
    -------
    ComparisonReport
        ``question="Q1"``; ``metric`` is the loss; ``higher_is_better=False``.

    Raises
    ------
    InvalidInputError, TooFewError
        Bad columns or values, unknown control (or ``control`` and its deprecated name
        ``reference`` naming different models), too few examples or models; predictions
        that are neither labels of ``y_true`` nor probabilities in [0, 1] (logits, scores,
        percentages), probabilities against a ``y_true`` not coded 0/1, label sets that do
        not match ``y_true``'s (see ``check_predictions`` in ``compare/_guards.py``).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y_true": [0, 1, 1, 0, 1, 1, 0, 1] * 5,
    ...                    "A": [0, 1, 1, 0, 1, 0, 0, 1] * 5, "B": [0, 1, 0, 1, 1, 1, 0, 1] * 5})
    >>> rep = compare_predictions(df)   # A wrong & B right on 5 examples, the reverse on 10
    >>> rep.recommended, round(rep.tests["mcnemar"].pvalue, 4)   # 2 * P(X <= 5 | 15, 1/2)
    ('bayesian_mcnemar', 0.3018)
    >>> rep.tests["bayesian_mcnemar"].decision
    'undecided'
    """
    check_choice(loss, "loss", LOSSES)
    check_probability(alpha, "alpha")
    check_threshold(threshold)
    if isinstance(data, np.ndarray):
        data, y_true = read_prediction_array(data, y_true, names=models), "y_true"
        models = None
    if is_estimators(data) or X is not None:
        if not is_estimators(data) or X is None:
            raise InvalidInputError("X= is the test set of a dict of fitted estimators "
                                    "{name: estimator}: give both, or a table of predictions.")
        data, y_true = estimator_predictions(data, X, y_true, loss=loss), "y_true"
    if loss != "given" and y_true is None:
        raise InvalidInputError(f"loss={loss!r} needs the true labels (y_true).")
    data = data if isinstance(data, pd.DataFrame) else read_table(data, encoding=encoding)
    y, preds, groups = read_predictions(data, y_true=None if loss == "given" else y_true,
                                        models=models, cluster=cluster)
    names = tuple(preds)
    warnings: list[str] = _cluster_warning(data, cluster) + check_predictions(y, preds, loss)
    if control is not None and control not in names:
        raise InvalidInputError(f"control {control!r} is not one of the models {list(names)}.")
    choose_pairs(names, control=control, pairs=pairs)     # a bad choice refused before work
    if noninferiority_margin is not None and (loss != "zero-one" or len(names) != 2
                                              or cluster is not None):
        raise InvalidInputError(
            "noninferiority_margin is a loss of accuracy between two models on one test set: "
            f"it needs loss='zero-one', exactly 2 models (got {len(names)}) and no cluster.")
    losses = {m: (np.asarray(p, dtype=float) if loss == "given" else per_example_losses(y, p, loss))
              for m, p in preds.items()}
    if loss == "log":
        warnings += _clipped_log_loss(y, preds)
    if groups is not None:
        codes, uniques = pd.factorize(groups)
        counts = np.bincount(codes)
        losses = {m: np.bincount(codes, weights=v) / counts for m, v in losses.items()}
        warnings.append(f"losses averaged over {len(uniques)} groups before testing: the groups, "
                        "not the examples, are the independent units (Williams 2026 §6.1).")
    summary = tuple(sorted(({"model": m, "mean_loss": float(v.mean()), "n_units": int(v.size)}
                            | _risk(loss, groups, v) for m, v in losses.items()),
                           key=lambda r: r["mean_loss"]))
    common = dict(question="Q1", metric=f"{loss} loss", higher_is_better=False, models=names,
                  n_tasks=1, alpha=alpha, summary=summary, control=control,
                  details={"loss": loss, "n_examples": int(len(next(iter(preds.values())))),
                           "groups": None if groups is None else int(len(set(groups)))})
    if loss == "zero-one" and groups is None:
        return _zero_one(y, preds, losses, names, control, rope, alpha, threshold, warnings,
                         common, noninferiority_margin, pairs)
    return _real_valued(losses, names, control, rope, alpha, threshold, warnings, common, pairs)


def _clipped_log_loss(y, preds) -> list[str]:
    """Say how many predictions gave the true class a probability below :data:`EPS`, whose
    log loss (infinite at 0) :func:`per_example_losses` clipped to −log(EPS)."""
    y = np.asarray(y, dtype=float)
    counts = {m: int(np.count_nonzero(np.where(y == 1, p, 1 - p) < EPS))
              for m, p in ((m, np.asarray(p, dtype=float)) for m, p in preds.items())}
    clipped = {m: c for m, c in counts.items() if c}
    if not clipped:
        return []
    which = ", ".join(f"{c} of {m!r}" for m, c in clipped.items())
    return [f"log loss clipped: {which} prediction(s) gave the true class a probability below "
            f"{EPS:g} (e.g. exactly 0), whose log loss is infinite or huge; each counts as "
            f"-log({EPS:g}) = {-np.log(EPS):.3g}. The comparison depends on this cap: check "
            "these predictions (a model that outputs hard 0/1 is better compared with "
            "loss='zero-one')."]


def _cluster_warning(data: pd.DataFrame, cluster) -> list[str]:
    if cluster is not None:
        return []
    hints = [c for c in data.columns
             if str(c).lower() in CLUSTER_HINTS and data[c].duplicated().any()]
    if not hints:
        return []
    return [f"column {hints[0]!r} looks like a cluster id (several examples share a value): "
            "examples of a cluster are not independent, so tests on examples are too confident; "
            f"pass cluster={hints[0]!r} (--cluster) to test on cluster means (Williams 2026 §6.1)."]


def _risk(loss, groups, v) -> dict:
    if loss != "zero-one" or groups is not None:
        return {}
    k, n = int(v.sum()), int(v.size)
    # Lacoste et al. (2012) §3: upper bound on the true risk with probability 0.95.
    return {"errors": k, "risk_upper_95": float(beta_risk_bound(k, n, delta=0.05))}


def _zero_one(y, preds, losses, names, control, rope, alpha, threshold, warnings, common,
              margin=None, pairs=None):
    correct = np.vstack([1 - losses[m] for m in names]).astype(bool)
    rationale = ("0/1 loss on one test set: McNemar's test on the discordant examples "
                 "(Dietterich 1998; Williams 2026 §5.1) and its Bayesian version, the Beta "
                 "posterior of φ = θ01/(θ01+θ10) (Lacoste et al. 2012 Thm 4.1) with the ROPE of "
                 "Williams eq. 7.")
    if len(names) == 2:
        c = discordance_counts(correct[0], correct[1])
        if c.n01 + c.n10 == 0:
            raise DegenerateDataError(
                f"{names[0]} and {names[1]} are right and wrong on exactly the same examples: "
                "the test set carries no evidence of a difference between them.")
        tests = {"mcnemar": mcnemar(c.n01, c.n10, method="exact"),
                 "mcnemar_midp": mcnemar(c.n01, c.n10, method="midp"),
                 "mcnemar_chi2": mcnemar(c.n01, c.n10, method="chi2", correction=True)}
        bm = bayesian_mcnemar(c.n01, c.n10, rope=None if rope is None else rope,
                              threshold=threshold)
        tests["bayesian_mcnemar"] = bm
        binary_scores = {m: p for m, p in preds.items() if _probabilities(np.asarray(p))}
        if len(binary_scores) == 2 and set(np.unique(y)) <= {0, 1}:
            tests["delong"] = delong_test(y, preds[names[0]], preds[names[1]])
        conclusions = [bayes_words(names, bm, losses, "error rate"),
                       mcnemar_words(names, tests["mcnemar"], c, losses, alpha)]
        if margin is not None:
            new = names[0] if control != names[0] else names[1]
            cn = c if new == names[0] else discordance_counts(correct[1], correct[0])
            tests["noninferiority"] = noninferiority_test(cn.n01, cn.n10, cn.n, margin=margin)
            conclusions.append(noninferiority_words(new, ({*names} - {new}).pop(),
                                                     tests["noninferiority"], alpha))
        if c.n01 + c.n10 < 25:
            warnings.append(f"only {c.n01 + c.n10} discordant examples: the chi-square version "
                            "of McNemar's test is unreliable; the exact test is the one to read.")
        return ComparisonReport(tests=tests, recommended="bayesian_mcnemar", rationale=rationale,
                                conclusions=tuple(conclusions), warnings=tuple(warnings), **common)
    tests = {"cochran_q": cochrans_q(correct, names=names)}
    post = {"mcnemar_holm": (against_control(correct, control, names=names, adjustment="holm",
                                               alpha=alpha) if control else
                             pairwise_mcnemar(correct, names=names, adjustment="holm", alpha=alpha)),
            "bayesian_mcnemar": pairwise_bayesian_mcnemar(correct, names=names, threshold=threshold,
                                                          rope=rope)}
    words, chosen = chosen_pair_words(post, "mcnemar_holm", losses, "error rate",
                                      common["summary"], control, pairs)
    conclusions = [omnibus_words(tests["cochran_q"], alpha)] + words
    return ComparisonReport(tests=tests, recommended="cochran_q", rationale=rationale,
                            posthoc=post, conclusions=tuple(conclusions),
                            warnings=tuple(warnings),
                            **{**common, "details": {**common["details"], "pairs": chosen}})


def _real_valued(losses, names, control, rope, alpha, threshold, warnings, common,
                 pairs=None):
    rationale = ("real-valued per-example losses: the paired t-test and the Bayesian t-test "
                 "(Williams 2026 §5.3, eq. 6) on the differences, with the Wilcoxon test on "
                 "examples as a check that does not assume normality.")
    tested = ([(names.index(control), j) for j in range(len(names)) if names[j] != control]
              if control else list(combinations(range(len(names)), 2)))
    if len(names) == 2:
        # Scores = negated losses, so that a positive difference favours A.
        a, b = -losses[names[0]], -losses[names[1]]
        tests = {"bayesian_t": bayesian_ttest(a, b, rope=rope, threshold=threshold),
                 "paired_t": _named_difference(paired_ttest(a, b), names),
                 "wilcoxon": wilcoxon(a, b, zero_method="pratt")}
        _normality(a - b, warnings)
        words = (bayes_words(names, tests["bayesian_t"], losses, "mean loss"),
                 freq_words(names, tests["paired_t"], losses, alpha, "mean loss"))
        if isinstance(rope, (int, float)) and not isinstance(rope, bool) and rope > 0:
            # The frequentist twin of the ROPE: equivalence within ±rope (Schuirmann 1987).
            tests["tost"] = _named_difference(tost(a, b, margin=float(rope)), names)
            words += (tost_words(names, tests["tost"], alpha),)
        elif rope is not None:
            warnings.append("rope = 0: no region of practical equivalence, so the Bayesian "
                            "t-test decides only which model is better; the TOST equivalence "
                            "test, whose margin is the ROPE, needs a positive margin and was "
                            "not run.")
        return ComparisonReport(tests=tests, recommended="bayesian_t", rationale=rationale,
                                conclusions=words, warnings=tuple(warnings), **common)
    k = len(names)
    # The promise of the rationale above holds for two models; with more, say what is run.
    rationale = (f"real-valued per-example losses of {k} models: each pair by the paired "
                 "t-test on its loss differences, Holm-adjusted (Williams 2026 §5.3, §5.6). "
                 "The Bayesian t-test and the Wilcoxon test are run on two models only: "
                 "compare a pair (models=[A, B], or a file with those two columns) for them.")
    stat, p = np.full((k, k), np.nan), np.full((k, k), np.nan)
    for i, j in tested:
        res = paired_ttest(-losses[names[i]], -losses[names[j]])
        stat[i, j], stat[j, i] = res.statistic, -res.statistic
        p[i, j] = p[j, i] = res.pvalue
    idx = tuple(np.array(tested).T)
    adj = np.full((k, k), np.nan)
    adj[idx] = adjust_pvalues(p[idx], "holm")
    adj[idx[::-1]] = adj[idx]
    post = PairwiseResult(method="paired t-test, Holm-adjusted", names=names, statistic=stat,
                          pvalue=p, pvalue_adjusted=adj,
                          reject=np.nan_to_num(adj, nan=1.0) < alpha, alpha=alpha,
                          adjustment="holm", control=control)
    words, chosen = chosen_pair_words({"paired_t_holm": post}, "paired_t_holm", losses,
                                      "mean loss", common["summary"], control, pairs)
    return ComparisonReport(tests={}, recommended="", rationale=rationale,
                            posthoc={"paired_t_holm": post}, conclusions=tuple(words),
                            warnings=tuple(warnings),
                            **{**common, "details": {**common["details"], "pairs": chosen}})


def _named_difference(res, names):
    """``res`` (on negated losses, so its estimate is mean loss B − A: positive favours A,
    the package's sign convention) with that difference named for the report's table, as
    the sentences of :func:`freq_words` and :func:`tost_words` name it."""
    a, b = names
    return replace(res, details=dict(res.details, estimate_name=(
        f"{b} − {a} = mean loss of {b} minus mean loss of {a} (positive favours {a})")))


def _normality(d: np.ndarray, warnings: list[str]) -> None:
    if d.size >= 8 and np.ptp(d) > 0:
        p = stats.shapiro(d[:5000]).pvalue
        if p < NORMALITY_ALPHA:
            warnings.append(f"the loss differences are not normal (Shapiro–Wilk p = {p:.2g}); the "
                            "t-tests rely on the central limit theorem here — check the QQ-plot "
                            "and the Wilcoxon test (Williams 2026 §5.3).")
