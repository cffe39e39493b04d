"""Validate the Bayesian sign and signed-rank tests against baycomp on the UCI-54 data.

For every pair of the five classifiers of ``../shared/data/uci54_10x10cv_accuracies.txt``
(mean of the 100 fold accuracies / 100, the 54 lines of the file as baycomp's documentation
uses them, ``credit`` twice), with ROPE 0 and 0.01, prints baycomp's probabilities, ours and
their difference in units of the Monte Carlo standard error of the difference of two
independent estimates. baycomp is a validation-only dependency: ``pip install baycomp``.

Run:  python benchmarks/validate_baycomp.py [--data ../shared/data] [--samples 50000]
"""
from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from outperform.bayes import bayesian_sign_test, bayesian_signed_rank_test
from outperform.data import load_uci54_arrays





def main() -> None:
    import baycomp

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--samples", type=int, default=50000)
    args = parser.parse_args()
    arrays = load_uci54_arrays(args.data / "uci54_10x10cv_accuracies.txt",
                               keep_duplicates=True, as_fraction=True)
    scores = {m: v.mean(axis=1) for m, (_, v) in arrays.items()}
    worst = 0.0
    tests = (("sign", baycomp.SignTest, bayesian_sign_test),
             ("signed-rank", baycomp.SignedRankTest, bayesian_signed_rank_test))
    for (x_name, y_name), rope, (label, theirs_cls, ours_fn) in itertools.product(
            itertools.combinations(scores, 2), (0.0, 0.01), tests):
        x, y = scores[x_name], scores[y_name]
        # baycomp's difference is y - x: ours with a = y, b = x.
        posterior = theirs_cls(x, y, rope, nsamples=args.samples, random_state=0)
        theirs = np.array(posterior.probs(with_rope=True))
        res = ours_fn(y, x, rope=rope, n_samples=args.samples, random_state=1)
        ours = np.array([res.p_left, res.p_rope, res.p_right])
        se = np.sqrt(2 * np.maximum(ours * (1 - ours), 1 / args.samples) / args.samples)
        z = (ours - theirs) / se
        worst = max(worst, float(np.abs(z).max()))
        print(f"{label:11s} x={x_name:5s} y={y_name:5s} rope={rope:<5} baycomp "
              f"{np.round(theirs, 4)}  ours {np.round(ours, 4)}  z {np.round(z, 1)}")
    print(f"largest |difference| / SE: {worst:.1f} (expect below about 4 for 120 comparisons)")


if __name__ == "__main__":
    main()
