"""How many units do rank confidence sets need? Joint coverage of 95 % simultaneous sets
when every model is tied, against the number of resampled units (items, clusters, tasks).

All models tied is the configuration in which the simultaneous sets are exact (Mogstad et
al. 2024: the max-t critical value is calibrated for it), so it is where too few units show
first: the sets cover when every set is the whole range [1, k]. Each cell is
``outperform.simulate.rank_set_coverage`` with ``random_state=2026``, 1,000 bootstrap
resamples and ``--replications`` benchmarks:

* items: 0/1 scores, ``means=[0.65] * k, n_items=n``;
* clusters: the same with ``cluster_size=4, n_items=4 * n`` (n clusters of 4 items that
  share their difficulty, resampled whole);
* tasks: continuous scores, ``scores="normal", means=[0.0] * k, n_items=n`` (one score per
  task, as a per-task table).

Its output is the table of docs/tutorial-leaderboards.md ("How many items are enough") and
the source of ``outperform.compare._leaderboard.FEW_UNITS``.

Run:  nice python benchmarks/study_rank_set_units.py [--replications 2000] [--units 5 10 ...]
      [--figure F.png] [--json F.json]
"""
from __future__ import annotations

import argparse
import json

from outperform.simulate import rank_set_coverage

UNITS = (5, 10, 14, 20, 30, 50, 100, 200)
MODELS = (4, 10)
DESIGNS = {"items": dict(scores="binary", cluster_size=1, mean=0.65),
           "clusters of 4": dict(scores="binary", cluster_size=4, mean=0.65),
           "tasks": dict(scores="normal", cluster_size=1, mean=0.0)}


def study(replications: int, units=UNITS) -> list[dict]:
    rows = []
    for design, d in DESIGNS.items():
        for k in MODELS:
            for n in units:
                res = rank_set_coverage([d["mean"]] * k, n_items=n * d["cluster_size"],
                                        cluster_size=d["cluster_size"], scores=d["scores"],
                                        n_replications=replications, n_resamples=1000,
                                        random_state=2026)
                rows.append(dict(design=design, models=k, units=n,
                                 coverage=res.coverage("simultaneous"),
                                 mc_error=res.monte_carlo_error("simultaneous")))
                print(f"{design:<14}{k:>3} models {n:>4} units  "
                      f"{rows[-1]['coverage']:.3f} ± {rows[-1]['mc_error']:.3f}", flush=True)
    return rows


def plot(rows: list[dict], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for design, colour in zip(DESIGNS, ("C0", "C1", "C2")):
        for k, style in zip(MODELS, ("--", "-")):
            sel = [r for r in rows if r["design"] == design and r["models"] == k]
            ax.errorbar([r["units"] for r in sel], [r["coverage"] for r in sel],
                        yerr=[2 * r["mc_error"] for r in sel], color=colour, ls=style,
                        marker="o", ms=3, capsize=2, label=f"{design}, {k} models")
    ax.axhline(0.95, color="grey", lw=1, ls=":")
    ax.set_xscale("log")
    ax.set_xticks(UNITS, [str(u) for u in UNITS])
    ax.set_xlabel("resampled units (items, clusters or tasks)")
    ax.set_ylabel("joint coverage, all models tied")
    ax.set_title("95% simultaneous rank sets, ± 2 Monte Carlo errors\n"
                 "(dashed: 4 tied models, solid: 10; dotted: the 95% level)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=2000)
    parser.add_argument("--units", type=int, nargs="+", default=UNITS,
                        help="numbers of units to simulate (each cell has its own seed)")
    parser.add_argument("--figure", help="save the coverage curves as this PNG")
    parser.add_argument("--json", help="save the table as this JSON file")
    args = parser.parse_args()
    rows = study(args.replications, args.units)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.figure:
        plot(rows, args.figure)


if __name__ == "__main__":
    main()
