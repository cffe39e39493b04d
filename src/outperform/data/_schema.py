"""The tidy schema of DESIGN.md: column names, their aliases, and metric directions.

Long table, one row per measurement: ``task``, ``model``, optional ``run``, ``fold``,
``example``, one or more metric columns (default name ``score``), optional ``n_train``,
``n_test``, and optional ``cluster`` (the group of an item: passage, conversation; never a
metric).
"""
from __future__ import annotations

TASK, MODEL, RUN, FOLD, EXAMPLE = "task", "model", "run", "fold", "example"
N_TRAIN, N_TEST = "n_train", "n_test"
#: Optional label of the group an item belongs to (a passage, a conversation, the problem of
#: a sub-question): leaderboards resample whole clusters and use cluster-robust errors.
CLUSTER = "cluster"
KEYS = (TASK, MODEL, RUN, FOLD, EXAMPLE)
SIZES = (N_TRAIN, N_TEST)
# Bookkeeping columns written by the experiment runner; never treated as metrics.
NON_METRIC = set(KEYS) | set(SIZES) | {CLUSTER, "fit_time", "score_time", "random_state", "seed", "design"}

ALIASES = {
    "dataset": TASK, "data_set": TASK, "data set": TASK, "problem": TASK, "benchmark": TASK,
    "algorithm": MODEL, "classifier": MODEL, "learner": MODEL, "method": MODEL,
    "system": MODEL, "predictor": MODEL,
    "repeat": RUN, "repetition": RUN, "rep": RUN, "split": FOLD,
}

_LOWER_IS_BETTER = {
    "error", "error_rate", "err", "loss", "log_loss", "logloss", "cross_entropy", "nll",
    "mse", "rmse", "mae", "brier", "brier_score", "perplexity", "wer", "cer", "time",
    "runtime", "fit_time", "regret", "rank",
}
_HIGHER_IS_BETTER = {
    "score", "accuracy", "acc", "correct", "balanced_accuracy", "auc", "auroc", "roc_auc", "ap",
    "average_precision", "f1", "f1_macro", "f1_micro", "precision", "recall", "bleu",
    "rouge", "r2", "kappa", "mcc", "likelihood", "log_likelihood", "map", "ndcg",
}


def metric_direction(name: str) -> bool | None:
    """Whether a larger value of the metric called ``name`` is better, if the name tells.

    Returns ``True`` (accuracy, AUC, F1, ...), ``False`` (error, loss, MSE, ...) or ``None``
    when the name is unknown and the user must say.

    Examples
    --------
    >>> metric_direction("AUC"), metric_direction("log_loss"), metric_direction("foo")
    (True, False, None)
    """
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key in _HIGHER_IS_BETTER or key.startswith(("neg_", "accuracy")):
        return True
    if key in _LOWER_IS_BETTER or key.endswith(("_error", "_loss")):
        return False
    return None
