"""The Q3 pipeline ranks once: shared ranks give the kernels' numbers bit for bit; several
post-hoc procedures in one call; wide tables read straight into the score matrix."""
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from typer.testing import CliRunner

import outperform.data._io as io
from outperform import InvalidInputError
from outperform.cli import app
from outperform.compare import compare
from outperform.data import load_demsar_table6, read_results
from outperform.report import render_html
from outperform.stats import (average_ranks, bonferroni_dunn, compact_letters, friedman,
                              iman_davenport, nemenyi, rank_posthoc)
from outperform.stats._ranks import ranked_scores


def _scores(n, k, seed, decimals=2):
    rng = np.random.default_rng(seed)
    return np.round(rng.normal(0.8, 0.05, size=(n, k)) + np.linspace(0, 0.03, k), decimals)


def _same(a, b):
    """Two results equal field by field, arrays bit for bit (NaN where NaN)."""
    for name in vars(a):
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True), name
        elif isinstance(x, float) and np.isnan(x):
            assert np.isnan(y), name
        else:
            assert x == y, name


CASES = [(n, k, seed, hib) for seed, (n, k) in enumerate([(6, 3), (14, 4), (30, 8), (120, 25)])
         for hib in (True, False)]


@pytest.mark.parametrize("n, k, seed, hib", CASES)
def test_shared_ranks_are_the_definitions(n, k, seed, hib):
    x = _scores(n, k, seed)
    r = ranked_scores(x, higher_is_better=hib)
    assert np.array_equal(r.ranks, rankdata(-x if hib else x, axis=1))
    assert np.array_equal(r.average, average_ranks(x, higher_is_better=hib))
    centred = r.ranks - (k + 1) / 2
    # Friedman's within-data-set spread, summed in any order: exact (multiples of 1/4).
    assert np.sum(r.row_spread) == np.sum(centred ** 2)
    assert np.array_equal(r.tied_rows, [len(np.unique(row)) < k for row in x])


@pytest.mark.parametrize("n, k, seed, hib", CASES)
def test_statistics_from_shared_ranks_equal_the_kernels_called_separately(n, k, seed, hib):
    x = _scores(n, k, seed)
    r = ranked_scores(x, higher_is_better=hib)
    names = [f"m{j}" for j in range(k)]
    for tie_correction in (False, True):
        _same(friedman(r, higher_is_better=hib, tie_correction=tie_correction),
              friedman(x, higher_is_better=hib, tie_correction=tie_correction))
        _same(iman_davenport(r, higher_is_better=hib, tie_correction=tie_correction),
              iman_davenport(x, higher_is_better=hib, tie_correction=tie_correction))
    _same(nemenyi(r, higher_is_better=hib, names=names),
          nemenyi(x, higher_is_better=hib, names=names))
    _same(bonferroni_dunn(r, control="m1", higher_is_better=hib, names=names),
          bonferroni_dunn(x, control="m1", higher_is_better=hib, names=names))
    for control in (None, "m0"):
        _same(rank_posthoc(r, control=control, higher_is_better=hib, names=names),
              rank_posthoc(x, control=control, higher_is_better=hib, names=names))


def test_shared_ranks_in_the_other_direction_are_refused():
    r = ranked_scores(_scores(10, 3, 0), higher_is_better=False)
    with pytest.raises(InvalidInputError, match="higher_is_better"):
        friedman(r)
    with pytest.raises(Exception, match="at least 2"):
        nemenyi(ranked_scores(_scores(1, 3, 0)))


def _wide(x, names=None):
    k = x.shape[1]
    df = pd.DataFrame(x, columns=names or [f"m{j}" for j in range(k)])
    df.insert(0, "dataset", [f"d{i}" for i in range(len(x))])
    return df


@pytest.mark.parametrize("hib", [True, False])
def test_compare_equals_the_kernels_and_counts_wins_from_the_ranks(hib):
    x = _scores(40, 6, 3)
    rep = compare(_wide(x), higher_is_better=hib, control="m2", posthoc=("nemenyi", "holm"))
    names = [f"m{j}" for j in range(6)]
    _same(rep.tests["friedman"], friedman(x, higher_is_better=hib))
    _same(rep.tests["friedman_tie_corrected"],
          friedman(x, higher_is_better=hib, tie_correction=True))
    _same(rep.tests["iman_davenport"], iman_davenport(x, higher_is_better=hib))
    _same(rep.posthoc["nemenyi"], nemenyi(x, higher_is_better=hib, names=names))
    _same(rep.posthoc["holm"], rank_posthoc(x, control="m2", higher_is_better=hib, names=names))
    _same(rep.posthoc["bonferroni-dunn"],
          bonferroni_dunn(x, control="m2", higher_is_better=hib, names=names))
    ranks = rankdata(-x if hib else x, axis=1)
    wins = {row["model"]: row["wins"] for row in rep.summary}
    assert wins == {m: int(np.sum(ranks[:, j] == 1)) for j, m in enumerate(names)}
    medians = {row["model"]: row["median_score"] for row in rep.summary}
    assert medians == {m: float(np.median(x[:, j])) for j, m in enumerate(names)}


