"""``compare()``: one entry point that picks the question and the tests from the data."""
from __future__ import annotations

import functools
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from .._deprecation import renamed
from .._validation import (InvalidInputError, OutperformError, PerformanceWarning,
                           check_random_state, check_threshold)
from ..data._columns import MODEL, TASK, Y_TRUE, find_column, item_column
from ..data._evals._long import is_item_table
from ..data._files import read_columns
from ..data._io import read_results, read_table
from ..data._mlflow_uri import is_mlflow_uri
from ..data._results_table import ResultsTable, ScoreMatrix
from ..data._table_checks import _flat
from ..results import ComparisonReport
from ._inputs import convert_input, with_provenance
from ._api_options import (check_option_types, given_options, with_assumed_direction,
                           with_ignored_options)
from ._q3 import compare_many_tasks
from ._q3_anova import OMNIBUS
from ._q3_bayes import add_bayesian_section, check_prior_strength

QUESTIONS = ("auto", "Q1", "Q2", "Q3")
#: Bootstrap resamples of the leaderboard that Q1 with more than two predictors includes
#: (compare.leaderboard's default is 1000): the 95% critical value is then the empirical
#: quantile at 0.95 ± 0.01 (binomial standard error sqrt(0.95 * 0.05 / 500)), and the
#: bootstrap adds about 0.05 s to a Q1 comparison of 5 models on 500 examples. For tighter
#: sets call outperform.compare.leaderboard with more resamples.
Q1_LEADERBOARD_RESAMPLES = 500


def infer_question(table: ResultsTable) -> str:
    """Williams (2026) question answered by a results table.

    ``Q3`` when there are several tasks. (Q1 — per-example results on one test set — and Q2 —
    resampling folds on one task — are recognised by the ``example`` and ``fold`` columns.)
    """
    if len(table.tasks) > 1:
        return "Q3"
    if "example" in table.frame.columns:
        return "Q1"
    return "Q2"


def _reads_trackers(func):
    """``compare`` of an ``mlflow://`` URI reads its runs first
    (:func:`outperform.data.read_mlflow`); a table a tracker's reader gave keeps where it came
    from (its ``attrs["provenance"]``) in the report's ``details["source"]``."""
    @functools.wraps(func)
    def wrapper(data, *args, **kwargs):
        if is_mlflow_uri(data):
            from ..data._mlflow import read_mlflow_uri

            data = read_mlflow_uri(data, metric=kwargs.get("metric"))
        source = data.attrs.get("provenance") if isinstance(data, pd.DataFrame) else None
        report = func(data, *args, **kwargs)
        if source is None:
            return report
        return replace(report, details={**report.details, "source": dict(source)})
    return wrapper


