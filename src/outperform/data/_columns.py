"""What each column of a user's table is: one place for every command and API entry.

A column's *role* is read from its name (case and surrounding spaces ignored) and, for the
metric, its *direction* (is larger better?) and its *range* (units) from the metric's name:

========  ==========================================================================
role      names read as it (the first is the canonical name)
========  ==========================================================================
task      task, dataset, data_set, data set, problem, benchmark
model     model, algorithm, classifier, learner, method, system, predictor
run       run, repeat, repetition, rep, seed (a seed is one run of every model)
fold      fold, split
example   example (item ids: item, example, doc_id, sample_id, id)
cluster   cluster (the group of an item: passage, conversation; never a metric)
y_true    y_true, label, target, truth, ground_truth, gold, y_test, y
step      step, epoch, iteration, n_samples (learning curves)
winner    winner (battles: with model_a, model_b)
n_train   n_train; n_test: n_test
========  ==========================================================================

Metric directions follow scikit-learn's scorer names with or without the ``test_`` /
``train_`` prefix ``cross_validate`` gives them (``mean_test_`` of ``cv_results_``):
``neg_*`` scorers are negated losses, so larger is better (``test_neg_log_loss``).
"""
from __future__ import annotations

import re
from collections import Counter

import numpy as np

from .._validation import InvalidInputError

__all__ = ["column_role", "find_column", "metric_direction", "metric_units"]

TASK, MODEL, RUN, FOLD, EXAMPLE = "task", "model", "run", "fold", "example"
N_TRAIN, N_TEST = "n_train", "n_test"
#: Optional label of the group an item belongs to (a passage, a conversation, the problem of
#: a sub-question): leaderboards resample whole clusters and use cluster-robust errors.
CLUSTER = "cluster"
Y_TRUE, STEP, WINNER = "y_true", "step", "winner"
KEYS = (TASK, MODEL, RUN, FOLD, EXAMPLE)
SIZES = (N_TRAIN, N_TEST)
#: Bookkeeping columns written by the experiment runner; never treated as metrics.
NON_METRIC = set(KEYS) | set(SIZES) | {CLUSTER, "fit_time", "score_time", "random_state",
                                       "seed", "design"}

#: Other names of the key columns -> the canonical name (read only when the canonical
#: column is absent: a table with both ``run`` and ``seed`` keeps ``seed`` as it is).
ALIASES = {
    "dataset": TASK, "data_set": TASK, "data set": TASK, "problem": TASK, "benchmark": TASK,
    "algorithm": MODEL, "classifier": MODEL, "learner": MODEL, "method": MODEL,
    "system": MODEL, "predictor": MODEL,
    "repeat": RUN, "repetition": RUN, "rep": RUN, "seed": RUN, "split": FOLD,
}
#: Item-id columns of per-item tables, in order of preference.
ITEM_COLUMNS = ("item", "example", "doc_id", "sample_id", "id")
#: Names of the true-label column of a per-example predictions table, in order of preference.
Y_TRUE_COLUMNS = (Y_TRUE, "label", "target", "truth", "ground_truth", "gold", "y_test", "y")
STEP_COLUMNS = (STEP, "epoch", "iteration", "n_samples")
#: The human score of a table of human labels (``compare_evals(gold=)``), in order of
#: preference: a y_true-role column (the labels are the truth the judge is measured
#: against), then ``human``, then ``score`` (the evaluation table's own name).
GOLD_SCORE_COLUMNS = (*Y_TRUE_COLUMNS, "human", "human_score", "score")
#: Names of columns of a predictions table that usually identify clusters of examples
#: (Williams 2026 §6.1): candidates for a cluster, never a model's predictions.
CLUSTER_HINTS = ("group", "cluster", "doc", "document", "doc_id", "speaker", "subject",
                 "patient", "session", "video", "image_id", "user", "user_id")
