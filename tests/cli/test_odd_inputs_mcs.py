"""Odd inputs of the model confidence set, almost stochastic order and replicability (issue
29): each row is an input and its exact outcome, an exit code and a message through
``outperform.cli.app``, or an exception class and message from the Python API."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError, TooFewError
from outperform.cli import app
from outperform.stats import aso, model_confidence_set, multi_aso, replicability

runner = CliRunner()


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd_mcs")
    rng = np.random.default_rng(0)
    pd.DataFrame([{"model": m, "item": i, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .7), ("C", .6)) for i in range(60)]
                 ).to_csv(d / "items.csv", index=False)
    pd.DataFrame([{"model": "A", "item": i, "score": int(rng.random() < .8)}
                  for i in range(60)]).to_csv(d / "one_model.csv", index=False)
    pd.DataFrame([{"model_a": a, "model_b": b, "winner": rng.choice(["a", "b", "tie"])}
                  for _ in range(20) for a, b in (("x", "y"), ("y", "z"))]
                 ).to_csv(d / "battles.csv", index=False)
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": s, "score": mu + rng.normal(0, .05)}
                  for t in range(3) for m, mu in (("A", .5), ("B", .6)) for s in range(4)]
                 ).to_csv(d / "runs.csv", index=False)
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": 0, "score": mu + rng.normal(0, .05)}
                  for t in range(3) for m, mu in (("A", .5), ("B", .6))]
                 ).to_csv(d / "one_run.csv", index=False)
    return d


LB = "leaderboard {d}/items.csv --n-resamples 100"
AGG = "aggregate {d}/runs.csv --n-resamples 50"

CASES = [
    # (id, argv, exit code, words of the output)
    ("mcs-block-larger-than-n", LB + " --mcs --block-size 500", 1,
     "block_size must be a whole number from 1 to the number of resampled units (60), got 500"),
    ("mcs-block-zero", LB + " --mcs --block-size 0", 1, "block_size must be a whole number"),
    ("mcs-statistic", LB + " --mcs --mcs-statistic mean", 1, "statistic"),
    ("mcs-bootstrap", LB + " --mcs --mcs-bootstrap moving", 1, "bootstrap"),
    ("mcs-options-without-mcs", LB + " --block-size 3", 1,
     "--mcs-statistic, --block-size and --mcs-bootstrap set up the model confidence set: add "
     "--mcs."),
    ("mcs-alpha-outside", LB + " --mcs --alpha 1.5", 1, "alpha must lie in (0, 1), got 1.5"),
    ("mcs-one-model", "leaderboard {d}/one_model.csv --mcs --n-resamples 100", 1, "2 models"),
    ("mcs-battles", "leaderboard {d}/battles.csv --battles --mcs", 1,
     "--mcs applies to rankings of scores or losses, not to --battles"),
    ("mcs-fine", LB + " --mcs --block-size 3 --mcs-bootstrap circular", 0,
     "Model confidence set at 95%"),
    ("aso-one-run", "aggregate {d}/one_run.csv --n-resamples 50 --aso", 1,
     "has 1 run(s) on task 't0': almost stochastic order"),
    ("aso-tau-outside", AGG + " --aso --tau 1.5", 1, "tau must lie in (0, 1), got 1.5"),
    ("aso-tau-without-aso", AGG + " --tau 0.3", 1, "--tau is the threshold of almost "
     "stochastic order: add --aso."),
    # per task, ε_W2 does not change with the scale: --normalize serves the aggregates only
    ("aso-normalize-per-task", AGG + " --aso --normalize min-max", 0,
     "almost stochastically better"),
    ("aso-fine", AGG + " --aso", 0, "almost stochastically better"),
    ("aso-pooled", AGG + " --aso-pooled --normalize min-max", 0, "pooled"),
]


@pytest.mark.parametrize("case_id, argv, code, words", CASES, ids=[c[0] for c in CASES])
def test_odd_cli_input(d, case_id, argv, code, words):
    res = runner.invoke(app, argv.format(d=d).split())
    assert res.exit_code == code, res.output
    assert words in " ".join(res.output.split())
    assert "Traceback" not in res.output


_NAN = np.array([[0.1, 0.2], [np.nan, 0.3], [0.2, 0.1]])

API = [
    ("mcs-nan", lambda: model_confidence_set(_NAN), InvalidInputError, "NaN"),
    ("mcs-one-model", lambda: model_confidence_set(np.ones((5, 1))), TooFewError,
     "at least 2 models"),
    ("mcs-alpha", lambda: model_confidence_set(np.eye(4), alpha=-0.1), InvalidInputError,
     "alpha must lie in"),
    ("mcs-clusters-length", lambda: model_confidence_set(np.eye(4), clusters=[1, 2]),
     InvalidInputError, "one label per row"),
    ("mcs-one-cluster", lambda: model_confidence_set(np.eye(4), clusters=[1, 1, 1, 1]),
     TooFewError, "at least 2 clusters"),
    ("aso-one-seed", lambda: aso([0.5], [0.4, 0.6]), TooFewError, "at least 2 run(s)"),
    ("aso-nan", lambda: aso([0.5, np.nan], [0.4, 0.6]), InvalidInputError, "NaN"),
    ("aso-one-model", lambda: multi_aso([[0.5, 0.6]]), TooFewError, "at least 2 models"),
    ("replicability-above-one", lambda: replicability([0.2, 1.2]), InvalidInputError,
     "pvalues must lie in [0, 1], got 1.2"),
    ("replicability-negative", lambda: replicability([-0.01, 0.3]), InvalidInputError,
     "pvalues must lie in [0, 1]"),
    ("replicability-alpha", lambda: replicability([0.2, 0.3], alpha=1.0), InvalidInputError,
     "alpha must lie in"),
]


@pytest.mark.parametrize("case_id, call, error, words", API, ids=[c[0] for c in API])
def test_odd_api_input(case_id, call, error, words):
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)