@renamed(group="cluster")
@_reads_trackers
def compare(data, *, question: str = "auto", metric: str | None = None,
            higher_is_better: bool | None = None, alpha: float = 0.05,
            control: str | None = None, posthoc: str | Sequence[str] = "auto",
            aggregate: str = "mean", rope: float | None = None, rho: float | None = None,
            threshold: float = 0.95, bayesian: bool = False,
            prior_strength: float | None = None, random_state=0, y_true: str = "y_true",
            loss: str = "zero-one", cluster: str | None = None,
            hierarchical: bool = False, encoding: str | None = None,
            progress: bool = False, omnibus: str = "friedman", top: int | None = None,
            n_train: float | None = None, n_test: float | None = None,
            pairs: str | None = None) -> ComparisonReport:
    """Compare models or algorithms and report decisions, effect sizes and warnings.

    Parameters
    ----------
    data : str, Path, DataFrame, ResultsTable, ScoreMatrix, ndarray or scikit-learn results
        Results in the tidy schema (see :func:`outperform.data.read_results`) or a file of them.
        A fitted ``GridSearchCV``/``RandomizedSearchCV``/``HalvingGridSearchCV`` (or its
        ``cv_results_``), or a dict ``{name: cross_validate(...)}``, is read by
        :func:`outperform.data.read_sklearn`: one model per candidate, named by the
        parameters that vary, the design (repeats × folds) read from the splitter; its
        provenance is in ``report.details["source"]``. A 2-D numpy array is read with
        rows = folds (``question="Q2"``; then ``rho`` or ``n_train``/``n_test`` is needed)
        or rows = tasks (``"Q3"``, the default), columns = models named ``model_0``,
        ``model_1``, ... (a DataFrame names them); a warning says when it looks transposed.
        MLflow runs named by a URI, ``"mlflow://HOST:PORT/EXPERIMENT"``, are read by
        :func:`outperform.data.read_mlflow` (``details["source"]`` says where they came from).
        Over several data sets (Q3), (task, model) cells may be missing (absent rows, or NaN
        in every run/fold of the cell): they are listed in a warning and in
        ``details["missing_cells"]``, and the Skillings–Mack (or Durbin) test and Wilcoxon
        tests on each pair's common data sets are used (see
        :func:`outperform.compare._q3_incomplete.compare_incomplete`).
    question : {"auto", "Q1", "Q2", "Q3"}
        Force the question; ``"auto"`` infers it from the columns: a ``y_true`` column means
        per-example predictions on one test set (Q1), folds on one task mean Q2, several tasks
        mean Q3. Without a ``y_true`` column, a column of repeated true labels named as
        :func:`outperform.data.column_role` reads them (``label``, ``target``, ``y``, ...)
        in a table without task and model columns is taken as ``y_true`` (Q1).
    metric, higher_is_better :
        Which metric, and its direction when its name does not tell.
    alpha : float
        Significance level.
    control : str, optional
        A model to compare with every other one (e.g. the baseline).
    posthoc : str or sequence of str
        Post-hoc procedure for k >= 3 (see :func:`outperform.compare._q3.compare_many_tasks`),
        or several run on one ranking: ``posthoc=("nemenyi", "holm"), control="X"`` reports
        Nemenyi on all pairs and Holm and Bonferroni–Dunn against X, in
        ``report.posthoc["nemenyi"]``, ``["holm"]`` and ``["bonferroni-dunn"]``.
    aggregate : {"mean", "median"}
        Rule that reduces the folds/runs of a (task, model) cell to one score for Q3.
    rope : float, optional
        Half-width of the region of practical equivalence in metric units (Bayesian tests).
    rho : float, optional
        Q2: correlation of fold differences (default from n_train/n_test, or 1/k).
    threshold : float in (0.5, 1)
        Decision threshold of the Bayesian tests (Williams 2026 §5.2): the posterior
        probability one region must reach. At 0.5 or below two regions could reach it at
        once, so such values are refused.
    bayesian : bool
        Q3: add the Bayesian signed-rank and sign tests (Benavoli et al. 2017) and, when folds
        are present, the Poisson test (Corani & Benavoli 2015).
    prior_strength : float > 0, optional
        Q3 Bayesian: weight s of the Dirichlet-process prior pseudo-observation (Benavoli et
        al. 2017); default 0.5 for the signed-rank test and 1 for the sign test.
    random_state : int or numpy Generator
        Seed of the Monte Carlo draws of the Bayesian tests, and of the permutations of the
        Friedman test over at most 10 data sets when its exact distribution is too large to
        enumerate.
    hierarchical : bool
        Q3 with per-fold results of two models: add the hierarchical correlated t-test
        (Benavoli et al. 2017). A table of per-task ``n01``/``n10`` counts is always analysed
        with the hierarchical McNemar model (Williams 2026 §5.5); its optional ``model_a`` and
        ``model_b`` columns name the two models (see
        :func:`outperform.compare._hierarchical.compare_counts`).
    y_true, loss, cluster :
        Q1 only, see :func:`outperform.compare.compare_predictions` (``cluster``: the column
        of cluster ids; ``group=`` is its deprecated name, one release).
    encoding : str, optional
        Encoding of a text file that is not UTF-8 (a Python codec name such as ``"cp1252"``),
        see :func:`outperform.data.read_results`.
    progress : bool
        Show the progress of long steps on stderr (the hierarchical t-test's MCMC), drawn
        only on a terminal; the command line turns it on.
    omnibus : {"friedman", "anova"}
        Q3 with k >= 3 models: the omnibus test. ``"friedman"`` (default): Friedman /
        Iman–Davenport, then the rank post-hoc tests of ``posthoc`` (Demšar 2006 §3.2.2).
        ``"anova"``: the repeated-measures ANOVA (Demšar §3.2.1; it assumes normal scores
        and sphericity, which the report warns about, with the Greenhouse–Geisser p-value)
        and paired t-tests with Holm's correction (``posthoc`` "auto"/"holm"/"none"), in
        ``tests["repeated_measures_anova"]`` and ``posthoc["paired_t_holm"]``.
    top : int >= 2, optional
        A scikit-learn search: compare only its best ``top`` candidates by mean test score.
        With a multi-metric search, ``metric`` names the scorer (default: its ``refit``).
    n_train, n_test : float, optional
        Q2: sizes of a training and of a test set, for the correlation of the corrected
        t-test, rho = n_test / (n_train + n_test) (Nadeau & Bengio 2003); added to a table
        that lacks them, or the design of scikit-learn results whose splitter is unknown.
    pairs : {"all", "neighbours", "control"}, optional
        Q1 and Q3 with several models: which pairs the conclusions and post-hoc tables show
        in full (:func:`outperform.compare._pair_choice.choose_pairs` on the summary's
        ranking): by default each model against ``control``, every pair up to 6 models,
        else the neighbours in the ranking; the tests still run on all pairs, a sentence
        counts those that differ and ``details["pairs"]`` records the choice.

    Returns
    -------
    ComparisonReport
        Its ``warnings`` name, among others: an option given that the question answered does
        not use (e.g. ``rho`` for Q3); a metric whose direction was assumed (first, prefixed
        "DIRECTION:"); a model whose scores look like percentages among fractions (first,
        "UNITS:"); a Q2 design of fewer than 5 folds; Bayesian decisions over data sets
        withheld below :func:`outperform.compare.min_data_sets` data sets, or fragile up to
        twice that. For Q1 with more than two predictors, ``leaderboard`` holds their rank
        confidence sets, tiers and compact letters (:func:`outperform.compare.leaderboard`
        with ``n_resamples=500``, seeded by ``random_state``; ``cluster`` gives its clusters),
        which every format of the report shows.

    Raises
    ------
    InvalidInputError, TooFewError
        Bad or insufficient input (see :func:`read_results`); an option of the wrong type
        (``alpha="0.05"``, ``higher_is_better="no"``: only True, False or None); Q1 predictions that are neither
        labels of ``y_true`` nor probabilities (see :func:`compare_predictions`); a
        ``threshold`` outside (0.5, 1); a ``prior_strength`` that is not > 0; missing
        cells in a Q2 table or with ``bayesian=``/``hierarchical=``, or with a post-hoc test
        that needs every cell; with ``question="auto"``, a long table of per-item scores
        (``model``, an item id such as ``item`` or ``id``, ``score``, no run/fold column),
        which :func:`outperform.compare.compare_evals` compares paired by item.

    Examples
    --------
    >>> from outperform.data import load_demsar_table6
    >>> rep = compare(load_demsar_table6(), alpha=0.10)
    >>> [row["model"] for row in rep.summary]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> round(rep.tests["iman_davenport"].statistic, 2)
    3.69
    """
    if question not in QUESTIONS:
        raise InvalidInputError(f"question must be one of {QUESTIONS}, got {question!r}.")
    # Bad values are errors even where the route taken does not use them.
    check_option_types(metric=metric, higher_is_better=higher_is_better, alpha=alpha,
                        aggregate=aggregate, rope=rope, rho=rho, bayesian=bayesian,
                        y_true=y_true, loss=loss, cluster=cluster, hierarchical=hierarchical,
                        encoding=encoding, progress=progress)
    check_random_state(random_state)
    check_threshold(threshold)
    if omnibus not in OMNIBUS:
        raise InvalidInputError(f"omnibus must be one of {OMNIBUS}, got {omnibus!r}.")
    if prior_strength is not None:
        check_prior_strength(prior_strength)
    converted = convert_input(data, question=question, metric=metric,
                              higher_is_better=higher_is_better, top=top, n_train=n_train,
                              n_test=n_test, rho=rho, encoding=encoding)
    data, higher_is_better, metric = (converted.data, converted.higher_is_better,
                                      converted.metric)
    report = _compare(data, question=question, metric=metric,
                      higher_is_better=higher_is_better, alpha=alpha, control=control,
                      posthoc=posthoc, aggregate=aggregate, rope=rope, rho=rho,
                      threshold=threshold, bayesian=bayesian, prior_strength=prior_strength,
                      random_state=random_state, y_true=y_true, loss=loss, cluster=cluster,
                      hierarchical=hierarchical, encoding=encoding, progress=progress,
                      omnibus=omnibus, n_train=n_train, n_test=n_test, pairs=pairs)
    return with_provenance(report, converted)


