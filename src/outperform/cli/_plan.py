"""``outperform plan ...``: power, sample size and minimum detectable effect from the shell.

Each command solves for the one quantity left out: with ``--n`` and the effect it prints the
power; without ``--n`` the sample size reaching ``--power`` (0.8 by default); without the
effect the minimum detectable effect. Bad input raises :class:`InvalidInputError`, which the
shared handler of :mod:`._errors` turns into one line and exit code 1.
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from . import _options as opt
from ._errors import PlainFlagsGroup, err
from ._options import Format
from ._output import FIGURE_SUFFIXES, _output_file, check_out, emit_output, save_figure
from .._validation import InvalidInputError

plan_app = typer.Typer(cls=PlainFlagsGroup, no_args_is_help=True,
                       help="Plan an experiment before running it: power, sample size and "
                            "minimum detectable effect.")


class Alternative(str, Enum):
    two_sided = "two-sided"
    greater = "greater"


class McNemarMethod(str, Enum):
    connor = "connor"
    miettinen = "miettinen"
    exact = "exact"


_ALPHA = opt.alpha("Significance level.")
_ALT = typer.Option(Alternative.two_sided, help="'greater': one-sided, A better.")
_PLOT = opt.plot("Write power curves here (.png, .svg, .pdf).")
_FORMAT = opt.format_()
_FRAGMENT = opt.fragment()
_OUT = opt.out()
_POWER = opt.power()


def _power(power, *given):
    """The target power, or None (solve for power) when every other quantity is given."""
    if power is None and any(g is None for g in given):
        return 0.8
    return power


def _check_plot(path, out=None, fmt=Format.text, fragment=False):
    opt.check_fragment(fragment, fmt)
    check_out(out)
    if path is not None:
        _output_file(path, "--plot", FIGURE_SUFFIXES)


def _save(curves, path, target):
    import matplotlib

    matplotlib.use("Agg")
    from ..plan import plot_power_curve

    ax = plot_power_curve(curves, target=target)
    save_figure(ax.figure, path, dpi=120)
    err.print(f"power curves written to {path}")


def _show(result, fmt=Format.text, out=None, fragment=False):
    from ..report import plan_output

    emit_output(plan_output(result), fmt, out, fragment)


def _n_grid(n):
    import numpy as np

    return np.unique(np.linspace(max(2, n / 10), 2 * n, 40).round())


@plan_app.command("mcnemar")
def mcnemar_cmd(
    accuracy_a: Optional[float] = typer.Option(None, help="Expected accuracy of A; leave out "
                                               "for the minimum detectable accuracy of A."),
    accuracy_b: float = typer.Option(..., help="Expected accuracy of B (e.g. the control)."),
    discordance: float = opt.discordance("Share of test examples on which exactly one model is "
                                         "right (from a pilot run); >= |acc A - acc B|.",
                                         required=True),
    n: Optional[int] = typer.Option(None, "--n", help="Test-set size; leave out to solve for it."),
    power: Optional[float] = _POWER, alpha: float = _ALPHA, alternative: Alternative = _ALT,
    method: McNemarMethod = typer.Option(McNemarMethod.connor, help="connor (1987), "
                                         "miettinen (1968) or exact (binomial enumeration)."),
    plot: Optional[Path] = _PLOT,
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Test-set size (or power, or minimum detectable difference) of McNemar's test."""
    from ..plan import mcnemar_power, power_curve

    _check_plot(plot, out, fmt, fragment)
    res = mcnemar_power(accuracy_a=accuracy_a, accuracy_b=accuracy_b, discordance=discordance,
                        n=n, power=_power(power, n, accuracy_a), alpha=alpha,
                        alternative=alternative.value, method=method.value)
    _show(res, fmt, out, fragment)
    if plot is not None:
        design = dict(accuracy_a=res.details["accuracy_a"], accuracy_b=accuracy_b,
                      discordance=discordance, alpha=res.alpha, alternative=alternative.value)
        curves = {m: power_curve(mcnemar_power, "n", _n_grid(res.n), method=m, **design)
                  for m in ("connor", "exact")}
        _save(curves, plot, power or 0.8)