def test_nemenyi_and_holm_in_one_call_equal_the_single_calls():
    table = load_demsar_table6()
    both = compare(table, alpha=0.10, control="C4.5", posthoc=("nemenyi", "holm"))
    nem = compare(table, alpha=0.10, posthoc="nemenyi")
    holm = compare(table, alpha=0.10, control="C4.5", posthoc="holm")
    assert list(both.posthoc) == ["nemenyi", "holm", "bonferroni-dunn"]
    _same(both.posthoc["nemenyi"], nem.posthoc["nemenyi"])
    _same(both.posthoc["holm"], holm.posthoc["holm"])
    _same(both.posthoc["bonferroni-dunn"], holm.posthoc["bonferroni-dunn"])
    for key in ("friedman", "iman_davenport", "friedman_tie_corrected"):
        _same(both.tests[key], nem.tests[key])
    assert both.groups == nem.groups and both.summary == nem.summary   # letters from Nemenyi
    assert set(nem.conclusions) | set(holm.conclusions) == set(both.conclusions)
    assert both.details["posthoc"] == ("nemenyi", "holm")
    assert "Nemenyi test on all pairs" in both.rationale and "Holm" in both.rationale
    page = render_html(both)
    assert "Holm: C4.5+m+cf is significantly better than C4.5" in page
    assert "C4.5+m+cf is significantly better than C4.5" in page.split("Nemenyi (CD", 1)[1]


@pytest.mark.parametrize("posthoc, message", [
    (("nemenyi", "auto"), "sequence"), (("holm", "holm"), "distinct"), ((), "sequence"),
    (("nemenyi", "tukey"), "sequence"), (("nemenyi", "none"), "sequence")])
def test_bad_sequences_of_posthoc_procedures_are_refused(posthoc, message):
    with pytest.raises(InvalidInputError, match=message):
        compare(load_demsar_table6(), posthoc=posthoc)


def test_several_posthocs_on_a_table_with_missing_cells_are_refused():
    df = _wide(_scores(12, 4, 1))
    df.iloc[3, 2] = np.nan
    with pytest.raises(InvalidInputError, match="one post-hoc procedure at a time"):
        compare(df, posthoc=("nemenyi", "wilcoxon-holm"))


def test_cli_reports_nemenyi_and_holm_together(tmp_path):
    path = tmp_path / "t6.csv"
    load_demsar_table6().frame.to_csv(path, index=False)
    runner = CliRunner()
    for fmt in ("text", "markdown"):
        res = runner.invoke(app, ["compare", str(path), "--alpha", "0.1", "--control", "C4.5",
                                  "--posthoc", "nemenyi", "--posthoc", "holm", "--format", fmt])
        assert res.exit_code == 0, res.output
        text = " ".join(res.output.split())
        # Demšar (2006) §3.2.4 at alpha = 0.10: CD = 1.12; C4.5+m and C4.5+m+cf beat C4.5.
        for better in ("C4.5+m", "C4.5+m+cf"):
            claim = f"{better} is significantly better than C4.5 "
            assert re.search(r"Nemenyi \(CD = 1\.1\d*\): " + re.escape(claim), text), fmt
            assert f"Holm: {claim}" in text, fmt


WIDE_TABLES = [
    (_wide(_scores(6, 4, 0), ["NA", "1", "1.0", "None"]), {}),
    (_wide(_scores(6, 4, 0)), {"metric": "error_rate"}),
    (_wide(_scores(6, 4, 0)), {"metric": "error", "higher_is_better": True}),
    (pd.DataFrame(np.arange(15).reshape(5, 3) % 4, columns=[1, 2, 3]), {}),
    (pd.DataFrame(np.arange(15.0).reshape(5, 3), columns=list("abc"), index=list("pqrst")), {}),
    (_wide(np.where(np.eye(6, 4) > 0, np.nan, _scores(6, 4, 2))), {"missing": "allow"}),
    (pd.DataFrame({"model": [0.1, 0.2, 0.3], "b": [0.3, 0.4, 0.1]}), {"layout": "wide"}),
]


