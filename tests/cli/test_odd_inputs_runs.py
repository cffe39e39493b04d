"""Odd-input corpus of issue 25 for runs x tasks, battles, plans, costs and the benchmark's
options: each input with its exact outcome (exit code and message through the command line,
or exception / warning / right answer in Python)."""
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError
from outperform.cli import app

runner = CliRunner()

ONE_RUN = pd.DataFrame([{"task": t, "model": m, "run": 0, "score": v}
                        for t, vs in {"t1": (0.5, 0.6), "t2": (0.7, 0.4)}.items()
                        for m, v in zip("AB", vs)])
_rng = np.random.default_rng(0)
RUNS = pd.DataFrame([{"task": t, "model": m, "run": r, "score": 0.1 * i + _rng.random()}
                     for t in ("t1", "t2", "t3") for i, m in enumerate("AB") for r in range(3)])
ONE_TASK = RUNS[RUNS["task"] == "t1"]
HUGE = RUNS.assign(score=RUNS["score"] * 1e300)
CURVES = pd.DataFrame([{"task": t, "model": m, "run": r, "step": s, "score": s / 10 + r / 100}
                       for t in ("t1", "t2") for m, end in (("A", 8), ("B", 5))
                       for r in range(3) for s in range(1, end + 1)])
CYCLE = pd.DataFrame({"model_a": ["x", "y", "z"], "model_b": ["y", "z", "x"],
                      "winner": ["a", "a", "a"]})
ITEMS = pd.DataFrame([{"model": m, "example": i, "correct": int(_rng.random() < 0.7)}
                      for m in "ABC" for i in range(200)])
FILES = {"one.csv": ONE_RUN, "runs.csv": RUNS, "onetask.csv": ONE_TASK, "huge.csv": HUGE,
         "curves.csv": CURVES, "cycle.csv": CYCLE, "items.csv": ITEMS}
BENCH = ["benchmark", "--models", "nb", "--datasets", "iris", "--cv", "2x2"]