BATTLE_COLUMNS = ("model_a", "model_b", WINNER)
#: Style features of battles (``leaderboard --battles --control-for``): a name given by the
#: user -> the features it stands for, each read from the columns ``<feature>_a`` and
#: ``<feature>_b`` (the two answers' values), the first spelling present. LMArena's names
#: (arena-rank's examples: sum_assistant_tokens, header_count, list_count, bold_count) first.
STYLE_GROUPS = {
    "length": (("sum_assistant_tokens", "tokens", "n_tokens", "length", "answer_tokens",
                "response_tokens", "chars"),),
    "markdown": (("header_count", "headers"), ("list_count", "lists"),
                 ("bold_count", "bold")),
}


def _key(name) -> str:
    return str(name).strip().lower()


def column_role(name) -> str | None:
    """The role of a column called ``name`` (see the module's table), or None (a metric, a
    note, anything else).

    Examples
    --------
    >>> column_role("Dataset"), column_role("seed"), column_role("label"), column_role("acc")
    ('task', 'run', 'y_true', None)
    """
    key = _key(name)
    if key in KEYS or key in SIZES or key in (CLUSTER, WINNER):
        return key
    if key in ALIASES:
        return ALIASES[key]
    if key in ITEM_COLUMNS:
        return EXAMPLE
    if key in Y_TRUE_COLUMNS:
        return Y_TRUE
    if key in STEP_COLUMNS:
        return STEP
    return None


def find_column(columns, role: str) -> object | None:
    """The column of ``columns`` that plays ``role``, as it is spelt there, or None.

    The canonical name wins over its aliases, and aliases in the order of the module's table
    (``y_true`` before ``label`` before ``y``; ``item`` before ``id``).

    Examples
    --------
    >>> find_column(["Dataset", "Classifier", "acc"], "task"), find_column(["ID"], "example")
    ('Dataset', 'ID')
    """
    names = {}
    for c in reversed(list(columns)):
        names[_key(c)] = c
    order = {EXAMPLE: ITEM_COLUMNS, Y_TRUE: Y_TRUE_COLUMNS, STEP: STEP_COLUMNS}.get(
        role, (role, *(a for a, r in ALIASES.items() if r == role)))
    return next((names[k] for k in order if k in names), None)


def gold_score_column(columns):
    """The human-score column of a table of human labels, as spelt there, or None (the
    first of :data:`GOLD_SCORE_COLUMNS` present).

    Examples
    --------
    >>> gold_score_column(["model", "item", "Human"]), gold_score_column(["item", "label"])
    ('Human', 'label')
    """
    names = {}
    for c in reversed(list(columns)):
        names[_key(c)] = c
    return next((names[k] for k in GOLD_SCORE_COLUMNS if k in names), None)


def item_column(columns):
    """The item-id column among ``columns``, as it is spelt there (``"ID"`` for ``id``), or
    None: the first of :data:`ITEM_COLUMNS` present, whatever the case and surrounding
    spaces."""
    return find_column(columns, EXAMPLE)


def canonical_columns(df):
    """``df`` with its key columns renamed to their canonical names (``Dataset`` -> ``task``,
    ``classifier`` -> ``model``, ``seed`` -> ``run``, ...; an alias only when the canonical
    column is absent).

    Raises
    ------
    InvalidInputError
        Two columns that end up with one name.
    """
    rename = {}
    for col in df.columns:
        key = _key(col)
        if key in KEYS:
            rename[col] = key
        elif key in ALIASES and ALIASES[key] not in df.columns:
            rename[col] = ALIASES[key]
    df = df.rename(columns=rename) if rename else df.copy()   # copy: lazy (copy on write)
    dup = df.columns[df.columns.duplicated()]
    if len(dup):
        raise InvalidInputError(
            f"column {dup[0]!r} appears twice (after reading aliases such as dataset -> task, "
            "classifier -> model, seed -> run): rename or drop one of them.")
    return df


