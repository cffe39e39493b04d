"""Item statistics and Heineman et al. (2025)'s signal-to-noise ratio and decision accuracy
(stats/_items.py), against scipy and against the outputs of the paper's reference code
(allenai/signal-and-noise, snr/metrics.py) stored in tests/fixtures/peers/signal_and_noise.json
by make_signal_and_noise.py beside it (the calls recorded there)."""
import json

import numpy as np
import pytest
from scipy import stats as sps

from _paths import FIXTURES
from outperform._validation import InvalidInputError
from outperform.stats import (decision_accuracy, item_statistics, signal_to_noise_ratio,
                              top_k_agree)

REF = json.loads((FIXTURES / "peers" / "signal_and_noise.json").read_text())


@pytest.mark.parametrize("case", REF["signal_to_noise_ratio"], ids=lambda c: f"seed{c['seed']}")
def test_snr_equals_the_reference_code_on_the_same_score_matrix(case):
    # their compute_snr_small_scale: signal = each mix's mean of its last 5 checkpoints,
    # noise = the scores flattened; snr.metrics.signal_to_noise_ratio(list(signal), list(noise))
    signal, noise = np.array(case["signal"]), np.array(case["noise"])
    assert signal_to_noise_ratio(signal, noise) == pytest.approx(case["snr"], rel=1e-12)
    # their large-scale form: one model's last 30 checkpoints as the noise;
    # snr.metrics.signal_to_noise_ratio(signal, last)
    assert signal_to_noise_ratio(signal, np.array(case["last"])) == pytest.approx(
        case["snr_last"], rel=1e-12)


def test_snr_rows_are_the_single_calls():
    # [snr.metrics.signal_to_noise_ratio(a, b) for a, b in zip(signal, noise)]
    case = REF["signal_to_noise_ratio_rows"]
    rows = signal_to_noise_ratio(np.array(case["signal"]), np.array(case["noise"]))
    assert rows == pytest.approx(case["snr"], rel=1e-12)


@pytest.mark.parametrize("case", REF["decision_acc_fast"], ids=lambda c: f"seed{c['seed']}")
def test_decision_accuracy_equals_the_reference_code(case):
    # small has ties (items 2, 5, 7), counted as their code counts them;
    # snr.metrics.decision_acc_fast(small, target) and decision_acc_fast(target, small)
    small, target = np.array(case["small"]), np.array(case["target"])
    assert decision_accuracy(small, target) == pytest.approx(case["small_vs_target"], abs=1e-15)
    assert decision_accuracy(np.stack([small, target]), np.stack([target, small])) == \
        pytest.approx([case["small_vs_target"], case["target_vs_small"]], abs=1e-15)


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
