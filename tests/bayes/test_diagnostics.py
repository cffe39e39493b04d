"""Split R-hat and effective sample size in numpy against NumPyro's estimators (the peer they
were written from: numpyro.diagnostics.split_gelman_rubin and effective_sample_size)."""
import numpy as np
import pytest

from outperform.bayes._diagnostics import effective_sample_size, split_rhat


def _ar1(rng, shape, phi):
    """AR(1) chains along axis 1 (autocorrelation phi), chain means shifted a little."""
    noise = rng.normal(size=shape)
    x = np.empty(shape)
    x[:, 0] = noise[:, 0]
    for t in range(1, shape[1]):          # a test helper: 500 steps
        x[:, t] = phi * x[:, t - 1] + noise[:, t]
    return x + rng.normal(0, 0.1, size=(shape[0], 1) + shape[2:])


@pytest.mark.slow
@pytest.mark.parametrize("shape, phi", [((4, 500), 0.9), ((2, 501, 3), 0.5), ((1, 500), 0.0),
                                        ((4, 500, 2, 2), -0.3)])
def test_the_same_numbers_as_numpyro(shape, phi):
    numpyro_diagnostics = pytest.importorskip("numpyro.diagnostics")
    x = _ar1(np.random.default_rng(1), shape, phi)
    np.testing.assert_allclose(effective_sample_size(x),
                               numpyro_diagnostics.effective_sample_size(x), rtol=1e-12)
    np.testing.assert_allclose(split_rhat(x), numpyro_diagnostics.split_gelman_rubin(x),
                               rtol=1e-12)


def test_a_stuck_chain_pair_gives_a_large_r_hat():
    x = np.random.default_rng(2).normal(size=(2, 400))
    x[1] += 5.0                           # two chains in different places
    assert split_rhat(x) > 2
