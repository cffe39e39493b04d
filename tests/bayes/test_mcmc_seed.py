"""The chains' PRNG keys are made inside the sampler program from a uint32 seed word (issue
31: seeding and splitting outside compiled two programs of their own in a first process):
the same keys as jax.random.split(jax.random.PRNGKey(seed)) of the Python int, so every
seed keeps giving the draws it gave before."""
import numpy as np
import pytest

from outperform.bayes._mcmc import chain_keys, seed_word


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 3, 42, 2**31 - 1, 2**31, 2**32 + 5, -5])
def test_keys_made_in_the_program_are_those_of_the_python_seed(seed):
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        before = jax.random.split(jax.random.PRNGKey(seed), 4)       # the former keys
        inside = jax.jit(chain_keys, static_argnums=1)(seed_word(seed), 4)
    np.testing.assert_array_equal(np.asarray(inside), np.asarray(before))


def test_the_seed_word_is_the_seed_modulo_two_to_the_32():
    assert [int(seed_word(s)) for s in (0, 2**31, 2**32 + 5, -5)] == [0, 2**31, 5, 2**32 - 5]
    assert seed_word(7).dtype == np.uint32
