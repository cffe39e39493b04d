"""decide(): Williams (2026) §5.2 in the result's field order, vectorised."""
import itertools

import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.bayes import bayesian_mcnemar, decide, pairwise_poisson_binomial_test


def test_williams_section_6_1_in_field_order():
    # Williams (2026) §6.1, LgR vs MLP: P(A better) 0.014, P(equivalent) 0.660, P(B better)
    # 0.326; A better on the right, as for a difference A - B.
    assert decide(0.326, 0.660, 0.014, a_better_side="right") == "undecided"
    assert decide(0.996, 0.004, 0.000005, a_better_side="right") == "B better"
    assert decide(0.996, 0.004, 0.000005, a_better_side="left") == "A better"
    assert decide(0.01, 0.98, 0.01, a_better_side="left") == "practically equivalent"
    assert isinstance(decide(0.1, 0.2, 0.7, a_better_side="left"), str)


def test_the_decision_of_a_result_is_decide_of_its_fields():
    res = bayesian_mcnemar(159, 198)   # Williams §6.2, a_better_side "left"
    assert res.decision == decide(res.p_left, res.p_rope, res.p_right,
                                  a_better_side=res.a_better_side, threshold=res.threshold)


@pytest.mark.parametrize("side, threshold", list(itertools.product(("left", "right"),
                                                                   (0.6, 0.8, 0.95))))
def test_array_decisions_equal_the_scalar_loop(side, threshold):
    rng = np.random.default_rng(1)
    p = rng.dirichlet([0.3, 0.3, 0.3], size=(40, 3))
    p[0] = (0.5, 0.0, 0.5)                    # two regions at 0.5: neither decides
    table = decide(p[..., 0], p[..., 1], p[..., 2], a_better_side=side, threshold=threshold)
    assert table.shape == (40, 3) and table.dtype == object
    loop = [[decide(*p[i, j], a_better_side=side, threshold=threshold) for j in range(3)]
            for i in range(40)]
    assert table.tolist() == loop
    assert set(table.ravel()) <= {"A better", "B better", "practically equivalent",
                                  "undecided"}


def test_side_is_required_and_checked():
    with pytest.raises(TypeError):
        decide(0.1, 0.2, 0.7)      # the side is keyword-only, with no default
    with pytest.raises(InvalidInputError, match="a_better_side"):
        decide(0.1, 0.2, 0.7, a_better_side="up")
    with pytest.raises(InvalidInputError, match="threshold"):
        decide(0.1, 0.2, 0.7, a_better_side="left", threshold=1.5)


def test_pairwise_decisions_are_decide_of_each_pair():
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 30, size=(12, 4, 4))
    res = pairwise_poisson_binomial_test(counts, kind="discordant", threshold=0.8)
    p, rope = res.statistic, res.details["p_rope"]
    decision = res.details["decision"]
    for i, j in itertools.permutations(range(4), 2):
        # Row model i is A: P(i better than j) on the right.
        assert decision[i, j] == decide(p[j, i], rope[i, j], p[i, j], a_better_side="right",
                                        threshold=0.8)
    assert all(decision[i, i] == "" for i in range(4))
    assert {"A better", "B better"} <= set(decision.ravel())