@plan_app.command("paired-t")
def paired_t_cmd(
    effect: Optional[float] = typer.Option(None, help="Cohen's d_z: mean paired difference / "
                                           "its sd; leave out for the minimum detectable one."),
    n: Optional[int] = typer.Option(None, "--n", help="Pairs (examples or data sets)."),
    power: Optional[float] = _POWER, alpha: float = _ALPHA, alternative: Alternative = _ALT,
    cluster_size: float = typer.Option(1.0, help="Items per cluster (design effect)."),
    icc: float = typer.Option(0.0, help="Intra-class correlation of the clusters, in [0, 1]."),
    wilcoxon: bool = typer.Option(False, "--wilcoxon", help="Plan the Wilcoxon signed-rank "
                                  "test instead (approximation by the relative efficiency)."),
    plot: Optional[Path] = _PLOT,
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Pairs needed (or power, or minimum detectable d) for the paired t / Wilcoxon test."""
    from ..plan import paired_ttest_power, power_curve, wilcoxon_power

    _check_plot(plot, out, fmt, fragment)
    if wilcoxon and (cluster_size != 1 or icc != 0):
        raise InvalidInputError("--wilcoxon has no design effect; leave out --cluster-size and "
                                "--icc.")
    planner, design = ((wilcoxon_power, {}) if wilcoxon
                       else (paired_ttest_power, dict(cluster_size=cluster_size, icc=icc)))
    res = planner(effect=effect, n=n, power=_power(power, n, effect), alpha=alpha,
                  alternative=alternative.value, **design)
    _show(res, fmt, out, fragment)
    if res.approximation:
        err.print(f"note: {res.approximation}")
    if plot is not None:
        design.update(effect=res.effect, alpha=res.alpha, alternative=alternative.value)
        _save(power_curve(planner, "n", _n_grid(res.n), **design), plot, power or 0.8)


@plan_app.command("sign")
def sign_cmd(
    p_win: Optional[float] = typer.Option(None, help="Probability that A beats B on a data set."),
    n: Optional[int] = typer.Option(None, "--n", help="Number of data sets."),
    power: Optional[float] = _POWER, alpha: float = _ALPHA, alternative: Alternative = _ALT,
    plot: Optional[Path] = _PLOT,
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Data sets needed (or power, or minimum detectable win rate) for the exact sign test."""
    from ..plan import power_curve, sign_test_power

    _check_plot(plot, out, fmt, fragment)
    res = sign_test_power(p_win=p_win, n=n, power=_power(power, n, p_win), alpha=alpha,
                          alternative=alternative.value)
    _show(res, fmt, out, fragment)
    if plot is not None:
        _save(power_curve(sign_test_power, "n", _n_grid(res.n), p_win=res.effect, alpha=alpha,
                          alternative=alternative.value), plot, power or 0.8)


def _ints(text: str, option: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise InvalidInputError(f"{option} takes whole numbers separated by commas, e.g. "
                                f"1,2,5,10; got {text!r}.") from None
    if not values:
        raise InvalidInputError(f"{option} needs at least one value.")
    return values


@plan_app.command("corrected-t")
def corrected_t_cmd(
    effect: Optional[float] = typer.Option(None, help="d: mean fold difference / sd of one "
                                           "fold's difference. Leave out for a table of "
                                           "minimum detectable d at --power."),
    runs: str = typer.Option("1,2,3,5,10", help="Rows: numbers of runs r."),
    folds: str = typer.Option("2,5,10", help="Columns: numbers of folds k."),
    rho: Optional[float] = opt.rho("n_test / n_total; default 1/k."),
    power: Optional[float] = _POWER, alpha: float = _ALPHA, alternative: Alternative = _ALT,
    plot: Optional[Path] = _PLOT,
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """The r x k table of the corrected resampled t-test: power, or minimum detectable d."""
    from ..plan import corrected_ttest_power, corrected_ttest_table, power_curve

    _check_plot(plot, out, fmt, fragment)
    r, k = _ints(runs, "--runs"), _ints(folds, "--folds")
    if effect is not None and power is not None:
        raise InvalidInputError("give --effect (a table of power) or --power (a table of "
                                "minimum detectable d), not both.")
    table = corrected_ttest_table(effect=effect, power=_power(power, effect), runs=r, folds=k,
                                  rho=rho, alpha=alpha, alternative=alternative.value)
    what = table.attrs["value"]
    at = f"d = {effect:g}" if effect is not None else f"power {_power(power, effect):g}"
    from ..report import power_table_output

    heading = (f"corrected resampled t-test (Nadeau & Bengio 2003), {what} at {at}, "
               f"alpha = {alpha:g} ({alternative.value}); rows: runs r, columns: folds k, "
               f"rho = {'1/k' if rho is None else f'{rho:g}'}")
    emit_output(power_table_output(table, heading), fmt, out, fragment)
    if plot is not None:
        if effect is None:
            raise InvalidInputError("--plot draws power curves: give --effect.")
        grid = list(range(1, max(r) + 1))
        curves = {f"k = {kk}": power_curve(corrected_ttest_power, "runs", grid, effect=effect,
                                           folds=kk, rho=rho, alpha=alpha,
                                           alternative=alternative.value) for kk in k}
        _save(curves, plot, 0.8)


@plan_app.command("auc")
def auc_cmd(
    auc_a: Optional[float] = typer.Option(None, help="Expected AUC of A; leave out for the "
                                          "minimum detectable one."),
    auc_b: float = typer.Option(..., help="Expected AUC of B (e.g. the control)."),
    n_positive: Optional[int] = typer.Option(None, help="Positive cases."),
    ratio: float = typer.Option(1.0, help="Negative cases per positive case."),
    correlation: float = typer.Option(0.0, help="Correlation of the two AUC estimates on the "
                                      "same cases, in [0, 1)."),
    power: Optional[float] = _POWER, alpha: float = _ALPHA, alternative: Alternative = _ALT,
    plot: Optional[Path] = _PLOT,
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Positive cases needed (or power, or minimum detectable AUC) for DeLong's test."""
    from ..plan import auc_power, power_curve

    _check_plot(plot, out, fmt, fragment)
    res = auc_power(auc_a=auc_a, auc_b=auc_b, n_positive=n_positive, ratio=ratio,
                    correlation=correlation, power=_power(power, n_positive, auc_a),
                    alpha=alpha, alternative=alternative.value)
    _show(res, fmt, out, fragment)
    if plot is not None:
        _save(power_curve(auc_power, "n_positive", _n_grid(res.n), auc_a=res.details["auc_a"],
                          auc_b=auc_b, ratio=ratio, correlation=correlation, alpha=res.alpha,
                          alternative=alternative.value), plot, power or 0.8)


@plan_app.command("bayes-mcnemar")
def bayes_mcnemar_cmd(
    n: int = typer.Option(..., "--n", help="Test-set size."),
    accuracy_a: float = typer.Option(..., help="Expected accuracy of A."),
    accuracy_b: float = typer.Option(..., help="Expected accuracy of B."),
    discordance: float = opt.discordance("Share of examples on which exactly one model is "
                                         "right.", required=True),
    rope: Optional[float] = opt.rope("ROPE half-width on phi (default: Williams' eq. 7)."),
    threshold: float = opt.threshold("Posterior mass that decides."),
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Bayesian assurance: the probability of each decision of the Bayesian McNemar test."""
    from ..plan import mcnemar_assurance

    opt.check_fragment(fragment, fmt)
    check_out(out)
    _show(mcnemar_assurance(n=n, accuracy_a=accuracy_a, accuracy_b=accuracy_b,
                            discordance=discordance, rope=rope, threshold=threshold), fmt, out,
          fragment)


@plan_app.command("gold-labels")
def gold_labels_cmd(
    width: float = typer.Option(..., help="Full width of the interval wanted on the mean "
                                "score (0.1 for ±0.05 of accuracy)."),
    correlation: float = typer.Option(..., help="Correlation of judge and human scores per "
                                      "item (φ for 0/1 verdicts), from a pilot."),
    sd: float = typer.Option(0.5, help="Standard deviation of the human score (0.5: the "
                             "largest for 0/1 scores)."),
    n_items: Optional[int] = typer.Option(None, "--n-items", help="Items in the evaluation "
                                          "(default: unlimited)."),
    alpha: float = opt.alpha(),
    fmt: Format = _FORMAT, out: Optional[Path] = _OUT, fragment: bool = _FRAGMENT,
) -> None:
    """Human labels a judged evaluation needs for a PPI++ interval of a given width."""
    from ..plan import gold_labels

    check_out(out)
    _show(gold_labels(width, correlation=correlation, sd=sd, n_items=n_items, alpha=alpha),
          fmt, out, fragment)
