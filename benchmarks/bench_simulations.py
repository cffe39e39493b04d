"""Simulation studies at the papers' sizes: Lacoste Figure 3 and Corani & Benavoli Figure 2a.

* Lacoste et al. (2012) Figure 3: AUC of the sign, Wilcoxon and Poisson-binomial tests on
  the single-Dirichlet context (100, 110, 790), n = 1001, M = 10^5 repetitions per N.
  Goal: under 60 s on a 2-core machine.
* Corani & Benavoli (2015) Figure 2a: rejection rates of the Poisson and signed-rank tests,
  5000 experiments per delta_acc, 11 values, q = 50 data sets, 1 and 10 runs of 10-fold CV.
  Goal: under 10 minutes.

Prints both tables (and saves the plots with --plots DIR). No library runs these studies, so
the peer is what a user would write without us: scipy's own tests (``binomtest``,
``wilcoxon``) called once per simulated experiment, timed on the same experiments as our
batched answers, alternating, with the ratio printed. Options: --only lacoste|corani,
--n-jobs for Corani's study (joblib processes), --repetitions to scale both down.

Run:  python benchmarks/bench_simulations.py [--plots DIR] [--n-jobs 2]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from outperform.simulate import lacoste_auc
from outperform.simulate import single_dirichlet_context
from outperform.simulate import corani_power
from outperform.simulate import SIZES, sample_experiments, sign_confidence, wilcoxon_confidence


def _lacoste(m: int, plots: Path | None) -> float:
    grid = SIZES["lacoste-fig3"]["full"]["n_data_sets"]
    t0 = time.perf_counter()
    table = lacoste_auc(single_dirichlet_context(), grid, n_repetitions=m, random_state=0)
    sec = time.perf_counter() - t0
    wide = table.pivot(index="n_data_sets", columns="test", values="auc")
    se = table["mc_se"].max()
    print(f"Lacoste Figure 3: AUC, single Dirichlet (100, 110, 790), n = 1001, M = {m} "
          f"per N (largest MC s.e. {se:.4f})")
    print(wide[["sign", "wilcoxon", "poisson_binomial"]].round(4).to_string())
    ok = bool(np.all(wide["poisson_binomial"] >= wide["sign"] - 2 * se))
    print(f"  Poisson-binomial >= sign test for every N (within 2 s.e.): {ok}")
    print(f"  time: {sec:.1f} s (goal < 60 s)\n")
    if plots:
        from outperform.plot import plot_auc_curves

        plot_auc_curves(table).figure.savefig(plots / "lacoste_fig3.png", dpi=120)
    return sec


def _corani(m: int, n_jobs: int, plots: Path | None) -> float:
    deltas = SIZES["corani-fig2a"]["full"]["deltas"]
    t0 = time.perf_counter()
    table = corani_power(deltas, n_repetitions=m, random_state=0, n_jobs=n_jobs)
    sec = time.perf_counter() - t0
    wide = table.pivot_table(index="delta_acc", columns=["n_runs", "test"],
                             values="rejection_rate")
    print(f"Corani & Benavoli Figure 2a: rejection rates, q = 50, {m} experiments per "
          f"delta_acc (MC s.e. <= {0.5 / np.sqrt(m):.4f})")
    print(wide.round(4).to_string())
    se = 2 * np.sqrt(0.25 * 2 / m)      # two standard errors of a difference, at worst
    for runs in (1, 10):
        gap = wide[(runs, "Poisson")] - wide[(runs, "signed-rank")]
        more = [f"{d:g}" for d, g in gap.items() if d > 0 and g > se]
        less = [f"{d:g}" for d, g in gap.items() if d > 0 and g < -se]
        print(f"  {runs:>2} run(s): Poisson more powerful at delta_acc {more or '-'}, less at "
              f"{less or '-'} (paper: {'more' if runs == 10 else 'less'} for delta_acc > 0)")
    print(f"  time: {sec:.1f} s (goal < 600 s)\n")
    if plots:
        from outperform.plot import plot_power_curves

        plot_power_curves(table).figure.savefig(plots / "corani_fig2a.png", dpi=120)
    return sec


def _peer(n_experiments: int = 200, n_data_sets: int = 10, rounds: int = 2) -> None:
    """Our batched sign and Wilcoxon answers against scipy called per experiment.

    scipy 1.17 resamples (a permutation test) when the differences tie, so its Wilcoxon test
    takes tens of milliseconds per experiment here: 200 experiments keep this to ~30 s.
    """
    from scipy import stats

    exp = sample_experiments(single_dirichlet_context(), n_data_sets, n_experiments,
                             random_state=1)
    k_a, k_b, n = exp.errors_a_only, exp.errors_b_only, exp.n_test

    def ours():
        sign_confidence(k_a, k_b)
        wilcoxon_confidence(k_a, k_b, n)

    def scipy_loop():
        for i in range(n_experiments):
            wins, losses = int(np.sum(k_a[i] < k_b[i])), int(np.sum(k_a[i] > k_b[i]))
            if wins + losses:
                stats.binomtest(wins, wins + losses)
            d = (k_b[i] - k_a[i]) / n[i]
            if np.any(d != 0):
                stats.wilcoxon(d, zero_method="wilcox")

    best = {"ours": np.inf, "scipy per experiment": np.inf}
    for _ in range(rounds):
        for label, fn in (("ours", ours), ("scipy per experiment", scipy_loop)):
            t0 = time.perf_counter()
            fn()
            best[label] = min(best[label], time.perf_counter() - t0)
    print(f"Sign + Wilcoxon answers to {n_experiments} experiments of {n_data_sets} data sets "
          f"(best of {rounds}): ours {best['ours']:.4f} s, scipy per experiment "
          f"{best['scipy per experiment']:.3f} s, ratio ours / peer "
          f"{best['ours'] / best['scipy per experiment']:.4f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("lacoste", "corani"))
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--repetitions", type=float, default=1.0,
                        help="fraction of the papers' repetitions (default 1)")
    parser.add_argument("--plots", type=Path, help="folder for PNG figures")
    args = parser.parse_args()
    if args.plots:
        import matplotlib

        matplotlib.use("Agg")
        args.plots.mkdir(parents=True, exist_ok=True)
    _peer()
    if args.only != "corani":
        _lacoste(max(100, int(100_000 * args.repetitions)), args.plots)
    if args.only != "lacoste":
        _corani(max(100, int(5000 * args.repetitions)), args.n_jobs, args.plots)


if __name__ == "__main__":
    main()
