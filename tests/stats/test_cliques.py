"""Groups of models joined by a bar in a CD diagram (Demšar 2006, §3.2.4, Figure 1(a))."""
import csv
from importlib.resources import files
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outperform._validation import InvalidInputError
from outperform.stats import groups_from_critical_difference, nonsignificant_groups

# Demšar (2006) Table 6: C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on N = 14 data sets.
NAMES = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
PAPER_RANKS = np.array([3.143, 2.000, 2.893, 1.964])   # printed in the paper (tie broken)
TIED_RANKS = np.array([3.143, 2.000, 2.929, 1.929])    # "voting" row tied as printed (NOTES.md)
# Nemenyi CD = q_alpha * sqrt(k (k + 1) / (6 N)) with Demšar Table 5(a): q_0.05 = 2.569 and
# q_0.10 = 2.291 for k = 4; the paper rounds them to CD = 1.25 and 1.12.
SE = np.sqrt(4 * 5 / (6 * 14))
CD_005 = 2.569 * SE
CD_010 = 2.291 * SE


def named(groups):
    return [{NAMES[i] for i in g} for g in groups]


@pytest.mark.parametrize("ranks", [PAPER_RANKS, TIED_RANKS])
@pytest.mark.parametrize("cd", [CD_010, 1.12])
def test_demsar_table6_alpha_010_two_groups(ranks, cd):
    # Demšar: at alpha = 0.10 C4.5 differs from C4.5+m and C4.5+m+cf, nothing else does.
    assert named(groups_from_critical_difference(ranks, cd)) == [
        {"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]


@pytest.mark.parametrize("cd", [CD_005, 1.25])
def test_demsar_table6_alpha_005_one_group(cd):
    # Demšar: "the post-hoc test is not powerful enough to detect any significant differences".
    assert groups_from_critical_difference(PAPER_RANKS, cd) == [(3, 1, 2, 0)]


def test_demsar_from_reject_matrix_gives_the_same_groups():
    reject = np.zeros((4, 4), dtype=bool)
    for a, b in [("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")]:
        i, j = NAMES.index(a), NAMES.index(b)
        reject[i, j] = reject[j, i] = True
    assert nonsignificant_groups(PAPER_RANKS, reject) == [(3, 1, 2), (2, 0)]


def _symmetric(k, pairs):
    reject = np.zeros((k, k), dtype=bool)
    for i, j in pairs:
        reject[i, j] = reject[j, i] = True
    return reject


def test_wilcoxon_holm_style_non_transitive_decisions():
    # Rank order A < B < C < D (indices 2, 0, 3, 1). Holm rejects A-C and B-D but retains
    # A-D, so "not different" is not transitive: A~B, B~C, A!~C. The runs never join a
    # rejected pair; the retained far pair A-D cannot get a bar of its own.
    A, B, C, D = 2, 0, 3, 1
    ranks = np.empty(4)
    ranks[[A, B, C, D]] = [1.5, 2.2, 2.9, 3.4]
    reject = _symmetric(4, [(A, C), (B, D)])
    assert nonsignificant_groups(ranks, reject) == [(A, B), (B, C), (C, D)]


def test_rejected_neighbours_split_a_closer_pair_but_not_a_farther_one():
    # Only the adjacent pair B-C is rejected; A~C is retained but B sits between them.
    ranks = np.array([1.0, 2.0, 3.0, 4.0])
    assert nonsignificant_groups(ranks, _symmetric(4, [(1, 2)])) == [(0, 1), (2, 3)]


def test_extreme_cases():
    ranks = np.array([2.0, 1.0, 3.0])
    assert nonsignificant_groups(ranks, np.zeros((3, 3), bool)) == [(1, 0, 2)]
    assert nonsignificant_groups(ranks, ~np.eye(3, dtype=bool)) == []
    # The diagonal is ignored; 0/1 integers are accepted.
    assert nonsignificant_groups(ranks, np.ones((3, 3), int) - _symmetric(3, [(0, 1)])) == [(1, 0)]
    assert nonsignificant_groups([1.0], [[False]]) == []


# ----------------------------------------------------------------------- properties

def brute_force_groups(ranks, reject):
    """Every contiguous run of the rank order without a rejected pair, keep maximal ones."""
    order = list(np.argsort(ranks, kind="stable"))
    k = len(order)
    runs = [(s, e) for s in range(k) for e in range(s + 1, k)
            if not any(reject[order[a], order[b]] for a in range(s, e + 1)
                       for b in range(a + 1, e + 1))]
    maximal = [(s, e) for s, e in runs
               if not any(s2 <= s and e <= e2 and (s2, e2) != (s, e) for s2, e2 in runs)]
    return [tuple(int(m) for m in order[s:e + 1]) for s, e in sorted(maximal)]


@st.composite
def ranks_and_reject(draw, max_k=9):
    k = draw(st.integers(2, max_k))
    ranks = np.array(draw(st.lists(st.integers(0, 10_000), min_size=k, max_size=k,
                                   unique=True))) / 1000 + 1
    n_pairs = k * (k - 1) // 2
    mask = draw(st.integers(0, 2 ** n_pairs - 1))
    reject = np.zeros((k, k), dtype=bool)
    reject[np.triu_indices(k, 1)] = [(mask >> b) & 1 for b in range(n_pairs)]
    return ranks, reject | reject.T


@settings(max_examples=80, deadline=None)
@given(ranks_and_reject())
def test_matches_brute_force_enumeration(case):
    ranks, reject = case
    assert nonsignificant_groups(ranks, reject) == brute_force_groups(ranks, reject)


@settings(max_examples=80, deadline=None)
@given(ranks_and_reject())
def test_groups_are_clean_contiguous_and_maximal(case):
    ranks, reject = case
    order = list(np.argsort(ranks))
    groups = nonsignificant_groups(ranks, reject)
    for g in groups:
        assert len(g) >= 2
        assert not any(reject[i, j] for i, j in combinations(g, 2))
        positions = [order.index(m) for m in g]
        assert positions == list(range(positions[0], positions[0] + len(g)))
        # Adding the next model on either side would join a rejected pair.
        for p in (positions[0] - 1, positions[-1] + 1):
            if 0 <= p < len(order):
                assert any(reject[order[p], m] for m in g)
    for g, h in combinations(groups, 2):
        assert not set(g) <= set(h) and not set(h) <= set(g)
    # Every retained pair of neighbours in rank order shares a bar.
    for a, b in zip(order, order[1:]):
        if not reject[a, b]:
            assert any(a in g and b in g for g in groups)


@settings(max_examples=50, deadline=None)
@given(ranks_and_reject(), st.data())
def test_invariant_to_permuting_the_models(case, data):
    ranks, reject = case
    perm = np.array(data.draw(st.permutations(range(len(ranks)))))  # new i is old perm[i]
    got = nonsignificant_groups(ranks[perm], reject[np.ix_(perm, perm)])
    expected = nonsignificant_groups(ranks, reject)
    assert [tuple(int(perm[i]) for i in g) for g in got] == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1, 20), min_size=2, max_size=12), st.floats(0.05, 10))