def _compare(data, *, question, metric, higher_is_better, alpha, control, posthoc, aggregate,
             rope, rho, threshold, bayesian, prior_strength, random_state, y_true, loss,
             cluster, hierarchical, encoding, progress, omnibus, n_train,
             n_test, pairs=None) -> ComparisonReport:
    """compare() on a table, a file or a ScoreMatrix (the options checked)."""
    if isinstance(data, pd.DataFrame):
        data = _flat(data)
    columns = _columns(data, encoding)
    task_column = _task_column(columns)
    if question in ("auto", "Q1") and y_true == Y_TRUE and y_true not in columns:
        y_true = _true_labels(data, columns, encoding) or y_true
    if question == "auto" and y_true in columns and task_column and _model_column(columns):
        raise InvalidInputError(_long_predictions(y_true, task_column, _model_column(columns)))
    if question == "auto" and y_true in columns and task_column:
        raise InvalidInputError(
            f"the table has a {y_true!r} column, read as the true labels of per-example "
            f"predictions (one task), and a {task_column!r} column, read as data sets: if "
            f"{y_true!r} names a model, rename that column; for predictions, drop the "
            f"{task_column!r} column.")
    given = given_options(compare, metric=metric, higher_is_better=higher_is_better, control=control,
                           posthoc=posthoc, aggregate=aggregate, rope=rope, rho=rho,
                           threshold=threshold, prior_strength=prior_strength,
                           random_state=random_state, y_true=y_true, loss=loss, cluster=cluster,
                           hierarchical=hierarchical, omnibus=omnibus, n_train=n_train,
                           n_test=n_test, pairs=pairs)
    # Each question imports its own module: a Q3 table does not load the Q1/Q2 and
    # hierarchical kernels (scipy.optimize among them).
    if question == "Q1" or (question == "auto" and y_true in columns):
        from ._q1 import compare_predictions

        frame = data if isinstance(data, pd.DataFrame) else read_table(data, encoding=encoding)
        report = compare_predictions(frame, y_true=y_true, loss=loss, control=control,
                                     cluster=cluster, rope=rope, alpha=alpha, threshold=threshold,
                                     pairs=pairs)
        report = _with_leaderboard(report, frame, y_true=y_true, loss=loss, cluster=cluster,
                                   alpha=alpha, random_state=random_state)
        return with_ignored_options(report, "Q1", given)
    if question == "auto" and is_item_table(columns):
        raise InvalidInputError(_per_item_scores(columns))
    if "n01" in columns and "n10" in columns:
        from ._hierarchical import compare_counts

        return with_ignored_options(compare_counts(data, alpha=alpha, threshold=threshold,
                                                    encoding=encoding), "counts", given)
    if isinstance(data, ScoreMatrix):
        scores = data
    else:
        from .._cost import COMPARE_SECONDS_PER_BYTE, check_read_cost

        check_read_cost(data, what="reading and comparing a results file",
                        seconds_per_byte=COMPARE_SECONDS_PER_BYTE,
                        advice="average the runs or folds before (one row per task and model)")
        # Missing cells are accepted here and refused below by the analyses that need them.
        table = read_results(data, metric=metric, higher_is_better=higher_is_better,
                             encoding=encoding, missing="allow")
        q = infer_question(table) if question == "auto" else question
        if q == "Q1":
            raise InvalidInputError(
                "these results hold per-example values of one task (Q1) but no true labels: "
                f"add a {y_true!r} column, or, for per-example losses in one column per model, "
                "compare them with loss='given' (outperform compare-predictions FILE --loss "
                "given).")
        if q == "Q2":
            from ._q2 import compare_one_task

            table.require_complete(metric)
            report = compare_one_task(table, metric=metric, alpha=alpha, rope=rope, rho=rho,
                                      threshold=threshold, control=control)
            return with_ignored_options(with_assumed_direction(report, table), "Q2", given)
        scores = table.score_matrix(metric, aggregate=aggregate)
    if (bayesian or hierarchical) and scores.missing_cells:
        cells = scores.missing_cells
        raise InvalidInputError(
            f"{len(cells)} (task, model) cell(s) have no result, e.g. {list(cells[:3])}: the "
            "Bayesian and hierarchical tests need every cell. Drop bayesian=/hierarchical= "
            "(--bayesian/--hierarchical) for the frequentist tests of incomplete tables "
            "(Skillings–Mack), or complete the runs.")
    if hierarchical and not isinstance(data, ScoreMatrix):
        from .._cost import check_mcmc_cost

        check_mcmc_cost(scores.values.shape[0])      # announced before the other tests run
    report = compare_many_tasks(scores, alpha=alpha, control=control, posthoc=posthoc,
                                random_state=random_state, omnibus=omnibus, pairs=pairs)
    if not isinstance(data, ScoreMatrix):
        from ._q3_replicability import add_replicability

        report = add_replicability(report, scores, table)
    if bayesian:
        report = add_bayesian_section(
            report, scores, None if isinstance(data, ScoreMatrix) else table, rope=rope,
            prior_strength=prior_strength, threshold=threshold, random_state=random_state)
    if hierarchical:
        if isinstance(data, ScoreMatrix):
            raise InvalidInputError("the hierarchical t-test needs the per-fold results, not "
                                    "one score per cell.")
        from ._hierarchical import add_hierarchical_ttest

        with warnings.catch_warnings():     # its estimate was given above
            warnings.simplefilter("ignore", PerformanceWarning)
            report = add_hierarchical_ttest(report, table, rope=rope, threshold=threshold,
                                            random_state=random_state, progress=progress)
    q3 = "Q3" + (" bayesian" if bayesian else "") + (" hierarchical" if hierarchical else "")
    if not isinstance(data, ScoreMatrix):
        report = with_assumed_direction(report, table)
    return with_ignored_options(report, q3, given)


