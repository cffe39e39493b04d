"""MLflow runs read into the tidy results table (one row per run).

Each MLflow run is one measurement: its *params* say which model, task, fold and seed it
is (the roles of :mod:`outperform.data._columns`, read from the params' names or named by
the options), its *metrics* (their latest values) are the metric columns. The tracking
server is named by a URI the command line accepts where it takes a file:

==============================================  ============================================
``mlflow://HOST:PORT/EXPERIMENT``               a tracking server over HTTP
``mlflow+https://HOST/EXPERIMENT``              the same over HTTPS
``mlflow:///path/to/mlflow.db/EXPERIMENT``      a local SQLite store (``sqlite:///...``)
==============================================  ============================================

A query names the params of the roles and the metric when their names do not tell:
``mlflow://localhost:5000/sweep?model=algo&task=dataset&metric=val_acc``. Reading needs the
``mlflow`` extra (``pip install 'outperform[mlflow]'``).
"""
from __future__ import annotations

import warnings
import numpy as np
import pandas as pd

from .._validation import InvalidInputError, OutperformWarning, require
from ._columns import FOLD, MODEL, NON_METRIC, RUN, TASK, column_role
from ._mlflow_uri import parse_mlflow_uri, public_uri

__all__ = ["read_mlflow"]

#: The roles a param can play, in the table's column order, and the option naming each.
ROLES = ((MODEL, "model"), (TASK, "task"), (RUN, "seed"), (FOLD, "fold"))
PAGE = 1000   # runs per search request
TIMEOUT = 10  # seconds to wait for a tracking server's health check


def mlflow_client(tracking_uri: str | None):
    """An ``MlflowClient`` of ``tracking_uri`` (None: MLflow's default), after checking that
    a tracking server over HTTP answers.

    Raises
    ------
    MissingDependencyError
        MLflow is not installed (the ``mlflow`` extra).
    InvalidInputError
        The server does not answer (refused, unknown host, time-out).
    """
    if tracking_uri is not None and tracking_uri.lower().startswith(("http://", "https://")):
        _check_reachable(tracking_uri)   # before MLflow's retries, which take minutes
    require("mlflow", "reading MLflow runs")
    from mlflow import MlflowClient

    return MlflowClient(tracking_uri)


def _check_reachable(tracking_uri: str) -> None:
    import urllib.error
    import urllib.request

    url = tracking_uri.rstrip("/") + "/health"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT):
            return
    except urllib.error.HTTPError:
        return   # it answered (an authenticating proxy may refuse /health)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        why = getattr(exc, "reason", exc)
        raise InvalidInputError(
            f"cannot reach the MLflow tracking server at {public_uri(tracking_uri)} ({why}): "
            "start it (mlflow server --backend-store-uri sqlite:///mlflow.db --port 5000) "
            "or check the host and port.") from None


def _mlflow_error(exc) -> InvalidInputError:
    message = getattr(exc, "message", None) or str(exc)
    return InvalidInputError(f"MLflow refused the request: {' '.join(message.split())}")


def _experiments(client, names, tracking_uri) -> list:
    from mlflow.exceptions import MlflowException

    found = []
    for name in names:
        name = str(name)
        try:
            exp = client.get_experiment_by_name(name)
            if exp is None and name.isdigit():
                try:
                    exp = client.get_experiment(name)
                except MlflowException:
                    exp = None
            if exp is None:
                known = [e.name for e in client.search_experiments(max_results=20)]
        except MlflowException as exc:
            raise _mlflow_error(exc) from None
        if exp is None:
            where = public_uri(tracking_uri) if tracking_uri else "the default tracking URI"
            raise InvalidInputError(
                f"MLflow experiment {name!r} not found at {where}; its experiments: "
                f"{', '.join(map(repr, known)) or 'none'}. Give an experiment's name or id.")
        found.append(exp)
    return found


def _runs(client, experiment_ids) -> list:
    from mlflow.exceptions import MlflowException

    runs, token = [], None
    try:
        while True:
            page = client.search_runs(experiment_ids, max_results=PAGE, page_token=token)
            runs += list(page)
            token = page.token
            if not token:
                return runs
    except MlflowException as exc:
        raise _mlflow_error(exc) from None


