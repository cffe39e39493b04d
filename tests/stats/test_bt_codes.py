"""Battles as codes (stats/_bt_codes.py): the linear-time factorization gives numpy's
``np.unique(astype(str), return_inverse=True)`` exactly, on every kind of input; the
bootstrap's fast paths (identifiability, tallies) equal the general ones."""
import numpy as np
import pytest

from outperform._validation import InvalidInputError
from outperform.stats import bradley_terry
from outperform.stats._bt_bootstrap import _identifiable
from outperform.stats._bt_codes import OUTCOMES, factorize_strings, outcome_codes
from outperform.stats._bt_likelihood import battle_types, pair_totals
from scipy.sparse.csgraph import connected_components


def _obj(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


NAMES = ["gpt-4", "llama-2-70b", "claude", "Zed", "zed", "é-model", "a", "", "b\0c", "日本"]


@pytest.mark.parametrize("values", [
    _obj(list(np.random.default_rng(0).choice(NAMES, 500))),        # str objects: fast path
    np.random.default_rng(1).choice(NAMES, 300),                     # numpy str array
    _obj([np.str_("x"), "y", np.str_("y"), "x"]),                    # np.str_ mixed in
    _obj(["x", 1, 1.0, True, "1", None, "None"]),                    # str() merges 1 and "1"
    _obj(["x", "x\0", "y"]),                                         # numpy drops trailing NUL
    np.array([3, 10, 2, 3]),
    _obj([]),
    np.array([], dtype=str),
])
def test_factorize_equals_numpy_unique_of_strings(values):
    names, codes = factorize_strings(values)
    ref_names, ref_codes = np.unique(np.asarray(values).astype(str), return_inverse=True)
    np.testing.assert_array_equal(names, ref_names)
    np.testing.assert_array_equal(codes, ref_codes)
    assert names.dtype.kind == "U" and codes.dtype == np.intp


@pytest.mark.parametrize("winner", [
    _obj(["a", "b", "tie", "b", "a"]), np.array(["tie", "a", "b"]), ["b", "b"],
    _obj(["a", np.str_("tie")]),
])
def test_outcome_codes_equal_sorted_search(winner):
    ref = np.searchsorted(np.array(list(OUTCOMES)), np.asarray(winner).astype(str))
    np.testing.assert_array_equal(outcome_codes(winner), ref)


@pytest.mark.parametrize("winner, shown", [
    (_obj(["a", "draw", "b", "left"]), "'draw'"), (["a", "b", "x"], "'x'"),
    (_obj(["a", None]), "'None'"), (_obj(["a", 2]), "'2'"),
])
def test_unknown_winner_named_as_text(winner, shown):
    with pytest.raises(InvalidInputError, match=f"got {shown}"):
        outcome_codes(winner)


def _battles(seed, m=12, n=3000, ties=0.15):
    rng = np.random.default_rng(seed)
    lam = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    win = np.where(rng.random(n) < 1 / (1 + np.exp(lam[b] - lam[a])), "a", "b")
    win = np.where(rng.random(n) < ties, "tie", win)
    names = np.array([f"m{k:02d}" for k in range(m)])
    return _obj(list(names[a])), _obj(list(names[b])), _obj(list(win))


@pytest.mark.parametrize("ties", ["half", "davidson"])
def test_fast_paths_give_the_general_paths_results_bit_for_bit(ties):
    # objects of str + default weights: set/dict factorization, tallies of battle types;
    # numpy strings + explicit unit weights: np.unique and tallies of battles (the code
    # before the fast paths)
    a, b, w = _battles(2)
    kw = dict(ties=ties, interval="bootstrap", n_resamples=30, random_state=4)
    fast = bradley_terry(a, b, w, **kw)
    slow = bradley_terry(a.astype(str), b.astype(str), w.astype(str),
                         weights=np.ones(a.size), **kw)
    for field in ("abilities", "covariance", "robust_covariance", "ratings", "rating_low",
                  "rating_high", "bootstrap_ratings", "wins", "losses", "ties_count",
                  "battles"):
        np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field))
    assert fast.models == slow.models and fast.log_likelihood == slow.log_likelihood


def test_zero_weight_rows_drop_their_models_as_before():
    a, b, w = _battles(3, m=6, n=400)
    a[0], b[0] = "only-here", "m01"
    weights = np.ones(a.size)
    weights[0] = 0
    res = bradley_terry(a, b, w, weights=weights)
    ref = bradley_terry(a[1:], b[1:], w[1:])
    assert "only-here" not in res.models and res.models == ref.models
    np.testing.assert_array_equal(res.abilities, ref.abilities)


def _identifiable_by_graph(pt, totals):
    """Strong connectivity of each resample's "beat or tied" graph, one at a time."""
    out = []
    for t in totals:
        tie = t[:, 2] if t.shape[1] == 3 else 0.0
        beats = np.zeros((pt.n_models,) * 2, dtype=bool)
        beats[pt.pairs[:, 0], pt.pairs[:, 1]] = (t[:, 0] + tie) > 0
        beats[pt.pairs[:, 1], pt.pairs[:, 0]] = (t[:, 1] + tie) > 0
        out.append(connected_components(beats, directed=True, connection="strong")[0] == 1)
    return np.array(out)


@pytest.mark.parametrize("n, expect_all", [(20_000, True), (60, False)])
def test_identifiable_shortcut_agrees_with_the_graph(n, expect_all):
    a, b, w = _battles(5, m=8, n=n, ties=0.0)
    ia, ib = (np.unique(np.r_[a, b].astype(str), return_inverse=True)[1].reshape(2, -1))
    outcome = outcome_codes(w)
    rows, counts = battle_types(ia, ib, outcome, np.ones(n))
    pt, contrib = pair_totals(rows, counts, 8, 2)
    draws = np.random.default_rng(0).multinomial(counts.sum(), counts / counts.sum(), 40)
    totals = np.asarray((contrib.T @ draws.T).T).reshape(40, -1, 2)
    ok = _identifiable(pt, totals)
    np.testing.assert_array_equal(ok, _identifiable_by_graph(pt, totals))
    assert ok.all() == expect_all