def _with_leaderboard(report: ComparisonReport, frame: pd.DataFrame, *, y_true, loss, cluster,
                      alpha, random_state) -> ComparisonReport:
    """Q1 with more than two predictors: add their leaderboard (rank confidence sets, tiers,
    letters; :func:`outperform.compare.leaderboard`), from
    :data:`Q1_LEADERBOARD_RESAMPLES` bootstrap resamples; ``cluster`` gives its clusters."""
    k = len(report.models)
    if k <= 2:
        return report
    from ._leaderboard import leaderboard

    settings = dict(alpha=alpha, n_resamples=Q1_LEADERBOARD_RESAMPLES,
                    random_state=random_state)
    try:
        if loss == "given":   # per-example losses, one column per model: long per-item scores
            items = pd.DataFrame({"model": np.repeat(report.models, len(frame)),
                                  "example": np.tile(np.arange(len(frame)), k),
                                  "loss": frame[list(report.models)].to_numpy().ravel("F")})
            if cluster is not None:
                items["cluster"] = np.tile(frame[cluster].to_numpy(), k)
            board = leaderboard(items, metric="loss", higher_is_better=False,
                                cluster="cluster" if cluster is not None else None, **settings)
        else:
            board = leaderboard(frame, y_true=y_true, loss=loss, cluster=cluster, **settings)
    except OutperformError as exc:
        return replace(report, warnings=report.warnings + (
            f"the leaderboard (rank confidence sets) was not computed: {exc}",))
    note = _control_family_note(report, board)
    if note:
        board = replace(board, notes=board.notes + (note,))
    return replace(report, leaderboard=board)


