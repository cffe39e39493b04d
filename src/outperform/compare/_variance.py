"""Where the variance of runs x tasks comes from: a linear mixed model fitted by REML.

Williams (2026) eq. 1, z_ij = mu + alpha_i + beta_j + eps_ij, with the model (algorithm) as
the fixed factor and the task as a random factor, extended as the paper suggests (§3) with the
model x task interaction and the seeds (and data splits) as further random factors:

    score ~ model + (1 | task) + (1 | task:model) + (1 | task:run) [+ (1 | task:run:fold)]

(lme4's notation). It is fitted with statsmodels' ``MixedLM`` (groups = tasks, the other
factors as variance components nested in a task), REML, never a hand-written optimiser.
"""
from __future__ import annotations

import warnings

import pandas as pd

from .._validation import InvalidInputError
from ..data import read_results
from ..data._schema import FOLD, MODEL, RUN, TASK
from ..results import VarianceComponents
from ..results._runs import BOUNDARY_SHARE


def variance_components(data, *, metric: str | None = None,
                        higher_is_better: bool | None = None) -> VarianceComponents:
    """Variance of task, model x task, seed (run) and split (fold) effects, by REML.

    Parameters
    ----------
    data : DataFrame, str or Path
        Long table with ``task``, ``model``, ``run`` and a metric, optional ``fold``; every
        model measured on the same runs (seeds) of a task, so that a seed effect is shared by
        the models (the runner's identical splits give this).
    metric, higher_is_better
        As in :func:`outperform.data.read_results`.

    Returns
    -------
    VarianceComponents
        Variances (metric units squared) of ``task``, ``model x task``, ``seed``, ``split``
        (with folds) and ``residual``, their shares of the total, and the variance each adds
        to a difference of two models' means over the tasks and runs.

    Raises
    ------
    InvalidInputError
        No ``run`` column, fewer than 2 models, tasks or runs, or several metrics unnamed.
    """
    from statsmodels.regression.mixed_linear_model import MixedLM

    table = read_results(data, metric=metric, higher_is_better=higher_is_better)
    frame = table.frame
    if metric is None:
        if len(table.metrics) != 1:
            raise InvalidInputError(f"several metrics {list(table.metrics)}: choose one with "
                                    "metric=.")
        metric = next(iter(table.metrics))
    if RUN not in frame.columns:
        raise InvalidInputError("variance components need a 'run' column (the seed of each "
                                "measurement).")
    sizes = {"models": frame[MODEL].nunique(), "tasks": frame[TASK].nunique(),
             "runs": frame[RUN].nunique()}
    few = [k for k, v in sizes.items() if v < 2]
    if few:
        raise InvalidInputError(f"variance components need at least 2 {' and '.join(few)}; "
                                f"the table has {sizes}.")
    y = frame[metric].to_numpy(float)
    # REML is scale-equivariant; fitting standardised scores spares the optimiser scales such
    # as returns in the thousands, on which statsmodels' gradient steps fail to converge
    centre, scale = y.mean(), y.std() or 1.0
    frame = pd.DataFrame({"y": (y - centre) / scale,
                          "model": frame[MODEL].astype(str).to_numpy(),
                          "task": frame[TASK].astype(str).to_numpy(),
                          "run": frame[RUN].astype(str).to_numpy(),
                          **({"fold": frame[FOLD].astype(str).to_numpy()}
                             if FOLD in frame.columns else {})})
    vc = {"model x task": "0 + C(model)", "seed": "0 + C(run)"}
    if "fold" in frame:
        frame["split"] = frame["run"] + "/" + frame["fold"]
        vc["split"] = "0 + C(split)"
    model = MixedLM.from_formula("y ~ C(model)", data=frame, groups="task", re_formula="1",
                                 vc_formula=vc)
    with warnings.catch_warnings(record=True):   # statsmodels warns per optimiser tried
        warnings.simplefilter("always")
        # Gradient optimisers stop short when a variance sits on its boundary (0) and can still
        # report convergence; derivative-free ones (lme4 uses Nelder-Mead/bobyqa) reach it.
        # The fit kept is the one with the highest REML log-likelihood.
        tight = {"xtol": 1e-10, "ftol": 1e-12, "maxiter": 50_000}
        fits = [model.fit(reml=True, method=["lbfgs"]),
                *(model.fit(reml=True, method=[method], **tight) for method in ("nm", "powell"))]
    fit = max(fits, key=lambda f: (f.converged, f.llf))
    components = {"task": float(fit.cov_re.iloc[0, 0]) * scale ** 2,
                  **{name: float(v) * scale ** 2
                     for name, v in zip(fit.model.exog_vc.names, fit.vcomp)},
                  "residual": float(fit.scale) * scale ** 2}
    fixed = {k: float(v) * scale for k, v in fit.fe_params.items()}
    fixed["Intercept"] += centre
    # statsmodels warns at each optimiser it retries, and about fits not kept: the boundary
    # note is read off the kept estimates, the components at 0 named (issue 25).
    total = sum(components.values())
    at_zero = [k for k, v in components.items() if k != "residual" and v <= BOUNDARY_SHARE * total]
    notes = (("REML did not converge: treat the components as rough.",) if not fit.converged
             else ()) + ((f"the variance of {' and '.join(at_zero)} is estimated on the "
                          "boundary (0): that source adds no variance the data can detect.",)
                         if at_zero else ())
    n_tasks, n_runs = sizes["tasks"], sizes["runs"]
    n_folds = frame["fold"].nunique() if "fold" in frame else 1
    # variance of (mean of A - mean of B) over n_tasks x n_runs (x n_folds): the shared task,
    # seed and split effects cancel in a paired design; the interaction and residual remain
    difference = {"task": 0.0, "seed": 0.0, "split": 0.0,
                  "model x task": 2 * components["model x task"] / n_tasks,
                  "residual": 2 * components["residual"] / (n_tasks * n_runs * n_folds)}
    return VarianceComponents(
        metric=metric, components=components,
        difference={k: difference[k] for k in components},
        n_tasks=n_tasks, n_runs=n_runs, n_folds=n_folds, converged=bool(fit.converged),
        notes=notes,
        fixed_effects=fixed,
        model_formula="score ~ model + (1 | task) + (1 | task:model) + (1 | task:run)"
                      + (" + (1 | task:run:fold)" if "split" in vc else ""))