def read_mlflow(experiments, tracking_uri: str | None = None, *, model=None,
                task=None, fold=None, seed=None, metric=None) -> pd.DataFrame:
    """The runs of MLflow experiments as a tidy results table, one row per run.

    Parameters
    ----------
    experiments : str or list of str
        Experiment names (or ids).
    tracking_uri : str, optional
        ``http://HOST:PORT``, ``sqlite:///path.db``, ...; None: MLflow's default
        (``MLFLOW_TRACKING_URI``).
    model, task, fold, seed : str or list of str, optional
        The param (or tag: ``"mlflow.runName"`` for the run's name) that names each run's
        model, task, fold and seed (run). By default
        the param whose name has that role (:func:`outperform.data.column_role`: ``model``,
        ``algorithm``, ``classifier``...; ``task``, ``dataset``...; ``fold``, ``split``;
        ``seed``, ``run``, ``repeat``...). The model is required; without a task the runs
        are one task. A list of params for ``model`` names each model by all of them
        (``"svc (C=1)"``): configurations of one algorithm compared as models.
    metric : str, optional
        The metric to read; by default every metric all runs have.

    Returns
    -------
    DataFrame
        Columns ``model``, ``task`` (if any), ``run`` (if any), ``fold`` (if any) and the
        metrics (float), sorted by them; fold and run ids that are all integers are integers.
        ``attrs["provenance"]``: the tracking URI (without credentials), the experiments,
        the number of runs, the runs left out because they have none of the roles' params
        (a parent run, the run a report was logged to) and which param plays each role.

    Raises
    ------
    MissingDependencyError
        MLflow is not installed (``pip install 'outperform[mlflow]'``).
    InvalidInputError
        Server unreachable, experiment not found, no runs, no param naming the model,
        several params that could name one role (named), a named param or metric absent
        from some runs (how many, and one of them), two runs for one (model, task, seed,
        fold) and the params that tell them apart.

    Warns
    -----
    OutperformWarning
        A param other than the roles takes several values within a model on a task (runs of
        different configurations compared as one model); metrics left out because some runs
        lack them.
    """
    names = [experiments] if isinstance(experiments, str) else list(experiments)
    if not names:
        raise InvalidInputError("no MLflow experiment given: name at least one.")
    client = mlflow_client(tracking_uri)
    exps = _experiments(client, names, tracking_uri)
    runs = _runs(client, [e.experiment_id for e in exps])
    where = ", ".join(repr(e.name) for e in exps)
    if not runs:
        raise InvalidInputError(f"the MLflow experiment(s) {where} hold no runs.")
    records = pd.DataFrame({
        "run_id": [r.info.run_id for r in runs],
        "run_name": [r.info.run_name or "" for r in runs],
        "status": [r.info.status for r in runs]})
    params = [dict(r.data.params) for r in runs]
    tags = [dict(r.data.tags) for r in runs]
    metrics = pd.DataFrame([dict(r.data.metrics) for r in runs], index=records.index)
    options = {"model": model, "task": task, "seed": seed, "fold": fold}
    frame, used = runs_table(records, params, tags, metrics, options, metric, where)
    frame.attrs["provenance"] = {
        "reader": "mlflow", "tracking_uri": public_uri(tracking_uri) if tracking_uri else None,
        "experiments": [e.name for e in exps], "n_runs": len(runs),
        "skipped_runs": used.pop("skipped_runs"), "params": used}
    return frame