def _control_family_note(report: ComparisonReport, board) -> str | None:
    """With a control, the conclusions test k − 1 pairs and the letters all pairs, each
    Holm-adjusted in its own family: say on which pairs the two decisions differ."""
    post = next((report.posthoc[k] for k in ("mcnemar_holm", "paired_t_holm")
                 if k in report.posthoc), None)
    if report.control is None or post is None or post.control is None:
        return None
    c = board.names.index(report.control)
    differ = [m for j, m in enumerate(board.names) if j != c
              and bool(post.reject[post.names.index(report.control), post.names.index(m)])
              != bool(board.pairwise.reject[c, j])]
    if not differ:
        return None
    return (f"the conclusions compare each model with the control {report.control} (Holm "
            f"over {len(board.names) - 1} pairs), the letters all pairs (Holm over "
            f"{len(board.names) * (len(board.names) - 1) // 2}): they decide differently on "
            f"{report.control} vs {', '.join(differ)}; the conclusions' family is the one "
            "the control asks for.")


def _columns(data, encoding: str | None) -> tuple:
    if isinstance(data, pd.DataFrame):
        return tuple(data.columns)
    if isinstance(data, (str, Path)) and Path(data).is_file():
        # the header only: a large file is read once, later
        return read_columns(data, encoding=encoding)
    return ()