def refuse_stripped_twins(names, col: str) -> None:
    """Raise if two names differ only by surrounding spaces ("A", " A", "A ")."""
    text = list(dict.fromkeys(str(n) for n in names))
    stripped = [t.strip() for t in text]
    if len(set(stripped)) < len(stripped):
        twin = next(t for t, n in Counter(stripped).items() if n > 1)
        same = [t for t, s in zip(text, stripped) if s == twin]
        raise InvalidInputError(
            f"the {col} names {same} differ only by spaces around them: they would be "
            f"compared as different {col}s. Strip the spaces (e.g. "
            f"df[{col!r}] = df[{col!r}].str.strip()), or rename them if they are different.")


def style_columns(columns, name: str) -> list[tuple[str, object, object]]:
    """The style features a ``--control-for`` name stands for, and their two columns.

    Parameters
    ----------
    columns : sequence
        The battle table's columns.
    name : str
        ``length``, ``markdown`` (:data:`STYLE_GROUPS`), or any feature with columns
        ``<name>_a`` and ``<name>_b``, or one per-battle column ``<name>`` (a covariate
        used as it is; returned with B's column None).

    Returns
    -------
    list of (feature, column of A, column of B or None)

    Raises
    ------
    InvalidInputError
        No such columns, naming what was looked for.
    """
    by_key = {_key(c): c for c in columns}
    key = _key(name)
    found = []
    for spellings in STYLE_GROUPS.get(key, ((key,),)):
        for s in spellings:
            if f"{s}_a" in by_key and f"{s}_b" in by_key:
                found.append((s, by_key[f"{s}_a"], by_key[f"{s}_b"]))
                break
        else:
            if key not in STYLE_GROUPS and key in by_key:
                found.append((key, by_key[key], None))
    if not found:
        wanted = [f"{s[0]}_a/{s[0]}_b" for s in STYLE_GROUPS.get(key, ((key,),))]
        raise InvalidInputError(
            f"--control-for {name!r}: the battles table has no columns {', '.join(wanted)}"
            f"{'' if key in STYLE_GROUPS else f' nor {key}'} (the values of the answers of "
            f"model A and model B; columns found: {', '.join(map(str, columns))}).")
    return found


def looks_like_battles(columns) -> bool:
    """Whether a table with these columns holds pairwise battles (model_a, model_b, winner)."""
    return set(BATTLE_COLUMNS) <= {_key(c) for c in columns}


def refuse_battles(columns, expected: str = "a results table") -> None:
    """Raise if a table given where ``expected`` is wanted holds pairwise battles."""
    if looks_like_battles(columns):
        raise InvalidInputError(
            "this looks like battles (columns model_a, model_b, winner: one row per "
            f"comparison of two models), not {expected}: rate them with `outperform "
            "leaderboard FILE --battles` (outperform.compare.bradley_terry).")


# --- the metric: direction and range --------------------------------------------------------

_LOWER_IS_BETTER = {
    "error", "error_rate", "err", "loss", "log_loss", "logloss", "cross_entropy", "nll",
    "mse", "rmse", "mae", "brier", "brier_score", "brier_score_loss", "perplexity", "wer",
    "cer", "time", "runtime", "fit_time", "score_time", "regret", "rank",
    "word_perplexity", "byte_perplexity", "bits_per_byte",
    "max_error", "mean_absolute_error", "mean_squared_error", "median_absolute_error",
}
_HIGHER_IS_BETTER = {
    "score", "accuracy", "acc", "correct", "balanced_accuracy", "auc", "auroc", "roc_auc", "ap",
    "average_precision", "f1", "f1_macro", "f1_micro", "precision", "recall", "bleu",
    "rouge", "r2", "kappa", "mcc", "likelihood", "log_likelihood", "map", "ndcg",
    "explained_variance", "jaccard", "top_k_accuracy", "matthews_corrcoef",
    "acc_norm", "match", "includes", "exact_match", "quasi_exact_match",
}
#: Families of scikit-learn scorers (``f1_weighted``, ``roc_auc_ovr``, ``jaccard_macro``, ...)
#: and its negated losses (``neg_log_loss``): larger is better.
_HIGHER_PREFIXES = ("neg_", "accuracy", "f1_", "precision_", "recall_", "jaccard_",
                    "roc_auc_", "average_precision_", "positive_likelihood_ratio")
