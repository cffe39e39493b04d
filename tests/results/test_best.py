"""ComparisonWithBest (results/_best.py): a frozen value that pickles and serialises."""
from __future__ import annotations

import dataclasses
import json
import pickle

import numpy as np
import pytest

from outperform.stats import mcb

SCORES = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
          [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]


def test_frozen_pickles_and_is_json_safe():
    res = mcb(SCORES, names="ABC")
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.alpha = 0.1
    back = pickle.loads(pickle.dumps(res))
    np.testing.assert_array_equal(back.upper, res.upper)
    d = json.loads(json.dumps(res.to_dict()))
    assert [row["model"] for row in d["models"]] == ["A", "B", "C"]     # best mean first
    assert [row["could_be_best"] for row in d["models"]] == res.could_be_best.tolist()
    assert repr(res).startswith("ComparisonWithBest(method='MCB'")
    assert res.half_width == pytest.approx(res.critical_value * res.standard_error)