def _task_column(columns: tuple, key: str = TASK) -> str | None:
    """The column naming the data sets (``task`` or an alias such as ``dataset``), if any;
    with ``key=MODEL`` the one naming the models."""
    return find_column(columns, key)


def _true_labels(data, columns: tuple, encoding) -> str | None:
    """The true-label column of a table of per-example predictions whose labels are not
    called ``y_true`` (``label``, ``target``, ``y``, ...; see
    :mod:`outperform.data._columns`), or None.

    Only a table without task and model columns, whose label column repeats values (labels
    do; the names of a wide table's data sets do not), is read so: such a table would
    otherwise be analysed as one "data set" per example.
    """
    found = find_column(columns, Y_TRUE)
    if found is None or _task_column(columns) or _model_column(columns) or len(columns) < 3:
        return None
    frame = data if isinstance(data, pd.DataFrame) else (
        read_table(data, encoding=encoding) if isinstance(data, (str, Path)) else None)
    if frame is None or frame[found].nunique() >= len(frame):
        return None
    return found


def _model_column(columns: tuple) -> str | None:
    return _task_column(columns, MODEL)


def _long_predictions(y_true: str, task: str, model: str) -> str:
    """What works on per-example predictions in long form (one row per task, example and
    model, as ``outperform benchmark --predictions`` writes them): dropping the task column
    would not do, the Q1 route reads one column of predictions per model."""
    return (f"the table looks like per-example predictions in long form (columns {task!r}, "
            f"{model!r}, {y_true!r}: one row per example and model, as `outperform benchmark "
            "--predictions` writes them). `outperform leaderboard FILE` "
            "(outperform.compare.leaderboard) ranks the models on this file directly (a "
            "file of one task); to compare the models over the data sets, compare the per-fold "
            "scores the benchmark wrote to --out; or pivot one task to one column of "
            f"predictions per model beside {y_true!r}, e.g. df.pivot(index='example', "
            f"columns={model!r}, values='y_pred').")


def _per_item_scores(columns: tuple) -> str:
    """Why compare() does not read a long table of per-item scores, and what does.

    Its analysis (per task, each pair of models paired by item; over tasks, Q3 and the
    hierarchical McNemar) is an EvalComparison, not the one ComparisonReport compare()
    returns; the options of compare (post-hoc test, rho, the CD diagram) do not apply to it.
    """
    return (f"the table holds per-item scores (columns 'model', {item_column(columns)!r}, "
            "'score', no run/fold: one row per model and item, as evaluation logs give), not "
            "one result per (task, model) or per fold. Compare the models paired by item with compare_evals "
            "(outperform compare-evals FILE), or write the report with outperform report FILE.")