#: Prefixes scikit-learn puts before a scorer's name: ``cross_validate`` (test_, train_),
#: ``GridSearchCV.cv_results_`` (mean_test_, split0_test_, ...; ``rank_test_`` is a rank).
_SKLEARN_PREFIX = re.compile(r"^(?:split\d+_|mean_|std_)?(?:test|train)_")


def _metric_key(name) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def metric_direction(name: str) -> bool | None:
    """Whether a larger value of the metric called ``name`` is better, if the name tells.

    Returns ``True`` (accuracy, AUC, F1, scikit-learn's ``neg_*`` scorers, ...), ``False``
    (error, loss, MSE, ...) or ``None`` when the name is unknown and the user must say.
    scikit-learn's ``test_``/``train_`` (and ``mean_test_``) prefixes are read through:
    ``test_neg_log_loss`` holds negated log losses, so higher is better; ``rank_test_*`` is
    a rank (lower is better); ``std_test_*`` is a spread, not a score (None).

    Examples
    --------
    >>> metric_direction("AUC"), metric_direction("log_loss"), metric_direction("foo")
    (True, False, None)
    >>> metric_direction("test_neg_log_loss"), metric_direction("train_accuracy")
    (True, True)
    """
    key = _metric_key(name)
    if key.startswith("std_"):
        return None
    if key.startswith("rank_test_"):
        return False
    key = _SKLEARN_PREFIX.sub("", key, count=1) or key
    if key in _HIGHER_IS_BETTER:
        return True
    if key in _LOWER_IS_BETTER:
        return False
    if key.startswith(_HIGHER_PREFIXES):
        return True
    if key.endswith(("_error", "_loss")):
        return False
    if key.endswith("_score"):   # scikit-learn's *_score functions and scorers
        return True
    return None


#: Metrics whose values are fractions in [0, 1] (or percentages in [0, 100]).
_PROPORTIONS = {
    "accuracy", "acc", "acc_norm", "balanced_accuracy", "auc", "auroc", "roc_auc", "ap",
    "average_precision", "precision", "recall", "error_rate", "exact_match", "brier",
    "brier_score", "brier_score_loss", "jaccard", "top_k_accuracy",
}


def metric_units(name) -> str | None:
    """``"proportion"`` for a metric whose values lie in [0, 1] by definition (accuracy,
    AUC, precision, error rate, ...; with or without scikit-learn's prefixes, and F1 in any
    averaging), else None (no range known)."""
    key = _SKLEARN_PREFIX.sub("", _metric_key(name), count=1)
    if key in _PROPORTIONS or key.startswith(("f1", "roc_auc", "precision_", "recall_",
                                              "accuracy")):
        return "proportion"
    return None


def metric_range_warning(name, values) -> str | None:
    """A warning for the values of a metric whose name fixes their range, else None.

    A proportion (see :func:`metric_units`) below 0 or above 100 cannot be one (a loss, a
    difference or synthetic numbers under this name?); values all in (1, 100] look like
    percentages. Both are warned of, not refused: the tests on ranks do not depend on the
    units, but effect sizes, intervals and ROPEs are read in them, and a reader of the
    report should know. NaN is skipped.
    """
    if metric_units(name) != "proportion":
        return None
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if not x.size:
        return None
    low, high = float(x.min()), float(x.max())
    if low < 0 or high > 100:
        bad = low if low < 0 else high
        return (f"UNITS: {str(name)!r} holds {bad:g}, but it names a proportion, which lies "
                "in [0, 1] (or [0, 100] as a percentage): check the column (a loss or a "
                "difference under this name?), or name the metric by what it holds.")
    if low > 1:
        return (f"UNITS: the values of {str(name)!r} lie in [{low:g}, {high:g}]: they look "
                "like percentages, not fractions in [0, 1]. The ranks and tests are the same "
                "either way; effect sizes, intervals and ROPEs are read in these units "
                "(divide by 100 for fractions).")
    return None
