"""Odd inputs at the statistical edges (issue 25, "It must show"): each case states its exact
outcome, through the command line (``compare``, ``compare-predictions``: exit code and words
of the output) or a Python entry point (the exception and its message, a warning, or the
right answer from a peer: scipy, a brute-force enumeration, a published formula).

Inputs are built in a temporary folder; no case runs more than a few seconds.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from typer.testing import CliRunner

from outperform._validation import InvalidInputError, OutperformError
from outperform.cli import app
from outperform.compare import compare, compare_predictions, variance_components
from outperform.data import load_demsar_table6
from outperform.stats import friedman_permutation, mcnemar
from outperform.stats._mcnemar import exact_pvalues

from _peers import friedman_brute_force  # noqa: E402

from _report_cases import fold_tasks  # noqa: E402

runner = CliRunner()


def _folds(diffs, *, seed=1, extra=None):
    rng = np.random.default_rng(seed)
    b = 0.8 + rng.normal(0, 0.02, len(diffs))
    rows = [{"task": "t", "model": m, "run": i // 5, "fold": i % 5, "accuracy": v,
             **(extra or {})}
            for m, col in (("A", b + np.asarray(diffs)), ("B", b)) for i, v in enumerate(col)]
    return pd.DataFrame(rows)


def _noisy():
    return _folds(np.random.default_rng(2).normal(0.01, 0.01, 10))


def _probabilities(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({"y_true": y,
                         "logreg": np.clip(y * 0.6 + 0.2 + rng.normal(0, 0.2, n), 0, 1),
                         "rf": np.clip(y * 0.5 + 0.25 + rng.normal(0, 0.25, n), 0, 1)})


def _ties_counts():
    """0/1 predictions with n01 = n10 = 3 (A wrong & B right on 3, the reverse on 3)."""
    y = [0, 1] * 10
    a, b = list(y), list(y)
    for i in range(3):
        a[i] = 1 - a[i]
        b[i + 3] = 1 - b[i + 3]
    return pd.DataFrame({"y_true": y, "A": a, "B": b})


THREE_BY_FIVE = pd.DataFrame([[3, 1, 4, 2, 0], [4, 0, 2, 3, 1], [3, 2, 1, 4, 0]],
                             columns=list("ABCDE"), dtype=float)
SIX_BY_FOUR = pd.DataFrame([[0.45, 0.27, -0.46, -0.48], [0.08, -0.52, 0.16, -0.38],
                            [0.9, 1.9, 0.48, -1.58], [2.53, 0.35, -0.94, 0.91],
                            [0.82, -0.62, -0.63, -0.99], [0.85, 1.07, -0.33, 0.42]],
                           columns=["m0", "m1", "m2", "m3"])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("edges")
    three = _probabilities()
    three["svm"] = np.clip(three.logreg + np.random.default_rng(3).normal(0, .1, 200), 0, 1)
    clipped = pd.DataFrame({"y_true": [0, 1, 1, 0, 1, 0, 1, 1] * 5,
                            "A": [0.1, 0.9, 0.0, 0.2, 0.8, 1.0, 0.7, 0.6] * 5,
                            "B": [0.2, 0.7, 0.6, 0.3, 0.9, 0.4, 0.5, 0.55] * 5})
    rng = np.random.default_rng(0)
    frames = {"q2": _noisy(), "q2const": _folds(np.full(10, 0.01)),
              "q2sizes": _noisy().assign(n_train=900, n_test=100),
              "wide35": THREE_BY_FIVE, "wide64": SIX_BY_FOUR, "folds12": fold_tasks(),
              "probs": _probabilities(), "probs3": three, "clipped": clipped,
              "ties": _ties_counts(),
              "losses": pd.DataFrame({"A": rng.normal(0.3, 0.1, 50),
                                      "B": rng.normal(0.35, 0.1, 50)}),
              "constloss": pd.DataFrame({"A": np.full(20, 0.3), "B": np.full(20, 0.5)})}
    out = {}
    for name, frame in frames.items():
        out[name] = d / f"{name}.csv"
        frame.to_csv(out[name], index=False)
    return out


def _flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


# (id, arguments with {placeholders}, exit code, words the output must contain, words it
# must not contain)
CLI = [
    ("rho-0-naive", "compare {q2} --rho 0", 0, ["naive paired t-test", "Nadeau & Bengio 2003",
                                                 "default for this design is rho = 0.2"], []),
    ("rho-0-sizes", "compare {q2sizes} --rho 0", 0,
     ["rho = 0.1 (n_test / (n_train + n_test)"], []),
    ("rho-1", "compare {q2} --rho 1", 1, ["rho must lie in [0, 1)"], []),
    ("rho-negative", "compare {q2} --rho -0.1", 1, ["rho must lie in [0, 1)"], []),
    ("rope-0-q2", "compare {q2} --rope 0", 0,
     ["rope = 0: no region of practical equivalence", "TOST equivalence test"],
     ["margin must be a positive number"]),
    ("rope-negative", "compare {q2} --rope -1", 1, ["rope half-width must be a non-negative"],
     []),
    ("constant-difference", "compare {q2const}", 0,
     ["no decision between A and B", "default ROPE", "zero width"],
     ["practically better", "P(A better) = 1.000"]),
    ("constant-difference-given-rope", "compare {q2const} --rope 0.005", 0,
     ["A is practically better than B"], []),
    ("three-by-five", "compare {wide35} --higher-is-better", 0,
     ["exact permutation", "No significant difference among the 5 algorithms"],
     ["significantly better", "The algorithms differ"]),
    ("six-by-four-holm", "compare {wide64} --higher-is-better --control m0 --posthoc holm", 0,
     ["post-hoc decisions withheld"], ["significantly better"]),
    ("rho-on-q3", "compare {wide35} --higher-is-better --rho 0", 0,
     ["option rho=0.0 does not apply"], ["naive paired t-test"]),
    ("poisson-no-majority", "compare {folds12} --bayesian --rope 0.01", 0,
     ["P(no majority)"], []),
    ("q1-sign", "compare-predictions {probs} --loss log --format markdown", 0,
     ["mean loss of rf − logreg =", "rf − logreg = 0.267"], ["logreg − rf"]),
    ("q1-clipped", "compare-predictions {clipped} --loss log", 0,
     ["log loss clipped: 10 of 'A'"], []),
    ("q1-three-promise", "compare-predictions {probs3} --loss squared", 0,
     ["run on two models only"], ["as a check that does not assume normality"]),
    ("q1-midp-ties", "compare-predictions {ties}", 0, ["mid-p test", "0.844"], []),
    ("q1-given-rope-0", "compare-predictions {losses} --loss given --rope 0", 0,
     ["rope = 0: no region of practical equivalence", "TOST"], []),
    ("q1-given-constant", "compare-predictions {constloss} --loss given", 1,
     ["all 20 differences a - b are equal"], []),
]


@pytest.mark.parametrize("args, code, words, absent", [c[1:] for c in CLI],
                         ids=[c[0] for c in CLI])
def test_cli(files, args, code, words, absent):
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in args.split()]
    res = runner.invoke(app, argv)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    text = _flat(res.output + (res.stderr if res.stderr_bytes is not None else ""))
    assert "Traceback" not in text
    assert res.exit_code == code, text[-2000:]
    for w in words:
        assert w in text, w
    for w in absent:
        assert w not in text, w


# --- Python entry points --------------------------------------------------------------------

def _raises(exc, match, call):
    with pytest.raises(exc, match=match):
        call()
    return True


PY = [
    ("midp-tie", lambda: mcnemar(4, 4, method="midp").pvalue,
     1 - 0.5 * stats.binom.pmf(4, 8, 0.5)),        # Fagerland et al. 2013: 1 - f/2
    ("midp-tie-large", lambda: mcnemar(200, 200, method="midp").pvalue,
     1 - 0.5 * stats.binom.pmf(200, 400, 0.5)),
    ("midp-no-discordance-vector", lambda: float(exact_pvalues(0, 0, mid=True)), 1.0),
    ("friedman-2x3-exact", lambda: compare(pd.DataFrame([[1., 2, 3], [2, 1, 3]],
                                                        columns=list("abc")),
                                           higher_is_better=True)
     .tests["friedman_permutation"].pvalue,
     lambda: friedman_brute_force([[1., 2, 3], [2, 1, 3]])),
    ("friedman-3x5-exact", lambda: friedman_permutation(THREE_BY_FIVE.to_numpy()).pvalue,
     lambda: friedman_brute_force(THREE_BY_FIVE.to_numpy())),
    ("rho-0-equals-naive-t", lambda: compare(_noisy(), rho=0).tests["corrected_t"].pvalue,
     stats.ttest_rel(_noisy().query("model == 'A'").accuracy,
                     _noisy().query("model == 'B'").accuracy).pvalue),
]


@pytest.mark.parametrize("call, expected", [c[1:] for c in PY], ids=[c[0] for c in PY])
def test_python_right_answers(call, expected):
    expected = expected() if callable(expected) else expected   # peers computed when run
    assert call() == pytest.approx(expected, rel=1e-10, abs=1e-13)


ERRORS = [
    ("omnibus-unknown", lambda: compare(load_demsar_table6(), omnibus="ANOVA"),
     InvalidInputError, "omnibus must be one of"),
    ("omnibus-unknown-on-q2", lambda: compare(_noisy(), omnibus="tukey"),
     InvalidInputError, "omnibus must be one of"),
    ("anova-with-rank-posthoc", lambda: compare(load_demsar_table6(), omnibus="anova",
                                                posthoc="nemenyi"),
     InvalidInputError, "rank test of the Friedman route"),
    ("anova-two-models", lambda: compare(SIX_BY_FOUR[["m0", "m1"]], omnibus="anova",
                                         higher_is_better=True),
     InvalidInputError, "k >= 3 models"),
    ("friedman-resamples-0", lambda: friedman_permutation([[1, 2, 3], [3, 2, 1]],
                                                          n_resamples=0),
     InvalidInputError, "n_resamples must be a positive integer"),
    ("friedman-exact-too-large", lambda: friedman_permutation(
        np.random.default_rng(0).normal(size=(10, 10)), exact=True),
     InvalidInputError, "too large to enumerate"),
    ("q2-rho-one", lambda: compare(_noisy(), rho=1.0), OutperformError, "rho must lie in"),
]


@pytest.mark.parametrize("call, exc, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_python_refusals(call, exc, match):
    assert _raises(exc, match, call)


WARNINGS = [
    ("rho-0", lambda: compare(_noisy(), rho=0).warnings, "rho = 0: the corrected resampled"),
    ("rope-0-q2", lambda: compare(_noisy(), rope=0).warnings, "rope = 0: no region"),
    ("constant-default-rope", lambda: compare(_folds(np.full(10, 0.01))).warnings,
     "A vs B: no decision"),
    ("q1-rope-0", lambda: compare_predictions(_probabilities(), loss="squared",
                                              rope=0).warnings, "TOST equivalence test"),
    ("anova-assumptions", lambda: compare(load_demsar_table6(), omnibus="anova").warnings,
     "advises the Friedman test"),
    ("omnibus-on-q2", lambda: compare(_noisy(), omnibus="anova").warnings,
     "option omnibus='anova' does not apply to Q2"),
    ("small-n-permutation", lambda: compare(THREE_BY_FIVE, higher_is_better=True).warnings,
     "the omnibus decision uses its exact permutation distribution"),
    ("small-n-withheld", lambda: compare(SIX_BY_FOUR, higher_is_better=True, control="m0",
                                         posthoc="holm").warnings,
     "post-hoc decisions withheld"),
    ("q3-constant-difference-default-rope",
     lambda: compare(pd.DataFrame({"A": np.arange(600., 612) + 10, "B": np.arange(600., 612)}),
                     bayesian=True, higher_is_better=True).warnings,
     "has zero width: a practical difference would rest on no ROPE"),
]


@pytest.mark.parametrize("call, words", [c[1:] for c in WARNINGS],
                         ids=[c[0] for c in WARNINGS])
def test_python_warnings(call, words):
    assert any(words in w for w in call())


def test_variance_boundary_note_names_the_component():
    rng = np.random.default_rng(0)
    rows = [{"task": t, "model": m, "run": r, "score": 1000 * (d + s + rng.normal(0, 0.08))}
            for t, d in zip("PBSQEA", rng.uniform(0.3, 0.8, 6))
            for m, s in (("DQN", 0.0), ("C51", 0.05), ("Rainbow", 0.12)) for r in range(5)]
    notes = variance_components(pd.DataFrame(rows)).notes
    assert any(n.startswith("the variance of seed is estimated on the boundary") for n in notes)
