"""A real battle data set published by another project reproduces that project's scores.

evalica's LLMFAO comparisons (tests/fixtures/real/evalica/, pinned in its README): evalica's
``bradley_terry`` counts a tie as half a win for each side (``tie_weight=0.5``), our
``ties="half"``, and its golden file holds the strengths pi_i = exp(lambda_i) divided by
their sum, checked by evalica's own test with ``rtol=1e-4`` (``test_bradley_terry_dataset``).
"""
import numpy as np
import pytest
import pandas as pd

from _paths import FIXTURES
from outperform.compare import bradley_terry as bt_table

HERE = FIXTURES / "real" / "evalica"


def test_llmfao_reproduces_evalica_golden_bradley_terry_scores():
    raw = pd.read_csv(HERE / "llmfao.csv", dtype=str)
    golden = pd.read_csv(HERE / "llmfao-golden.csv")
    golden = golden[golden["algorithm"] == "bradley_terry"].set_index("item")["score"]
    battles = pd.DataFrame({"model_a": raw["left"], "model_b": raw["right"],
                            "winner": raw["winner"].map({"left": "a", "right": "b",
                                                         "tie": "tie"})})
    res = bt_table(battles, ties="half")
    assert res.ties == "half" and len(res.models) == len(golden) == 59
    strength = pd.Series(np.exp(res.abilities), index=res.models)
    scores = strength / strength.sum()
    # evalica's tolerance (rtol=1e-4); ours meets it with four digits to spare (9e-9)
    np.testing.assert_allclose(scores[golden.index], golden, rtol=1e-4)
    assert np.max(np.abs(scores[golden.index] / golden - 1)) < 1e-7
    # the Elo scale is the same ability gap: 400 log10 of the strength ratio
    top, low = golden.idxmax(), golden.idxmin()
    gap = res.ratings[res.models.index(top)] - res.ratings[res.models.index(low)]
    assert gap == pytest.approx(400 * np.log10(golden[top] / golden[low]), abs=1e-4)