# (id, arguments ({dir} is the folder of FILES), exit code, substrings of the output)
CLI_CASES = [
    ("aggregate one run", ["aggregate", "{dir}/one.csv", "--n-resamples", "100"], 0,
     ["[nan, nan]", "one run per task"]),
    ("aggregate one run json", ["aggregate", "{dir}/one.csv", "--n-resamples", "100", "--json"],
     0, ["NaN", "one run per task"]),
    ("aggregate tasks-random one task",
     ["aggregate", "{dir}/onetask.csv", "--tasks-random", "--n-resamples", "100"], 1,
     ["only 1 task", "--tasks-random"]),
    ("aggregate 1e9 resamples", ["aggregate", "{dir}/runs.csv", "--n-resamples", "1000000000"],
     1, ["--n-resamples", "of memory", "use n_resamples (--n-resamples) <="]),
    ("aggregate 1e300 scores", ["aggregate", "{dir}/huge.csv", "--n-resamples", "100"], 0,
     ["e+29", "0.000 [0.000, 0.000]"]),
    ("aggregate curves end apart", ["aggregate", "{dir}/curves.csv", "--n-resamples", "100"], 0,
     ["end at different steps (5 to 8;", "step 5, the last step all"]),
    ("leaderboard 1e13 resamples",
     ["leaderboard", "{dir}/items.csv", "--n-resamples", "10000000000000"], 1,
     ["n_resamples (--n-resamples) = 10,000,000,000,000", "use n_resamples"]),
    ("battles cycle bootstrap", ["leaderboard", "{dir}/cycle.csv", "--battles", "--seed", "0"],
     0, ["[nan, nan]", "no bootstrap interval", "Ford 1957"]),
    ("battles cycle sandwich",
     ["leaderboard", "{dir}/cycle.csv", "--battles", "--n-resamples", "0"], 0, ["1000.0"]),
    ("battles 1e13 resamples",
     ["leaderboard", "{dir}/cycle.csv", "--battles", "--n-resamples", "10000000000000"], 1,
     ["n_resamples (--n-resamples)"]),
    # the assurance answers any n in constant memory (issue 31; 10^16: tests/cli/
    # test_cost_guards.py); 10^17 has more discordant counts than double precision counts
    ("plan bayes-mcnemar huge n",
     ["plan", "bayes-mcnemar", "--n", "100000000000000000", "--accuracy-a", "0.85",
      "--accuracy-b", "0.8", "--discordance", "0.1"], 1,
     ["n = 100,000,000,000,000,000 test examples", "use n (--n) <="]),
    ("plan corrected-t power 1", ["plan", "corrected-t", "--power", "1"], 1,
     ["power must lie strictly between 0 and 1"]),
    ("plan corrected-t no runs", ["plan", "corrected-t", "--effect", "0.5", "--runs", ""], 1,
     ["runs"]),
    ("plan mcnemar accuracy 1.2",
     ["plan", "mcnemar", "--accuracy-a", "1.2", "--accuracy-b", "0.8", "--discordance", "0.3"],
     1, ["accuracy_a must lie in [0, 1]"]),
    ("plan mcnemar discordance below gap",
     ["plan", "mcnemar", "--accuracy-a", "0.9", "--accuracy-b", "0.7", "--discordance", "0.1"],
     1, ["discordance 0.1 is below"]),
    ("benchmark alpha 1", BENCH + ["--alpha", "1", "--out", "{dir}/b.csv"], 1,
     ["alpha (--alpha)", "must lie in (0, 1)"]),
    ("benchmark rope -1", BENCH + ["--rope", "-1", "--out", "{dir}/b.csv"], 1,
     ["rope (--rope)", ">= 0"]),
    ("benchmark n-jobs 0", BENCH + ["--n-jobs", "0", "--out", "{dir}/b.csv"], 1,
     ["n_jobs (--n-jobs) must be a non-zero"]),
    ("benchmark bad metric", BENCH + ["--metric", "accurasy", "--out", "{dir}/b.csv"], 1,
     ["not a valid scoring name", "did you mean accuracy"]),
    ("benchmark bad out", BENCH + ["--out", "{dir}/b.xlsx"], 1, ["out must end in"]),
    ("benchmark out in missing folder", BENCH + ["--out", "{dir}/none/b.csv"], 1,
     ["does not exist"]),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd_runs")
    for name, frame in FILES.items():
        frame.to_csv(d / name, index=False)
    return d


@pytest.mark.parametrize("case, args, code, expected", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_cli(folder, case, args, code, expected):
    res = runner.invoke(app, [a.format(dir=folder) for a in args])
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    for text in expected:
        assert text in res.output, (text, res.output[-800:])
    assert not (folder / "b.csv").exists()          # no benchmark fit ran


# --- Python ---------------------------------------------------------------------------------

def _compare_runs(**kw):
    from outperform.compare import compare_runs
    return compare_runs(**kw)


def _py_cases():
    from outperform.compare import bradley_terry, leaderboard
    from outperform.experiments import check_run_options
    from outperform.plan import (binomial_test_power, corrected_ttest_table,
                                 mcnemar_assurance, paired_ttest_power, power_curve)
    from outperform.simulate import sample_experiments, single_dirichlet_context
    from outperform.stats import aggregate_runs, probability_of_improvement

    raises = [
        ("runs task bootstrap one task",
         lambda: _compare_runs(data=ONE_TASK, task_bootstrap=True), "only 1 task"),
        ("runs 1e12 resamples", lambda: _compare_runs(data=RUNS, n_resamples=10**12),
         r"n_resamples \(--n-resamples\)"),
        ("runs no common step",
         lambda: _compare_runs(data=CURVES.assign(step=np.where(CURVES["model"] == "B",
                                                                CURVES["step"] + 100,
                                                                CURVES["step"]))),
         "no step is shared"),
        ("stats P(X>Y) tasks random one task",
         lambda: probability_of_improvement(np.ones((3, 1)), np.ones((3, 1)),
                                            task_bootstrap=True), "only 1 task"),
        ("leaderboard 1e13", lambda: leaderboard(ITEMS, n_resamples=10**13), "use n_resamples"),
        ("battles 1e13 bootstrap",
         lambda: bradley_terry(CYCLE, interval="bootstrap", n_resamples=10**13),
         "n_resamples"),
        ("assurance huge n", lambda: mcnemar_assurance(n=10**17, accuracy_a=0.85,
                                                       accuracy_b=0.8, discordance=0.1),
         r"n \(--n\)"),
        ("plan binomial q 1.7", lambda: binomial_test_power(10, 1.7, 0.05), "q .* got 1.7"),
        ("plan binomial alpha 2", lambda: binomial_test_power(10, 0.7, 2.0), "alpha must lie"),
        ("plan binomial m -3", lambda: binomial_test_power(-3, 0.7, 0.05), "m .* got -3"),
        ("plan table power 1", lambda: corrected_ttest_table(power=1.0), "power must lie"),
        ("plan table empty runs", lambda: corrected_ttest_table(effect=0.5, runs=()),
         "runs must be a non-empty"),
        ("plan curve unknown parameter",
         lambda: power_curve(paired_ttest_power, "m", [10], effect=0.5),
         "no parameter 'm'; its parameters are effect, n"),
        ("plan curve nan grid",
         lambda: power_curve(paired_ttest_power, "n", [math.nan], effect=0.5), "NaN"),
        ("simulate 1e12 repetitions",
         lambda: sample_experiments(single_dirichlet_context(), 10, 10**12), "n_repetitions"),
        ("benchmark alpha 1", lambda: check_run_options(alpha=1), r"alpha \(--alpha\)"),
        ("benchmark rope -1", lambda: check_run_options(rope=-1), r"rope \(--rope\)"),
        ("benchmark n_jobs 0", lambda: check_run_options(n_jobs=0), r"n_jobs \(--n-jobs\)"),
        ("benchmark metric", lambda: check_run_options(metrics="test_neg_log_loss"),
         "not a valid scoring name"),
    ]
    warns = [
        ("runs one run", lambda: _compare_runs(data=ONE_RUN, n_resamples=100),
         "one run per task"),
        ("stats one run", lambda: aggregate_runs(np.array([[0.1, 0.2]]), n_resamples=100),
         "one run per task"),
        ("battles cycle", lambda: bradley_terry(CYCLE, interval="bootstrap", n_resamples=300,
                                                random_state=0), "no bootstrap interval"),
    ]
    return raises, warns


RAISES, WARNS = _py_cases()


@pytest.mark.parametrize("case, call, match", RAISES, ids=[c[0] for c in RAISES])
def test_python_refusals(case, call, match):
    with pytest.raises(InvalidInputError, match=match):
        call()


@pytest.mark.parametrize("case, call, match", WARNS, ids=[c[0] for c in WARNS])
def test_python_warnings(case, call, match):
    with pytest.warns(UserWarning, match=match):
        call()


def test_python_right_answers():
    # 1e300 scores: the mean is numpy's float64 mean, and the interval is finite
    res = _compare_runs(data=HUGE, n_resamples=100, random_state=0)
    a = HUGE[HUGE["model"] == "A"]["score"].to_numpy()
    est = res.aggregates["A"]["mean"]
    assert est.estimate == pytest.approx(a.mean(), rel=1e-12)
    assert np.isfinite([est.low, est.high]).all() and est.low <= est.estimate <= est.high
    # curves ending at 8 and 5 steps: both at step 5, score 0.5 + r / 100, mean over r = 0.51
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _compare_runs(data=CURVES, n_resamples=100, random_state=0)
    assert res.aggregates["A"]["mean"].estimate == pytest.approx(0.51)
    assert res.aggregates["B"]["mean"].estimate == pytest.approx(0.51)
