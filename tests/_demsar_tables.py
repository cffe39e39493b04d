"""Demšar (2006), Table 6, typed in from the paper for the tests of ranks and post-hoc tests.

AUC of four variants of C4.5 on 14 UCI data sets (higher is better), columns in the paper's
order. The paper ranks the printed values, except on "voting", where C4.5+cf and C4.5+m+cf
both print 0.975 but get ranks 2 and 3 (the paper ranked unrounded AUCs). So two forms:

* ``AUC``: the printed values. Ranking them ties voting's 0.975s (2.5 each): average ranks
  (3.143, 2.000, 2.929, 1.929), Friedman chi2_F = 9.857 (NOTES.md).
* ``AUC_PAPER_RANKING``: the printed values with voting's C4.5+cf nudged up to 0.9751 so
  that it ranks before C4.5+m+cf, as in the paper: average ranks (3.143, 2.000, 2.893,
  1.964), chi2_F = 9.28, F_F = 3.69 (paper, p. 13).
* ``RANKS``: the ranks printed in parentheses in Table 6 (1 = best).
"""
import numpy as np

NAMES = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")

DATASETS = (
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere",
    "iris", "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor",
    "rheum", "voting", "wine",
)

AUC = np.array([
    [0.763, 0.768, 0.771, 0.798],
    [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898],
    [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685],
    [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962],
    [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975],
    [0.957, 0.978, 0.946, 0.970],
])

RANKS = np.array([
    [4, 3, 2, 1],
    [1, 2, 3, 4],
    [4, 1, 2, 3],
    [4, 1, 3, 2],
    [4, 2, 3, 1],
    [1, 2.5, 4, 2.5],
    [3, 2, 4, 1],
    [2.5, 2.5, 4, 1],
    [4, 3, 2, 1],
    [2.5, 2.5, 2.5, 2.5],
    [4, 2.5, 1, 2.5],
    [3, 2, 4, 1],
    [4, 1, 2, 3],
    [3, 1, 4, 2],
])

AUC_PAPER_RANKING = AUC.copy()
AUC_PAPER_RANKING[DATASETS.index("voting"), NAMES.index("C4.5+cf")] = 0.9751

# Average ranks as printed in the paper (Table 6, last row) and those of the printed values.
PAPER_AVERAGE_RANKS = np.array([3.143, 2.000, 2.893, 1.964])
TIED_AVERAGE_RANKS = np.array([3.143, 2.000, 2.929, 1.929])
