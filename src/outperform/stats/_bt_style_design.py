"""Style features of battles as LMArena builds them, and the aggregated design of the fit.

Per battle and feature, the two answers' values f_A, f_B (token counts, markdown header,
list and bold counts, ...) become the relative difference

    d = (f_A - f_B) / (f_A + f_B),    0 / 0 := 0,

(LMArena: ``add_style_feature_cols`` of arena-rank's examples, where a zero total is replaced
by 1; FastChat's ``preprocess_for_style`` adds 1 to every total instead), and every column is
standardised over the battles, (d - mean) / sd with the population sd (ddof = 0; a column of
sd 0 is left centred, as arena-rank's ``ContextualPairDataset.from_pandas``). With frequency
weights the mean and sd are the weighted ones, i.e. those of the battles the rows stand for.

Battles identical in (model A, model B, outcome, features) are one row of the design
with a count: with discrete features (counts of markdown elements, bucketed lengths) this
shrinks the data many times; with continuous ones each battle stays a row.
"""
from __future__ import annotations

import numpy as np
from scipy import sparse

from .._validation import InvalidInputError

__all__ = ["relative_differences"]


def relative_differences(features_a, features_b) -> np.ndarray:
    """LMArena's normalised style difference (f_A - f_B) / (f_A + f_B), 0/0 = 0.

    Parameters
    ----------
    features_a, features_b : array_like, shape (n,) or (n, p)
        Non-negative feature values of the answers of model A and model B.

    Returns
    -------
    ndarray, shape (n, p)
        In [-1, 1]; positive when A's answer has more of the feature.

    Raises
    ------
    InvalidInputError
        Shapes differ, a value is negative, NaN or infinite.

    Examples
    --------
    >>> relative_differences([300, 0, 10], [100, 0, 30]).ravel().tolist()
    [0.5, 0.0, -0.5]
    """
    fa, fb = np.asarray(features_a, dtype=float), np.asarray(features_b, dtype=float)
    if fa.ndim == 1:
        fa, fb = fa[:, None], fb[:, None] if fb.ndim == 1 else fb
    if fa.shape != fb.shape or fa.ndim != 2:
        raise InvalidInputError(f"the features of A and B must have one shape (n, p), got "
                                f"{fa.shape} and {fb.shape}.")
    if not (np.all(np.isfinite(fa)) and np.all(np.isfinite(fb))):
        raise InvalidInputError("a style feature is NaN or infinite; give every battle both "
                                "answers' values.")
    if np.any(fa < 0) or np.any(fb < 0):
        raise InvalidInputError("a style feature is negative: (f_A - f_B) / (f_A + f_B) needs "
                                "counts or lengths >= 0; give a signed covariate as one "
                                "per-battle column instead.")
    total = fa + fb
    return (fa - fb) / np.where(total == 0, 1.0, total)


def standardize(x: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x - mean) / sd per column over the battles (weights ``counts``), sd of 0 -> 1.

    Returns the standardised matrix, the means and the sds (0 where a column is constant).
    """
    w = counts / counts.sum()
    mean = w @ x
    sd = np.sqrt(w @ (x - mean) ** 2)
    return (x - mean) / np.where(sd > 0, sd, 1.0), mean, sd


class StyleDesign:
    """Unique battles x counts and the sparse design [model +1/-1 | features].

    Attributes
    ----------
    ia, ib : ndarray of int, shape (u,)
        Model indices of the unique rows.
    y : ndarray, shape (u,)
        Outcome for A: 1 win, 0 loss, 0.5 tie (a tie is half a win for each side).
    x : ndarray, shape (u, p)
        Standardised style differences.
    counts : ndarray, shape (u,)
        Total frequency weight of the battles of each unique row.
    v : ndarray, shape (u,)
        Inverse-propensity weight of the row's pair (1 without reweighting).
    design : scipy.sparse.csr_matrix, shape (u, m + p)
        Columns: m models (+1 for A, -1 for B), then p features.
    """

    def __init__(self, ia, ib, y, x, weights, n_models: int, reweight: bool,
                 min_pair_count: float):
        p = x.shape[1]
        # unique rows (A, B, outcome, features); their frequency weights summed
        rows = np.column_stack([ia, ib, 2 * y, x])
        uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
        self.n_battles = float(weights.sum())
        self.counts = np.bincount(inverse.ravel(), weights=weights, minlength=len(uniq))
        self.ia, self.ib = uniq[:, 0].astype(int), uniq[:, 1].astype(int)
        self.y, self.x = uniq[:, 2] / 2, uniq[:, 3:]
        self.n_models, self.n_features = n_models, p
        lo, hi = np.minimum(self.ia, self.ib), np.maximum(self.ia, self.ib)
        pair = lo * n_models + hi
        if reweight:
            # arena-rank: 1 / max(battles of the pair, min_pair_count), mean 1 over battles
            keys, of = np.unique(pair, return_inverse=True)
            per_pair = np.bincount(of, weights=self.counts, minlength=keys.size)
            v = 1.0 / np.maximum(per_pair[of], min_pair_count)
            self.v = v / (self.counts @ v / self.n_battles)
        else:
            self.v = np.ones(len(uniq))
        u = len(uniq)
        r = np.arange(u)
        model_part = sparse.csr_matrix(
            (np.concatenate([np.ones(u), -np.ones(u)]),
             (np.concatenate([r, r]), np.concatenate([self.ia, self.ib]))),
            shape=(u, n_models))
        self.design = sparse.hstack([model_part, sparse.csr_matrix(self.x)], format="csr")

    @property
    def n_rows(self) -> int:
        return len(self.y)

    def eta(self, theta: np.ndarray) -> np.ndarray:
        """Linear predictor (logit of A winning), shape (u,), at full parameters theta."""
        return self.design @ theta