def test_nemenyi_groups_are_everything_within_cd_of_the_first_member(ranks, cd):
    ranks = np.array(ranks)
    order = [int(i) for i in np.argsort(ranks, kind="stable")]
    # Nemenyi form of a group: a first member and every later one less than cd behind it.
    candidates = [tuple(j for j in order[p:] if ranks[j] - ranks[order[p]] < cd)
                  for p in range(len(order))]
    maximal = [c for c in candidates
               if len(c) >= 2 and not any(set(c) < set(d) for d in candidates)]
    assert groups_from_critical_difference(ranks, cd) == maximal


def test_invariant_to_monotone_shift_of_ranks():
    ranks = PAPER_RANKS
    assert (groups_from_critical_difference(ranks + 10, 1.12)
            == groups_from_critical_difference(ranks, 1.12))


# ----------------------------------------------------------------------- bad input

@pytest.mark.parametrize("reject, message", [
    (np.triu(np.ones((4, 4), bool), 1), "symmetric"),
    (np.zeros((3, 3), bool), "4 x 4"),
    (np.full((4, 4), np.nan), "booleans"),
    (np.full((4, 4), 0.5), "booleans"),
])
def test_bad_reject_matrix(reject, message):
    with pytest.raises(InvalidInputError, match=message):
        nonsignificant_groups(PAPER_RANKS, reject)


def test_bad_ranks_and_cd():
    with pytest.raises(InvalidInputError, match="NaN"):
        groups_from_critical_difference([1.0, np.nan, 2.0], 1.0)
    with pytest.raises(InvalidInputError, match="1-dimensional"):
        nonsignificant_groups([[1.0, 2.0]], np.zeros((2, 2), bool))
    with pytest.raises(InvalidInputError, match="positive"):
        groups_from_critical_difference(PAPER_RANKS, 0.0)
    with pytest.raises(InvalidInputError, match="NaN"):
        groups_from_critical_difference(PAPER_RANKS, float("nan"))


# ----------------------------------------------------------------------- real post-hoc tests

def demsar_table6_scores():
    """Demšar Table 6 as printed (voting tied at 0.975), shipped with the package."""
    path = files("outperform.data") / "published" / "demsar2006_table6.csv"
    with path.open() as fh:
        rows = list(csv.reader(fh))
    assert tuple(rows[0][1:]) == NAMES
    return np.array([[float(v) for v in row[1:]] for row in rows[1:]])


def test_nemenyi_result_on_table6_gives_demsar_groups():
    posthoc = pytest.importorskip("outperform.stats._posthoc")
    scores = demsar_table6_scores()
    res = posthoc.nemenyi(scores, alpha=0.10, names=NAMES)
    assert named(nonsignificant_groups(res.average_ranks, res.reject)) == [
        {"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]
    res = posthoc.nemenyi(scores, alpha=0.05, names=NAMES)
    assert nonsignificant_groups(res.average_ranks, res.reject) == [(3, 1, 2, 0)]


def test_wilcoxon_holm_on_table6_is_not_transitive():
    # Holm-adjusted Wilcoxon rejects only C4.5 vs C4.5+m: C4.5+m+cf ~ C4.5 is retained, yet
    # C4.5+m lies between them in rank, so no bar joins C4.5+m+cf and C4.5.
    posthoc = pytest.importorskip("outperform.stats._posthoc")
    res = posthoc.pairwise_wilcoxon(demsar_table6_scores(), names=NAMES)
    rejected = {frozenset((NAMES[i], NAMES[j])) for i, j in zip(*np.nonzero(res.reject))}
    assert rejected == {frozenset(("C4.5", "C4.5+m"))}
    assert named(nonsignificant_groups(res.average_ranks, res.reject)) == [
        {"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]
