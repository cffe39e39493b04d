"""Item statistics and Heineman et al. (2025)'s signal-to-noise ratio and decision accuracy
(stats/_items.py), against scipy and against the reference code of the paper run on the same
scores (allenai/signal-and-noise, snr/metrics.py, pinned in tests/fixtures/real/README.md)."""
import numpy as np
import pytest
from scipy import stats as sps

from _snr_reference import load
from outperform._validation import InvalidInputError
from outperform.stats import (decision_accuracy, item_statistics, signal_to_noise_ratio,
                              top_k_agree)

REF = load()


def _checkpoints(seed=0, mixes=12, steps=5):
    """A (mix, checkpoint) score matrix as their compute_snr_small_scale reads it."""
    rng = np.random.default_rng(seed)
    return 0.4 + 0.1 * rng.random((mixes, 1)) + rng.normal(0, 0.01, (mixes, steps))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_snr_equals_the_reference_code_on_the_same_score_matrix(seed):
    scores = _checkpoints(seed)
    # their compute_snr_small_scale: signal = each mix's mean of its last 5 checkpoints,
    # noise = the scores flattened; then snr.metrics.signal_to_noise_ratio(signal, noise)
    signal, noise = scores.mean(axis=1), scores.flatten()
    expected = REF.signal_to_noise_ratio(list(signal), list(noise))
    assert signal_to_noise_ratio(signal, noise) == pytest.approx(expected, rel=1e-12)
    # their large-scale form: one model's last 30 checkpoints as the noise
    last = np.random.default_rng(seed + 10).normal(0.6, 0.02, 30)
    assert signal_to_noise_ratio(signal, last) == pytest.approx(
        REF.signal_to_noise_ratio(signal, last), rel=1e-12)


def test_snr_rows_are_the_single_calls():
    rng = np.random.default_rng(3)
    m, n = rng.random((4, 7)) + 0.2, rng.random((4, 9)) + 0.2
    rows = signal_to_noise_ratio(m, n)
    assert rows == pytest.approx([REF.signal_to_noise_ratio(a, b) for a, b in zip(m, n)],
                                 rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_decision_accuracy_equals_the_reference_code(seed):
    rng = np.random.default_rng(seed)
    small = rng.random(15)
    target = small + rng.normal(0, 0.2, 15)
    small[[2, 5]] = small[7]                         # ties, counted as their code counts them
    expected = REF.decision_acc_fast(small, target)
    assert decision_accuracy(small, target) == pytest.approx(expected, abs=1e-15)
    assert decision_accuracy(np.stack([small, target]), np.stack([target, small])) == \
        pytest.approx([expected, REF.decision_acc_fast(target, small)], abs=1e-15)


def test_decision_accuracy_properties():
    x = np.array([0.1, 0.4, 0.3, 0.9])
    assert decision_accuracy(x, 2 * x + 1) == 1.0           # same order
    assert decision_accuracy(x, -x) == 0.0                  # reversed order
    with pytest.raises(InvalidInputError, match="same k"):
        decision_accuracy(x, x[:3])


def test_snr_refuses_too_few():
    with pytest.raises(InvalidInputError, match="at least 2"):
        signal_to_noise_ratio([0.5], [0.4, 0.5])


def test_discrimination_is_the_corrected_item_total_correlation():
    rng = np.random.default_rng(0)
    x = (rng.random((15, 25)) < np.linspace(0.2, 0.8, 15)[:, None]).astype(float)
    s = item_statistics(x)
    for j in range(x.shape[1]):
        rest = np.delete(x, j, axis=1).mean(axis=1)
        if np.ptp(x[:, j]) == 0:
            assert np.isnan(s["discrimination"][j])
            continue
        # scipy.stats.pointbiserialr(item, rest score): the corrected item-total correlation
        assert s["discrimination"][j] == pytest.approx(sps.pointbiserialr(x[:, j], rest)[0],
                                                       abs=1e-12)
    assert s["difficulty"] == pytest.approx(x.mean(axis=0))


def test_discrimination_with_missing_cells_uses_the_answered_cells_only():
    rng = np.random.default_rng(1)
    x = rng.random((12, 20))                              # graded scores
    x[rng.random(x.shape) < 0.3] = np.nan
    s = item_statistics(x)
    for j in range(x.shape[1]):
        rows = ~np.isnan(x[:, j])
        others = np.delete(x, j, axis=1)
        rest = np.nanmean(others, axis=1)                 # mean over the other answered items
        ok = rows & ~np.isnan(rest)
        if ok.sum() < 3:
            assert np.isnan(s["discrimination"][j])
            continue
        assert s["discrimination"][j] == pytest.approx(sps.pearsonr(x[ok, j], rest[ok])[0],
                                                       abs=1e-12)
        assert s["difficulty"][j] == pytest.approx(np.nanmean(x[:, j]))
        assert s["n_models"][j] == rows.sum()


def test_extremes_and_unanswered_items():
    x = np.array([[1, 0, 1, np.nan], [1, 0, 0, np.nan], [1, 0, np.nan, np.nan]])
    s = item_statistics(x)
    assert s["all_right"].tolist() == [True, False, False, False]
    assert s["none_right"].tolist() == [False, True, False, False]
    assert s["n_models"].tolist() == [3, 3, 2, 0]
    assert np.isnan(s["difficulty"][3])


def test_top_k_agree():
    x = np.array([[1, 1, 0, 1], [1, 0, 0, np.nan], [0, 1, 1, 1.]])
    agree, n_top = top_k_agree(x, [0, 1])
    assert agree.tolist() == [True, False, True, False]   # item 3: one top model answered
    assert n_top.tolist() == [2, 2, 2, 1]
