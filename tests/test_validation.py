"""Shared input checks: counts given as text or flags, and random_state, refused with a message.

Issue 12, "Why" item 9: ``mcnemar("3", 5)`` and ``mcnemar(True, 5)`` were accepted (numpy
converts both), and ``random_state="x"`` reached numpy's own error.
"""
import numpy as np
import pandas as pd
import pytest

from outperform._validation import InvalidInputError, check_random_state
from outperform.bayes import (bayesian_mcnemar, bayesian_sign_test, bayesian_signed_rank_test,
                              hierarchical_mcnemar, pairwise_bayesian_signed_rank_test)
from outperform.compare import compare
from outperform.stats import PoissonBinomial, beta_risk_bound, mcnemar, paired_bootstrap


@pytest.mark.parametrize("n01", ["3", b"3", True, np.True_, [1, "2"], [True, False],
                                 np.array(["3"])])
def test_mcnemar_refuses_counts_given_as_text_or_flags(n01):
    with pytest.raises(InvalidInputError, match="counts"):
        mcnemar(n01, 5)


@pytest.mark.parametrize("call", [
    lambda: bayesian_mcnemar("3", 5),
    lambda: bayesian_mcnemar(3, True),
    lambda: beta_risk_bound("4", 10),
    lambda: hierarchical_mcnemar([1, 2, True], [3, 4, 5]),
    lambda: hierarchical_mcnemar(pd.Series([1, 2, 3]).astype(str), [3, 4, 5]),
])
def test_every_count_taking_function_refuses_text_and_flags(call):
    with pytest.raises(InvalidInputError, match="counts"):
        call()


def test_numeric_counts_still_pass():
    # Whole floats and numpy integers are counts (as before).
    assert mcnemar(3.0, np.int64(5)).pvalue == mcnemar(3, 5).pvalue


BAD_SEEDS = ["x", 1.5, True, -1, np.random.RandomState(0), [1, 2]]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_check_random_state_names_what_is_accepted(seed):
    with pytest.raises(InvalidInputError, match="random_state"):
        check_random_state(seed)


@pytest.mark.parametrize("seed", [None, 0, np.int64(7), np.random.SeedSequence(3),
                                  np.random.default_rng(1)], ids=repr)
def test_check_random_state_accepts_seeds_and_generators(seed):
    assert isinstance(check_random_state(seed), np.random.Generator)


def test_check_random_state_keeps_the_stream_of_an_int_seed():
    # Property: the same draws as numpy.random.default_rng(seed).
    assert check_random_state(5).random() == np.random.default_rng(5).random()


_A = [0.81, 0.92, 0.77, 0.85, 0.90, 0.68, 0.88, 0.95]
_B = [0.80, 0.90, 0.78, 0.81, 0.86, 0.70, 0.85, 0.91]
_Y = np.arange(40) % 2
_PA, _PB = _Y.copy(), _Y.copy()
_PA[:4], _PB[10:20] = 1 - _PA[:4], 1 - _PB[10:20]


@pytest.mark.slow
@pytest.mark.parametrize("call", [
    lambda rs: paired_bootstrap(_Y, _PA, _PB, lambda y, p: np.mean(y == p), random_state=rs,
                                n_resamples=50),
    lambda rs: bayesian_signed_rank_test(_A, _B, rope=0.01, random_state=rs, n_samples=100),
    lambda rs: bayesian_sign_test(_A, _B, rope=0.01, random_state=rs, n_samples=100),
    lambda rs: pairwise_bayesian_signed_rank_test(np.column_stack([_A, _B]), random_state=rs,
                                                  n_samples=100),
    lambda rs: PoissonBinomial([0.2, 0.5, 0.9]).rvs(3, random_state=rs),
    lambda rs: hierarchical_mcnemar([3, 4, 5], [6, 2, 9], random_state=rs, grid_size=8,
                                    n_samples=10),
    lambda rs: compare(pd.DataFrame({"task": [f"d{i}" for i in range(8)] * 2,
                                     "model": ["A"] * 8 + ["B"] * 8, "accuracy": _A + _B}),
                       bayesian=True, random_state=rs),
], ids=["paired_bootstrap", "signed_rank", "sign", "pairwise_signed_rank", "poisson_binomial",
        "hierarchical_mcnemar", "compare"])
def test_random_state_text_gets_one_clear_message_everywhere(call):
    with pytest.raises(InvalidInputError, match="random_state must be None, a non-negative int"):
        call("x")
    call(np.random.SeedSequence(0))  # and a SeedSequence is accepted everywhere