def runs_table(records: pd.DataFrame, params: list[dict], tags: list[dict],
               metrics: pd.DataFrame, options: dict, metric: str | None, where: str
               ) -> tuple[pd.DataFrame, dict]:
    """The tidy table of runs (see :func:`read_mlflow`) from their ids, params, tags and
    metrics, and which params played each role. Pure pandas: the reading of roles, tested
    without a server."""
    keys = pd.DataFrame(params, index=records.index, dtype=object)
    tag_frame = pd.DataFrame(tags, index=records.index, dtype=object)
    chosen = {role: _role_params(role, option, options.get(option), keys, tag_frame, where)
              for role, option in ROLES}
    # A run with none of the roles' params (a parent run, the run a report was logged to)
    # is not a measurement of the design: left out, and counted in the provenance.
    named = [n for names in chosen.values() for n in names]
    either = keys.join(tag_frame[[c for c in tag_frame.columns if c not in keys.columns]])
    keep = either.reindex(columns=named).notna().any(axis=1).to_numpy() if named else \
        np.ones(len(records), dtype=bool)
    if not keep.all():
        records, keys, tag_frame, metrics = (x[keep] for x in (records, keys, tag_frame, metrics))
        if not len(records):
            raise InvalidInputError(f"no run of {where} has the params {_listed(named)}.")
    columns, used = {}, {"skipped_runs": int((~keep).sum())}
    for role, option in ROLES:
        if not chosen[role]:
            continue
        values = []
        for name in chosen[role]:
            source = keys if name in keys.columns else tag_frame
            col = source[name]
            _refuse_absent(col.isna().to_numpy(), records, f"param {name!r}", where, role)
            values.append(col.astype(str))
        columns[role] = values[0] if len(values) == 1 else _joined(chosen[role], values)
        used[role] = chosen[role][0] if len(chosen[role]) == 1 else list(chosen[role])
    if MODEL not in columns:
        raise InvalidInputError(
            f"no param of the runs of {where} names the model (params: "
            f"{_listed(keys.columns)}): name it with model='...' (in a URI ?model=...), "
            "or log a param called 'model'.")
    frame = pd.DataFrame(columns, index=records.index)
    for role in (RUN, FOLD):
        if role in frame.columns:
            frame[role] = _as_ids(frame[role])
    taken = set(named)
    frame = frame.join(_metrics(metrics, metric, records, where))
    order = [c for c, _ in ROLES if c in frame.columns]
    frame = frame.sort_values(order, kind="stable")
    records, keys = records.loc[frame.index], keys.loc[frame.index]
    _refuse_duplicates(frame, keys.drop(columns=[c for c in taken if c in keys.columns]),
                       records, used[MODEL])
    _warn_varying(frame, keys.drop(columns=[c for c in taken if c in keys.columns]),
                  used[MODEL])
    return frame.reset_index(drop=True), used


def _listed(names, limit: int = 12) -> str:
    names = [repr(n) for n in names]
    return (", ".join(names[:limit]) + (f" and {len(names) - limit} more"
                                        if len(names) > limit else "")) or "none"


def _role_params(role, option, given, keys, tag_frame, where) -> list[str]:
    if given is not None:
        chosen = [given] if isinstance(given, str) else list(given)
        for name in chosen:
            if name not in keys.columns and name not in tag_frame.columns:
                raise InvalidInputError(
                    f"{option}={name!r}: no run of {where} has a param (or tag) {name!r}; "
                    f"params: {_listed(keys.columns)}.")
        return chosen
    found = [c for c in keys.columns if column_role(c) == role]
    if len(found) > 1:
        raise InvalidInputError(
            f"the params {_listed(found)} could each name the {role} of the runs of "
            f"{where}: say which with {option}='...' (in a URI ?{option}=...).")
    return found


def _refuse_absent(absent: np.ndarray, records, what: str, where: str, role=None) -> None:
    if not absent.any():
        return
    i = int(np.flatnonzero(absent)[0])
    row = records.iloc[i]
    name = f" {row['run_name']!r}" if row["run_name"] else ""
    raise InvalidInputError(
        f"{int(absent.sum())} of the {len(absent)} runs of {where} have no {what} (e.g. run "
        f"{row['run_id']}{name}, status {row['status']}): log it in every run, or delete "
        "the runs that failed (mlflow runs delete --run-id ...)"
        + (f"; or name the {role} by another param with {role}='...'." if role else "."))


def _joined(names, values) -> pd.Series:
    """``"first (b=1, c=2)"``: a model named by several params."""
    rest = [f"{n}=" + v for n, v in zip(names[1:], values[1:])]
    inner = rest[0] if len(rest) == 1 else rest[0].str.cat(rest[1:], sep=", ")
    return values[0] + " (" + inner + ")"


def _as_ids(values: pd.Series) -> pd.Series:
    """Run or fold ids: integers when every one is an integer's text (as a CSV reads them)."""
    text = values.str.strip()
    if text.str.fullmatch(r"[-+]?\d+").all():
        return text.astype(np.int64)
    return values