@pytest.mark.parametrize("df, options", WIDE_TABLES)
def test_wide_tables_read_directly_equal_the_long_detour(df, options, monkeypatch):
    direct = read_results(df, **options)
    assert direct._read_wide() is not None     # the direct route was taken
    monkeypatch.setattr(io, "_valid_wide", lambda *args, **kwargs: None)
    detour = read_results(df, **options)
    pd.testing.assert_frame_equal(direct.frame, detour.frame, check_exact=True)
    assert (direct.metrics, direct.direction_assumed) == (detour.metrics,
                                                          detour.direction_assumed)
    assert (direct.tasks, direct.models) == (detour.tasks, detour.models)
    a, b = direct.score_matrix(), detour.score_matrix()
    assert np.array_equal(a.values, b.values, equal_nan=True)
    assert a.values.flags.c_contiguous and b.values.flags.c_contiguous
    assert (a.tasks, a.models, a.metric, a.higher_is_better, a.aggregation) == (
        b.tasks, b.models, b.metric, b.higher_is_better, b.aggregation)


@pytest.mark.parametrize("bad", ["duplicate task", "text", "inf", "nan", "empty name",
                                 "two header rows"])
def test_bad_wide_tables_take_the_general_route_and_its_errors(bad):
    df = _wide(_scores(6, 3, 0))
    if bad == "duplicate task":
        df.loc[2, "dataset"] = "d1"
    elif bad == "text":
        df["m1"] = df["m1"].astype(object)
        df.loc[1, "m1"] = "oops"
    elif bad == "inf":
        df.loc[1, "m1"] = np.inf
    elif bad == "nan":
        df.loc[1, "m1"] = np.nan
    elif bad == "empty name":
        df = df.rename(columns={"m2": " "})
    else:
        df = df.set_index("dataset")
        df.columns = pd.MultiIndex.from_product([["acc"], df.columns])
    assert io._valid_wide(io._normalise_columns(df.copy()), "score", False) is None
    if bad != "two header rows":   # (the general route's own error, whatever it is)
        with pytest.raises(InvalidInputError):
            read_results(df)


def test_the_kept_matrix_belongs_to_its_frame():
    table = read_results(_wide(_scores(6, 3, 0)))
    part = replace(table, frame=table.frame[table.frame["task"].isin(["d1", "d4"])])
    assert part.tasks == ("d1", "d4")
    assert np.array_equal(part.score_matrix().values, table.score_matrix().values[[1, 4]])


def test_letters_of_many_models_say_which_pairs_differ():
    # Piepho (2004): two models share a letter exactly when they do not differ; here with
    # 120 models and ~2,000 rejected pairs, where most columns are split and absorbed.
    x = _scores(400, 120, 5, decimals=3)
    res = nemenyi(x)
    letters = list(compact_letters(res.reject).values())
    share = np.array([[bool(set(a) & set(b)) for b in letters] for a in letters])
    off = ~np.eye(120, dtype=bool)
    assert res.reject[off].sum() > 1000
    assert np.array_equal(share[off], ~res.reject[off])


def test_every_rejected_pair_has_its_sentence_with_the_better_rank_first():
    # The sentences of the rejected pairs are written together (rejected_pairs): each one
    # names the model of lower average rank as better, with the pair's adjusted p-value.
    x = _scores(300, 25, 7)
    df = pd.DataFrame(x + np.linspace(0, 0.05, 25), columns=[f"m{j}" for j in range(25)])
    rep = compare(df, control="m3", posthoc=("nemenyi", "holm"), pairs="all")   # every pair
    for key, label in (("nemenyi", "Nemenyi"), ("holm", "Holm")):
        res = rep.posthoc[key]
        said = [c for c in rep.conclusions if "significantly better" in c and (
                c.startswith(label + " (") or c.startswith(label + ":"))]
        pattern = re.compile(label + r"(?: \(CD = [0-9.]+\))?: (\S+) is significantly better "
                             r"than (\S+) \(average ranks ([0-9.]+) vs ([0-9.]+); adjusted "
                             r"p = (\S+)\)\.")
        found = {}
        for sentence in said:
            m = pattern.fullmatch(sentence)
            assert m, sentence
            a, b = res.names.index(m[1]), res.names.index(m[2])
            assert res.average_ranks[a] < res.average_ranks[b]
            assert (m[3], m[4]) == (f"{res.average_ranks[a]:.3f}", f"{res.average_ranks[b]:.3f}")
            assert m[5] == f"{res.pvalue_adjusted[a, b]:.3g}"
            found[min(a, b), max(a, b)] = True
        rejected = {(i, j) for i, j in res.pairs() if res.reject[i, j]}
        assert len(said) == len(rejected) > 0 and set(found) == rejected
