"""Effect sizes: Williams (2026) §5.1 and §6.2, Demšar (2006) Table 2, scipy."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import cohens_d, cohens_g, effect_size_label, rank_biserial

# Williams (2026) Table 1: n01 (GNN wrong, LLM right) and n10 (GNN right, LLM wrong) for the
# 11 language pairs; model A = GNN, model B = LLM.
PAIRS = ["de-en", "da-en", "es-en", "fr-en", "it-en", "id-en", "nl-en", "sv-en", "tr-en",
         "tr-de", "zh-en"]
N01 = [63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44]
N10 = [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46]


def test_williams_cohens_g():
    # §6.2: "For language pair 9 we have a medium effect of |g| = 0.18, and for pair 2 we have
    # |g| = 0.055 which just qualifies for the term small. For all other pairs the effect size
    # would be described as negligible."
    g = dict(zip(PAIRS, cohens_g(N01, N10)))
    assert round(abs(g["tr-en"]), 2) == 0.18
    assert round(abs(g["da-en"]), 3) == 0.055
    labels = {p: effect_size_label(v, "g") for p, v in g.items()}
    assert labels.pop("tr-en") == "medium" and labels.pop("da-en") == "small"
    assert set(labels.values()) == {"negligible"}


def test_cohens_g_sign_convention():
    # Williams' g = phi - 1/2 with phi = n01/(n01 + n10); the package's g is its negative,
    # positive when A (the GNN) is better: the GNN wins da-en (phi ~ 0.45), loses tr-en.
    assert cohens_g(159, 198) == pytest.approx(0.5 - 159 / 357)
    assert cohens_g(159, 198) > 0 > cohens_g(64, 30)
    assert cohens_g(30, 64) == -cohens_g(64, 30)
    assert (cohens_g(0, 5), cohens_g(5, 0)) == (0.5, -0.5)
    assert isinstance(cohens_g(1, 2), float)


@pytest.mark.parametrize("n01, n10, error, message", [
    (-1, 3, InvalidInputError, "non-negative"),
    (1.5, 3, InvalidInputError, "whole numbers"),
    (np.nan, 3, InvalidInputError, "NaN"),
    (0, 0, DegenerateDataError, "without discordant"),
    ([1, 2], [1, 2, 3], InvalidInputError, "same shape"),
])
def test_cohens_g_bad_input(n01, n10, error, message):
    with pytest.raises(error, match=message):
        cohens_g(n01, n10)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=2, max_size=30), st.data())
def test_cohens_d_is_t_over_sqrt_n(a, data):
    a = np.array(a)
    b = np.array(data.draw(st.lists(st.floats(-50, 50), min_size=a.size, max_size=a.size)))
    assume(np.ptp(a - b) > 1e-6)
    t = stats.ttest_rel(a, b).statistic
    assert cohens_d(a, b) == pytest.approx(t / np.sqrt(a.size), rel=1e-9)
    assert cohens_d(a - b) == cohens_d(a, b)
    assert cohens_d(b, a) == -cohens_d(a, b)


def test_cohens_d_is_the_paired_not_the_pooled_d():
    a, b = np.array([0.81, 0.74, 0.90, 0.66]), np.array([0.78, 0.75, 0.85, 0.61])
    assert cohens_d(a, b) == pytest.approx(0.03 / np.std(a - b, ddof=1))


@pytest.mark.parametrize("a, b, error, message", [
    ([1.0], [0.0], TooFewError, "at least 2"),
    ([1, 2], [0, 1], DegenerateDataError, "standard deviation 0"),
    ([1, np.nan], [0, 1], InvalidInputError, "NaN"),
    ([1, 2, 3], [0, 1], InvalidInputError, "paired"),
])
def test_cohens_d_bad_input(a, b, error, message):
    with pytest.raises(error, match=message):
        cohens_d(a, b)


@pytest.mark.parametrize("value, kind, label", [
    (0.066, "d", "negligible"), (0.53, "d", "medium"),     # Williams §5.2
    (0.1999, "d", "negligible"), (0.2, "d", "small"), (-0.49, "d", "small"),
    (0.5, "d", "medium"), (0.79, "d", "medium"), (-0.8, "d", "large"), (3.0, "d", "large"),
    (0.0, "g", "negligible"), (0.049, "g", "negligible"), (0.05, "g", "small"),
    (-0.14, "g", "small"), (0.15, "g", "medium"), (0.2499, "g", "medium"),
    (-0.25, "g", "large"), (0.5, "g", "large"),
])
def test_effect_size_labels(value, kind, label):
    assert effect_size_label(value, kind) == label


@pytest.mark.parametrize("value, kind, message", [
    (0.3, "r", "kind"), (np.nan, "d", "NaN"), (np.inf, "g", "infinite")])
def test_effect_size_label_bad_input(value, kind, message):
    with pytest.raises(InvalidInputError, match=message):
        effect_size_label(value, kind)


def test_rank_biserial():
    # Demšar (2006) Table 2: R+ = 93, R- = 12, N = 14 (total 105 = 14 * 15 / 2).
    assert rank_biserial(93, 12) == pytest.approx(81 / 105)
    assert rank_biserial(12, 93) == -rank_biserial(93, 12)
    assert (rank_biserial(10, 0), rank_biserial(0, 3), rank_biserial(4, 4)) == (1, -1, 0)


@pytest.mark.parametrize("r_plus, r_minus, error, message", [
    (0, 0, DegenerateDataError, "undefined"),
    (-1, 3, InvalidInputError, "non-negative"),
    (np.nan, 3, InvalidInputError, "NaN"),
])
def test_rank_biserial_bad_input(r_plus, r_minus, error, message):
    with pytest.raises(error, match=message):
        rank_biserial(r_plus, r_minus)
