"""A report logged back to the MLflow run that produced its data: its files as artifacts,
its decision's numbers as metrics (``outperform report ... --log-to mlflow://HOST:PORT/RUN``).
"""
from __future__ import annotations

import math
import os
import tempfile
import time
from pathlib import Path

from .._validation import InvalidInputError
from ..data._mlflow import mlflow_client
from ..data._mlflow_uri import is_mlflow_uri, parse_mlflow_uri, public_uri
from ._files import write_report

__all__ = ["log_mlflow"]

#: The numbers of the recommended test logged as metrics, by attribute of its result.
LOGGED = ("pvalue", "statistic", "effect_size", "p_left", "p_rope", "p_right")
PREFIX = "outperform."


def report_metrics(report) -> dict[str, float]:
    """``{"outperform.pvalue": ..., ...}``: the finite numbers among :data:`LOGGED` of the
    report's recommended test (a frequentist test's p-value, statistic and effect size; a
    Bayesian test's posterior probabilities).

    Examples
    --------
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> logged = report_metrics(compare(load_demsar_table6()))   # Iman-Davenport, Kendall's W
    >>> sorted(logged), round(logged["outperform.statistic"], 2)   # Demšar (2006): F_F = 3.69
    (['outperform.effect_size', 'outperform.pvalue', 'outperform.statistic'], 3.69)
    """
    test = report.tests.get(report.recommended)
    out = {}
    for name in LOGGED:
        value = getattr(test, name, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value):
            out[PREFIX + name] = float(value)
    return out


def log_mlflow(report, run: str, tracking_uri: str | None = None, *,
               formats=("html", "md", "json"), artifact_path: str = "outperform",
               written=None) -> dict:
    """Log ``report`` to an MLflow run: its files as artifacts, its numbers as metrics.

    Parameters
    ----------
    report : ComparisonReport
        What :func:`outperform.compare` returned.
    run : str
        The run's id, or a URI naming it: ``"mlflow://HOST:PORT/RUN_ID"``,
        ``"mlflow:///path/mlflow.db/RUN_ID"`` (then ``tracking_uri`` is not given).
    tracking_uri : str, optional
        ``http://HOST:PORT``, ``sqlite:///path.db``, ...; None: MLflow's default.
    formats : sequence of str
        The files, as :func:`outperform.report.write_report` writes them (with the figures).
    artifact_path : str
        Folder of the artifacts in the run.
    written : list of path-like, optional
        The report's files already written (what :func:`write_report` returned): logged as
        they are, instead of writing ``formats`` again.

    Returns
    -------
    dict
        ``{"run": id, "artifacts": [artifact paths], "metrics": {name: value}, "tags":
        {name: value}}``: the metrics are the recommended test's numbers
        (``outperform.pvalue``, ``outperform.statistic``, ``outperform.effect_size``, or the
        Bayesian ``outperform.p_left``/``p_rope``/``p_right``); the tags name the question,
        the test, the metric and the decision.

    Raises
    ------
    MissingDependencyError
        MLflow is not installed (``pip install 'outperform[mlflow]'``).
    InvalidInputError
        Server unreachable, run not found, a URI and a ``tracking_uri`` both given.
    """
    if is_mlflow_uri(run):
        if tracking_uri is not None:
            raise InvalidInputError("give the run as an mlflow:// URI or as an id with "
                                    "tracking_uri=, not both.")
        source = parse_mlflow_uri(run, what="run")
        run, tracking_uri = source.name, source.tracking_uri
    client = mlflow_client(tracking_uri)
    from mlflow.entities import Metric, RunTag
    from mlflow.exceptions import MlflowException

    try:
        client.get_run(run)
    except MlflowException:
        where = public_uri(tracking_uri) if tracking_uri else "the default tracking URI"
        raise InvalidInputError(f"MLflow run {run!r} not found at {where}: give the id of an "
                                "existing run (mlflow runs list --experiment-id ...).") from None
    metrics = report_metrics(report)
    tags = {PREFIX + "question": report.question, PREFIX + "test": report.recommended,
            PREFIX + "metric": str(report.metric),
            PREFIX + "decision": (report.conclusions[0] if report.conclusions else "")[:5000]}
    with tempfile.TemporaryDirectory(prefix="outperform-mlflow-") as folder:
        if written is None:
            written = list(write_report(report, folder, formats=tuple(formats)).values())
        # the report's folders (paper/, figures) are kept under artifact_path
        root = Path(os.path.commonpath([str(Path(p).parent) for p in written])) if written \
            else Path(folder)
        where = {str(p): "/".join([artifact_path, *Path(p).relative_to(root).parent.parts])
                 for p in written}
        try:
            for path in written:
                client.log_artifact(run, str(path), artifact_path=where[str(path)])
            now = int(time.time() * 1000)
            client.log_batch(run, metrics=[Metric(k, v, now, 0) for k, v in metrics.items()],
                             tags=[RunTag(k, v) for k, v in tags.items()])
        except MlflowException as exc:
            raise InvalidInputError(f"MLflow refused to log to run {run!r}: "
                                    f"{' '.join(str(exc).split())}") from None
        names = [f"{where[str(p)]}/{Path(p).name}" for p in written]
    return {"run": run, "artifacts": names, "metrics": metrics, "tags": tags}
