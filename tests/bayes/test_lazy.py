"""Closed-form Bayesian tests build their scipy frozen posterior only when a user reads it
(issue 14: freezing cost more than the test itself in all-pairs loops), and it still
pickles and answers like the frozen distribution."""
import pickle

import numpy as np
import pytest
import scipy.stats

from outperform.bayes import bayesian_mcnemar, bayesian_ttest, correlated_bayesian_ttest

A = np.array([0.81, 0.83, 0.79, 0.84, 0.80, 0.82, 0.85, 0.80, 0.83, 0.81])
B = np.array([0.80, 0.80, 0.78, 0.81, 0.80, 0.79, 0.83, 0.79, 0.80, 0.80])

CASES = {
    "correlated": ("t", lambda: correlated_bayesian_ttest(A, B, rho=0.1, rope=0.01)),
    "ttest": ("t", lambda: bayesian_ttest(A, B)),
    "mcnemar": ("beta", lambda: bayesian_mcnemar(159, 198)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_frozen_posterior_is_built_only_when_read(case, monkeypatch):
    name, run = CASES[case]
    real, built = getattr(scipy.stats, name), []

    class Spy:
        """Counts freezings; unfrozen calls (scipy.stats.beta.ppf(q, a, b)) pass through."""

        def __call__(self, *args, **kwds):
            built.append((args, kwds))
            return real(*args, **kwds)

        def __getattr__(self, attr):
            return getattr(real, attr)

    monkeypatch.setattr(scipy.stats, name, Spy())
    res = run()
    assert built == []
    lo, hi = res.credible_interval_95
    # The interval the test reports is the frozen distribution's own 95% interval.
    assert res.posterior.ppf([0.025, 0.975]) == pytest.approx([lo, hi], rel=1e-12)
    res.posterior.mean()
    assert len(built) == 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_lazy_posterior_pickles_and_answers_like_scipy(case):
    name, run = CASES[case]
    res = run()
    again = pickle.loads(pickle.dumps(res))
    q = np.array([0.01, 0.3, 0.5, 0.9])
    np.testing.assert_array_equal(again.posterior.ppf(q), res.posterior.ppf(q))
    # Built after unpickling too, and the same distribution scipy gives for the parameters.
    frozen = res.posterior.frozen()
    reference = getattr(scipy.stats, name)(*frozen.args, **frozen.kwds)
    np.testing.assert_array_equal(res.posterior.ppf(q), reference.ppf(q))
    assert res.posterior.dist.name == name
