"""Random pairwise battles drawn from a Bradley–Terry model, for the tests of its fit
(``from _battles import random_battles``; ``tests`` is on pytest's ``pythonpath``)."""
from __future__ import annotations

import numpy as np
import pandas as pd


def random_battles(seed: int, m: int, n: int, tie_rate: float, *, sd: float,
                   wins=("model_a", "model_b"), ties=("tie",), prefix: str = "m") -> pd.DataFrame:
    """``n`` battles of ``m`` models (abilities ~ N(0, sd²)), sides drawn at random, distinct.

    A battle is won by ``model_a`` with probability 1 / (1 + exp(λ_b − λ_a)), its winner
    coded ``wins[0]`` or ``wins[1]``; then a share ``tie_rate`` of the battles become ties
    (one of ``ties``, drawn at random when there are several). Models are ``<prefix>0``, ...
    """
    rng = np.random.default_rng(seed)
    lam = rng.normal(0, sd, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    win = np.where(rng.random(n) < 1 / (1 + np.exp(lam[b] - lam[a])), wins[0], wins[1])
    tied = rng.random(n) < tie_rate
    win = np.where(tied, ties[0] if len(ties) == 1 else rng.choice(list(ties), n), win)
    names = np.array([f"{prefix}{k}" for k in range(m)])
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": win})
