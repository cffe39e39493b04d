"""Compact letter display (Piepho 2004) against R's multcompView::multcompLetters."""
import json
import shutil
import subprocess

import numpy as np
import pytest

from outperform.stats import compact_letters
from outperform._validation import InvalidInputError


def _random_reject(seed, k):
    rng = np.random.default_rng(seed)
    # Models on a line, pairs far apart rejected, plus a few random flips: realistic and odd.
    pos = np.sort(rng.uniform(0, 3, size=k))
    r = np.abs(pos[:, None] - pos) > 1.0
    flip = np.triu(rng.uniform(size=(k, k)) < 0.1, 1)
    r = r ^ (flip | flip.T)
    np.fill_diagonal(r, False)
    return r


def _r_letters(reject):
    k = len(reject)
    names = [f"m{i}" for i in range(k)]
    values = ",".join("TRUE" if v else "FALSE" for v in reject.T.ravel())  # column-major
    script = (f"suppressMessages(library(multcompView)); x <- matrix(c({values}), {k}, {k}, "
              f"dimnames = list(c({','.join(repr(n) for n in names)}), "
              f"c({','.join(repr(n) for n in names)}))); "
              "l <- multcompLetters(x)$Letters; "
              "cat(paste0('{', paste0('\"', names(l), '\": \"', l, '\"', collapse = ', '), '}'))")
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True)
    return names, json.loads(out.stdout)


def _has_multcompview():
    if shutil.which("Rscript") is None:
        return False
    return subprocess.run(["Rscript", "-e", "library(multcompView)"],
                          capture_output=True).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _has_multcompview(), reason="Rscript with multcompView is absent")
@pytest.mark.parametrize("seed, k", [(s, k) for s, k in zip(range(12), [3, 4, 5, 6, 7, 8, 9,
                                                                          10, 12, 15, 20, 30])])
def test_letters_equal_multcompletters(seed, k):
    reject = _random_reject(seed, k)
    names, expected = _r_letters(reject)
    assert compact_letters(reject, names) == expected



def _ordered_reject(seed, k):
    # A test on one ordered quantity (Nemenyi on average ranks, best first): the pairs
    # rejected are those at least a critical difference apart, ties included.
    rng = np.random.default_rng(seed)
    pos = np.sort(np.round(rng.uniform(0, 3, size=k), 1))
    return np.abs(pos[:, None] - pos) >= rng.uniform(0.3, 1.5)


@pytest.mark.skipif(not _has_multcompview(), reason="Rscript with multcompView is absent")
@pytest.mark.parametrize("seed, k", [(0, 5), (1, 12), (2, 25), (3, 40)])
def test_letters_of_ordered_rejections_equal_multcompletters(seed, k):
    reject = _ordered_reject(seed, k)
    names, expected = _r_letters(reject)
    assert compact_letters(reject, names) == expected


def test_letters_of_ordered_rejections_are_the_maximal_runs():
    # Property: the models sharing a letter are exactly the maximal runs of consecutive
    # models no pair of which is rejected, one letter each, "a" for the run of the first.
    for seed in range(30):
        k = 2 + seed
        reject = _ordered_reject(seed, k)
        letters = compact_letters(reject)
        runs = {}
        for m, (name, ltrs) in enumerate(letters.items()):
            for ltr in ltrs:
                runs.setdefault(ltr, []).append(m)
        for members in runs.values():
            assert members == list(range(members[0], members[-1] + 1))
            lo, hi = members[0], members[-1]
            assert not reject[lo:hi + 1, lo:hi + 1].any()
            assert (lo == 0 or reject[lo - 1, hi]) and (hi == k - 1 or reject[lo, hi + 1])
        assert sorted(runs) == sorted(runs, key=lambda ltr: runs[ltr][0])

def test_letters_say_which_pairs_differ():
    # Property (Piepho 2004): two models share a letter exactly when they do not differ.
    for seed in range(20):
        k = 3 + seed % 8
        reject = _random_reject(seed, k)
        letters = list(compact_letters(reject).values())
        share = np.array([[bool(set(a) & set(b)) for b in letters] for a in letters])
        off = ~np.eye(k, dtype=bool)
        assert np.array_equal(share[off], ~reject[off])


def test_bad_matrices_are_refused():
    with pytest.raises(InvalidInputError, match="symmetric"):
        compact_letters([[False, True], [False, False]])
    with pytest.raises(InvalidInputError, match="square"):
        compact_letters([[False, True, False]])


def test_report_tables_carry_the_letters():
    from outperform.compare import compare
    from outperform.data import load_demsar_table6
    from outperform.report import render_latex, render_markdown
    rep = compare(load_demsar_table6(), alpha=0.10)
    nem = rep.posthoc["nemenyi"]
    names = [row["model"] for row in rep.summary]
    idx = [rep.models.index(m) for m in names]
    expected = compact_letters(nem.reject[np.ix_(idx, idx)], names)
    assert {row["model"]: row["letters"] for row in rep.summary} == expected
    assert rep.summary[0]["letters"].startswith("a")
    assert rep.details["letters_from"] == "nemenyi"
    for text in (render_markdown(rep), render_latex(rep)):
        assert "letters" in text and expected[names[-1]] in text
