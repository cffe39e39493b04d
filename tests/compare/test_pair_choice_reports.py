"""compare()'s Q1 and Q3 reports show the pairs of the one rule (compare/_pair_choice.py) and
count the rest (issue 31, item 2): the neighbours in the ranking by default beyond 6 models,
each model against the control, every pair on request; the count equals a brute-force count
over all pairs computed here with scipy and statsmodels."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from outperform._validation import InvalidInputError
from outperform.compare import compare
from outperform.report import render_markdown


def _q3(k=12, n=30, seed=1, jump=0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    skill = np.linspace(0, 0.2, k) + np.r_[np.zeros(k - k // 2), np.full(k // 2, jump)]
    return pd.DataFrame([{"task": f"t{t}", "model": f"m{j:02d}",
                          "accuracy": 0.6 + skill[j] + rng.normal(0, 0.05)}
                         for t in range(n) for j in range(k)])


def _ranks(frame: pd.DataFrame):
    """Average ranks (1 = best) per model, by scipy.stats.rankdata within each task."""
    wide = frame.pivot(index="task", columns="model", values="accuracy")
    ranks = np.vstack([stats.rankdata(-row) for row in wide.to_numpy()])
    return list(wide.columns), ranks.mean(axis=0), wide.shape[0]


def _holm_rank_count(frame: pd.DataFrame, alpha=0.05) -> int:
    """Rank z tests of all pairs (Demšar 2006 §3.2.2), Holm by statsmodels: rejections."""
    names, r, n = _ranks(frame)
    k = len(names)
    se = np.sqrt(k * (k + 1) / (6 * n))
    p = [2 * stats.norm.sf(abs(r[i] - r[j]) / se) for i, j in combinations(range(k), 2)]
    return int(multipletests(p, alpha=alpha, method="holm")[0].sum())


def _nemenyi_count(frame: pd.DataFrame, alpha=0.05) -> int:
    """Nemenyi: P(Q > |z| sqrt(2)) by scipy.stats.studentized_range(k, inf): rejections."""
    names, r, n = _ranks(frame)
    k = len(names)
    se = np.sqrt(k * (k + 1) / (6 * n))
    q = [abs(r[i] - r[j]) / se * np.sqrt(2) for i, j in combinations(range(k), 2)]
    return int(sum(stats.studentized_range.sf(x, k, np.inf) < alpha for x in q))


def _posthoc_rows(markdown: str, title: str) -> int:
    """Rows of the Markdown table whose caption starts with ``title``."""
    block = markdown.split(title, 1)[1].split("\n\n", 2)[1]
    return sum(1 for line in block.splitlines() if line.startswith("| ")) - 1


def test_twelve_models_show_eleven_neighbours_by_default():
    frame = _q3(jump=0.3)   # the better half ahead: a neighbour pair differs
    rep = compare(frame)
    names, r, _ = _ranks(frame)
    order = [names[i] for i in np.argsort(r, kind="stable")]
    chosen = rep.details["pairs"]
    assert chosen["chosen"] == [list(p) for p in zip(order[:-1], order[1:])]
    assert (chosen["shown"], chosen["total"]) == (11, 66)
    assert _posthoc_rows(render_markdown(rep), "Post-hoc: Nemenyi") == 11
    # the count over all 66 pairs: scipy's studentized range, not the code under test
    assert chosen["differing"]["nemenyi"] == _nemenyi_count(frame) > 11
    said = [c for c in rep.conclusions if "pairs differ significantly" in c]
    assert said == [f"Nemenyi (CD = {rep.posthoc['nemenyi'].critical_difference:.3f}): "
                    f"{_nemenyi_count(frame)} of all 66 pairs differ significantly; 11 pairs "
                    "are shown (neighbours in the ranking; every pair with pairs='all', "
                    "--pairs all)."]
    # sentences of the neighbours that differ only: as many as scipy finds among them
    _, r, n = _ranks(frame)
    se = np.sqrt(12 * 13 / (6 * n))
    index = {m: j for j, m in enumerate(names)}
    neighbours = [stats.studentized_range.sf(abs(r[index[a]] - r[index[b]]) / se * np.sqrt(2),
                                             12, np.inf) < 0.05 for a, b in chosen["chosen"]]
    better = [c for c in rep.conclusions if "significantly better than" in c]
    assert len(better) == sum(neighbours) > 0


def test_every_pair_on_request_and_the_control_pairs_with_a_control():
    frame = _q3()
    every = compare(frame, pairs="all", posthoc="holm")
    assert _posthoc_rows(render_markdown(every), "Post-hoc: Rank z test (holm)") == 66
    assert every.details["pairs"]["differing"]["holm"] == _holm_rank_count(frame)
    said = [c for c in every.conclusions if c.startswith("Holm: ")
            and "significantly better than" in c]
    assert len(said) == _holm_rank_count(frame)       # every rejected pair, no count sentence
    assert not any("pairs differ significantly" in c for c in every.conclusions)
    against = compare(frame, control="m03")
    assert against.details["pairs"]["rule"] == "each model against m03"
    assert _posthoc_rows(render_markdown(against), "Post-hoc: Rank z test (holm)") == 11


def test_six_models_show_every_pair_and_no_count_sentence():
    frame = _q3(k=6)
    rep = compare(frame)
    assert rep.details["pairs"]["rule"] == "every pair"
    assert _posthoc_rows(render_markdown(rep), "Post-hoc: Nemenyi") == 15
    assert not any("pairs differ significantly" in c for c in rep.conclusions)


def test_anova_route_counts_paired_t_tests_as_scipy_and_statsmodels():
    frame = _q3(k=9, n=20, seed=3)
    rep = compare(frame, omnibus="anova")
    wide = frame.pivot(index="task", columns="model", values="accuracy")
    p = [stats.ttest_rel(wide[a], wide[b]).pvalue for a, b in combinations(wide.columns, 2)]
    count = int(multipletests(p, alpha=0.05, method="holm")[0].sum())
    assert rep.details["pairs"]["differing"]["paired_t_holm"] == count
    assert rep.details["pairs"]["shown"] == 8
    assert sum(c.startswith("paired t-test, Holm-adjusted: ") and "better than" in c
               for c in rep.conclusions) <= 8
    assert any(f"{count} of all 36 pairs differ significantly" in c for c in rep.conclusions)


def test_q1_many_predictors_count_mcnemar_as_scipy_and_statsmodels():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 500)
    acc = np.linspace(0.6, 0.9, 8)
    frame = pd.DataFrame({"y_true": y, **{f"p{j}": np.where(rng.random(500) < a, y, 1 - y)
                                           for j, a in enumerate(acc)}})
    rep = compare(frame)
    right = {m: (frame[m] == y).to_numpy() for m in frame.columns[1:]}
    p = [stats.binomtest(int((~right[a] & right[b]).sum()),
                         int((right[a] != right[b]).sum()), 0.5).pvalue
         for a, b in combinations(right, 2)]
    count = int(multipletests(p, alpha=0.05, method="holm")[0].sum())
    chosen = rep.details["pairs"]
    assert chosen["differing"]["mcnemar_holm"] == count
    assert (chosen["shown"], chosen["total"]) == (7, 28)
    assert any(f"{count} of all 28 pairs differ significantly" in c for c in rep.conclusions)


def test_bad_pairs_values_are_refused_before_the_work():
    with pytest.raises(InvalidInputError, match="needs a control model"):
        compare(_q3(), pairs="control")
    with pytest.raises(InvalidInputError, match="choose one of all, neighbours, control"):
        compare(_q3(), pairs="best")


def test_bayesian_pairs_of_the_neighbours_and_the_count_of_decisions():
    rep = compare(_q3(), bayesian=True)
    res = rep.posthoc["bayesian_signed_rank"]
    decided = sum(res.decision[i, j] != "undecided" for i, j in res.pairs())
    method = res.method
    counted = [c for c in rep.conclusions if c.startswith(method) and "reach a decision" in c]
    assert counted == [f"{method}: {decided} of all 66 pairs reach a decision; 11 pairs are "
                       "shown (neighbours in the ranking; every pair with pairs='all', "
                       "--pairs all)."]
    neighbours = {frozenset(p) for p in rep.details["pairs"]["chosen"]}
    said = [c for c in rep.conclusions if c.startswith(method) and " better than " in c]
    bodies = [c[len(method) + 2:].split(" (P(")[0] for c in said]   # "X is ... better than Y"
    named = [frozenset(m for m in res.names if f" {m} " in f" {body} ") for body in bodies]
    assert said and all(len(pair) == 2 and pair in neighbours for pair in named)