def _metrics(metrics: pd.DataFrame, metric, records, where) -> pd.DataFrame:
    if metric is not None:
        if metric not in metrics.columns:
            raise InvalidInputError(
                f"no run of {where} has a metric {metric!r}; metrics: "
                f"{_listed(metrics.columns)}.")
        _refuse_absent(metrics[metric].isna().to_numpy(), records, f"metric {metric!r}", where)
        return metrics[[metric]].astype(float)
    if metrics.empty or not len(metrics.columns):
        raise InvalidInputError(f"the runs of {where} have no metrics: log one (mlflow."
                                "log_metric) in every run.")
    complete = [c for c in metrics.columns if metrics[c].notna().all()]
    if not complete:
        first = metrics.columns[0]
        _refuse_absent(metrics[first].isna().to_numpy(), records, f"metric {first!r}", where)
    partial = [c for c in metrics.columns if c not in complete]
    if partial:
        warnings.warn(
            f"the metric(s) {_listed(partial)} are missing in some runs of {where} and are "
            "left out; name one with metric='...' (--metric) to see which runs lack it.",
            OutperformWarning, stacklevel=4)
    return metrics[sorted(complete)].astype(float)


def _refuse_duplicates(frame, others: pd.DataFrame, records, model) -> None:
    keys = [c for c, _ in ROLES if c in frame.columns]
    dup = frame.duplicated(keys, keep=False).to_numpy()
    if not dup.any():
        return
    first = frame[dup].iloc[0]
    same = (frame[keys] == first[keys]).all(axis=1).to_numpy()
    differ = [c for c in others.columns if others.loc[same, c].astype(str).nunique() > 1]
    cell = ", ".join(f"{k} {first[k]!r}" if isinstance(first[k], str) else f"{k} {first[k]}"
                     for k in keys)
    ids = ", ".join(records.loc[same, "run_id"].head(3))
    why = (f"they differ in param(s) {_listed(differ)}: several configurations under one model "
           f"name; name the models by them too, model={_with(model, differ[0])!r}, or keep "
           "one configuration"
           if differ else "nothing tells them apart: delete the repeated runs, or log a seed "
           "or fold param")
    raise InvalidInputError(f"{int(same.sum())} runs have {cell} (runs {ids}): {why}.")


def _with(model, param) -> list:
    return ([model] if isinstance(model, str) else list(model)) + [param]


def _warn_varying(frame, others: pd.DataFrame, model) -> None:
    """Warn of a param (not a role, not a seed) that takes several values within a model on
    a task: configurations compared as one model."""
    if others.empty:
        return
    cell = frame[[c for c in (MODEL, TASK) if c in frame.columns]].astype(str).agg(
        "\0".join, axis=1)
    for name in others.columns:
        if str(name).strip().lower() in NON_METRIC:
            continue
        values = others[name].astype(str)
        counts = values.groupby(cell.to_numpy()).nunique()
        if (counts > 1).any():
            where = counts.index[np.argmax(counts.to_numpy() > 1)].split("\0")
            seen = sorted(values[cell == "\0".join(where)].unique())[:4]
            on = f" on task {where[1]!r}" if len(where) > 1 else ""
            warnings.warn(
                f"param {name!r} takes {len(seen)} values within model {where[0]!r}{on} "
                f"({', '.join(seen)}): runs of different configurations are compared as one "
                f"model. If they are different models, name them by both params: "
                f"model={_with(model, name)!r}.", OutperformWarning, stacklevel=4)
            return


def read_mlflow_uri(uri: str, *, metric: str | None = None) -> pd.DataFrame:
    """:func:`read_mlflow` of what an ``mlflow://`` URI names (see
    :func:`outperform.data._mlflow_uri.parse_mlflow_uri`); ``metric`` (``--metric``) unless
    the URI's query names one.

    Raises
    ------
    InvalidInputError
        As :func:`read_mlflow`; a metric in the query and another one given.
    """
    source = parse_mlflow_uri(uri)
    options = dict(source.options)
    named = options.pop("metric", None)
    if named is not None and metric is not None and named != metric:
        raise InvalidInputError(f"{uri!r} names the metric {named!r} and --metric {metric!r}: "
                                "give one of them.")
    return read_mlflow(source.name, source.tracking_uri, metric=named or metric, **options)
