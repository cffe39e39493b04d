"""Tables with missing (data set, model) cells: Skillings–Mack, Durbin, pairwise Wilcoxon on
common data sets, and compare() / the CLI on incomplete tables."""
import importlib.util
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform.stats import (durbin, durbin_posthoc, friedman, pairwise_wilcoxon_available,
                              skillings_mack, wilcoxon)
from outperform._validation import InvalidInputError

PEERS = "/tmp/peer19"  # scikit-posthocs installed with pip --target (not in the venv)


def _random_table(seed, n=12, k=5):
    return np.random.default_rng(seed).normal(size=(n, k))


@pytest.mark.parametrize("seed", range(5))
def test_skillings_mack_equals_friedman_on_complete_tables(seed):
    # Property (Skillings & Mack 1981; Chatfield & Mander 2009): no missing cell -> Friedman.
    x = _random_table(seed)
    sm, fr = skillings_mack(x), friedman(x)
    assert sm.statistic == pytest.approx(fr.statistic, rel=1e-12)
    assert sm.pvalue == pytest.approx(fr.pvalue, rel=1e-10)
    assert sm.df == fr.df


def test_skillings_mack_published_example():
    # The example of R's Skillings.Mack::Ski.Mack help page (Chatfield & Mander 2009, Stata
    # Journal 9(2): 299-305): 4 assembly methods A-D over 9 blocks with 5 missing values,
    # "Skillings-Mack Statistic = 15.493049, p-value = 0.001440 ... d.f. = 3".
    y = np.array([3.2, 4.1, 3.8, 4.2, 3.1, 3.9, 3.4, 4.0, 4.3, 3.5, 4.6, 4.8, 3.5, 3.6, 3.9,
                  4.0, 3.6, 4.2, 3.7, 3.9, 4.5, 4.7, 3.7, np.nan, np.nan, 4.2, 3.4, np.nan,
                  4.3, 4.6, 4.4, 4.9, 3.5, np.nan, 3.7, 3.9]).reshape(9, 4)
    res = skillings_mack(y)
    assert res.statistic == pytest.approx(15.493049, abs=5e-7)
    assert res.pvalue == pytest.approx(0.001440296302, abs=5e-12)
    assert res.df == 3


def _bibd():
    # The balanced incomplete block design of 7 treatments in 7 blocks of 3 (Fano plane),
    # each treatment in 3 blocks and each pair in 1 block (Conover 1999 §5.9 uses this design).
    blocks = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 0), (5, 6, 1), (6, 0, 2)]
    x = np.full((7, 7), np.nan)
    rng = np.random.default_rng(3)
    for i, b in enumerate(blocks):
        x[i, list(b)] = rng.normal(size=3) + np.array(b) * 0.3
    return x


def test_durbin_equals_skillings_mack_on_bibd_and_friedman_when_complete():
    x = _bibd()
    # Chatfield & Mander (2009): on a BIBD without ties Skillings-Mack is Durbin's test.
    assert durbin(x).statistic == pytest.approx(skillings_mack(x).statistic, rel=1e-12)
    c = _random_table(7)
    assert durbin(c).statistic == pytest.approx(friedman(c, tie_correction=True).statistic,
                                                rel=1e-12)


def test_durbin_refuses_unbalanced_tables():
    x = _random_table(1)
    x[0, 0] = np.nan
    with pytest.raises(InvalidInputError, match="balanced incomplete block design"):
        durbin(x)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.skipif(importlib.util.find_spec("scikit_posthocs") is None
                    and not __import__("os").path.isdir(PEERS), reason="no scikit-posthocs")
def test_durbin_posthoc_against_scikit_posthocs():
    if PEERS not in sys.path:
        sys.path.append(PEERS)
    sp = pytest.importorskip("scikit_posthocs")
    x = _bibd()
    long = pd.DataFrame([(v, i, j) for (i, j), v in np.ndenumerate(x) if not np.isnan(v)],
                        columns=["y", "block", "group"])
    # sp.posthoc_durbin(long, y_col="y", block_col="block", group_col="group",
    #                   block_id_col="block", melted=True)
    ref = sp.posthoc_durbin(long, y_col="y", block_col="block", group_col="group",
                            block_id_col="block", melted=True)
    ref = ref.loc[list(range(7)), list(range(7))].to_numpy()  # its order: first seen
    ours = durbin_posthoc(x, adjustment="none").pvalue
    iu = np.triu_indices(7, 1)
    np.testing.assert_allclose(ours[iu], ref[iu], rtol=1e-12)


def test_pairwise_wilcoxon_available_is_wilcoxon_on_each_pairs_common_rows():
    x = _random_table(11, n=15, k=4)
    x[[0, 3, 7], 1] = np.nan
    x[[2, 9], 3] = np.nan
    res = pairwise_wilcoxon_available(x)
    for i, j in [(0, 1), (1, 3), (0, 2), (2, 3)]:
        rows = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
        ref = wilcoxon(x[rows, i], x[rows, j])
        assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12)
        # scipy.stats.wilcoxon(x[rows, i], x[rows, j]).pvalue: exact, no ties or zeros
        assert res.pvalue[i, j] == pytest.approx(
            stats.wilcoxon(x[rows, i], x[rows, j]).pvalue, rel=1e-10)
    assert res.details["n_common"][1][3] == 10


# --- compare() and the CLI on incomplete tables ---------------------------------------------

from outperform.compare import compare  # noqa: E402
from outperform.data import load_uci54  # noqa: E402


def test_compare_accepts_missing_cells_and_names_them():
    x = _random_table(5, n=14, k=4) + np.array([0.0, 0.3, 0.6, 0.9])
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(14)])
    df.loc[2, "B"] = np.nan
    df.loc[5, "D"] = np.nan
    df.loc[7, ["A", "B", "C"]] = np.nan          # one result left: dropped, with a message
    rep = compare(df, metric="accuracy")
    assert rep.recommended == "skillings_mack"
    assert rep.details["missing_cells"] == [["d2", "B"], ["d5", "D"], ["d7", "A"],
                                            ["d7", "B"], ["d7", "C"]]
    assert rep.details["dropped_tasks"] == ["d7"]
    text = " ".join(rep.warnings)
    assert "('d2', 'B')" in text and "d7" in text and "incomplete data" in text
    kept = np.delete(x, 7, axis=0)
    kept[2, 1], kept[5, 3] = np.nan, np.nan
    assert rep.tests["skillings_mack"].statistic == pytest.approx(
        skillings_mack(kept).statistic, rel=1e-12)
    assert "wilcoxon-holm" in rep.posthoc and rep.n_tasks == 13


def test_compare_picks_durbin_on_a_balanced_incomplete_design():
    x = _bibd()
    df = pd.DataFrame(x, columns=[f"m{j}" for j in range(7)]).assign(
        task=[f"d{i}" for i in range(7)])
    rep = compare(df, metric="accuracy", posthoc="durbin")
    assert rep.recommended == "durbin"
    assert rep.tests["durbin"].statistic == pytest.approx(durbin(x).statistic, rel=1e-12)


def test_compare_refuses_complete_table_posthocs_and_bayesian_on_holes():
    x = _random_table(2, n=10, k=3)
    df = pd.DataFrame(x, columns=list("ABC")).assign(task=[f"d{i}" for i in range(10)])
    df.loc[0, "A"] = np.nan
    with pytest.raises(InvalidInputError, match=r"posthoc='nemenyi' needs a result in every"):
        compare(df, metric="accuracy", posthoc="nemenyi")
    with pytest.raises(InvalidInputError, match=r"\('d0', 'A'\).*Bayesian"):
        compare(df, metric="accuracy", bayesian=True)


def test_two_models_with_holes_drop_the_tasks_and_say_so():
    x = _random_table(4, n=12, k=2)
    df = pd.DataFrame(x, columns=list("AB")).assign(task=[f"d{i}" for i in range(12)])
    df.loc[[1, 4], "B"] = np.nan
    rep = compare(df, metric="accuracy")
    assert rep.recommended == "wilcoxon" and rep.n_tasks == 10
    assert rep.details["dropped_tasks"] == ["d1", "d4"]
    assert rep.tests["wilcoxon"].pvalue == pytest.approx(
        wilcoxon(np.delete(x[:, 0], [1, 4]), np.delete(x[:, 1], [1, 4])).pvalue, rel=1e-12)


def test_uci54_with_ten_percent_of_cells_removed_from_the_cli(shared_data, tmp_path):
    import json
    import warnings

    from typer.testing import CliRunner

    from outperform.cli import app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # the duplicated 'credit' lines
        df = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt")
    cells = df[["task", "model"]].drop_duplicates().reset_index(drop=True)
    gone = cells.sample(frac=0.10, random_state=0)            # 10% of the cells, seeded
    holed = df.merge(gone.assign(_gone=True), how="left", on=["task", "model"])
    holed = holed[holed["_gone"].isna()].drop(columns="_gone")
    path = tmp_path / "uci54_holes.csv"
    holed.to_csv(path, index=False)
    res = CliRunner().invoke(app, ["compare", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    expected = sorted(map(list, gone.itertuples(index=False)))
    assert sorted(out["details"]["missing_cells"]) == expected
    assert out["recommended"] == "skillings_mack"
    text = CliRunner().invoke(app, ["compare", str(path)]).stdout
    assert "MISSING" in text and "incomplete data" in text
    # The omnibus statistic is the kernel's on the cell means of the holed table.
    wide = holed.groupby(["task", "model"], sort=False)["score"].mean().unstack()
    wide = wide.reindex(index=list(dict.fromkeys(df["task"])), columns=out["models"])
    wide = wide[np.sum(~np.isnan(wide.to_numpy()), axis=1) >= 2]
    assert out["tests"]["skillings_mack"]["statistic"] == pytest.approx(
        skillings_mack(wide.to_numpy()).statistic, rel=1e-10)


def test_cd_diagram_states_ranks_from_incomplete_data():
    from outperform.plot import cd_diagram_from_result
    from outperform.report import report_figures
    x = _random_table(6, n=12, k=4)
    x[[1, 5], 2] = np.nan
    res = pairwise_wilcoxon_available(x, names=list("ABCD"))
    assert "incomplete data" in cd_diagram_from_result(res).get_title()
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(12)])
    figs = report_figures(compare(df, metric="accuracy"))
    assert any("incomplete data" in f.caption for f in figs)


def test_a_cell_with_some_folds_missing_is_refused_by_name_a_whole_cell_is_analysed():
    from outperform.data import read_results
    rng = np.random.default_rng(0)
    df = pd.DataFrame([{"task": f"t{t}", "model": m, "fold": f, "score": rng.uniform()}
                       for t in range(8) for m in "ABC" for f in range(2)])
    partial = df.assign(score=df.score.where(df.index != 3))      # (t0, B), fold 1
    with pytest.raises(InvalidInputError, match=r"1 of the 2 runs/folds of task 't0', model 'B'"):
        read_results(partial, missing="allow")
    with pytest.raises(InvalidInputError, match="missing/NaN"):
        read_results(partial)
    whole = df[~((df.task == "t0") & (df.model == "A"))]
    assert read_results(whole, missing="allow").missing_cells() == (("t0", "A"),)
    rep = compare(whole)
    assert rep.details["missing_cells"] == [["t0", "A"]]


def test_holes_with_a_control_test_each_model_against_it_on_common_data_sets():
    from outperform.stats import adjust_pvalues
    x = _random_table(8, n=14, k=4) + np.array([0.0, 0.4, 0.8, 1.2])
    x[[1, 6], 2] = np.nan
    x[3, 0] = np.nan
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(14)])
    res = compare(df, metric="accuracy", control="A").posthoc["wilcoxon-holm"]
    assert res.control == "A"
    raw = []
    for j in (1, 2, 3):
        rows = ~np.isnan(x[:, 0]) & ~np.isnan(x[:, j])
        raw.append(wilcoxon(x[rows, 0], x[rows, j]).pvalue)
    np.testing.assert_allclose([res.pvalue_adjusted[0, j] for j in (1, 2, 3)],
                               adjust_pvalues(raw, "holm"), rtol=1e-12)
    assert np.isnan(res.pvalue[1, 2])          # not tested: not a comparison with A


def test_units_are_checked_on_incomplete_tables_too():
    x = np.abs(_random_table(9, n=12, k=3)) * 0.1 + 0.7
    x[:, 2] *= 100                                  # percentages among fractions
    x[4, 0] = np.nan
    df = pd.DataFrame(x, columns=list("ABC")).assign(task=[f"d{i}" for i in range(12)])
    rep = compare(df, metric="accuracy")
    assert any(w.startswith("UNITS:") and "'C'" in w for w in rep.warnings)


def test_durbin_published_example():
    # Conover (1999), Practical Nonparametric Statistics, 3rd ed., §5.9, p. 391: seven judges
    # each rank three of seven ice creams (a BIBD); T1 = 12.00, T2 = 8.00. The data as in the
    # help page of R's PMCMRplus::durbinTest (rows = judges, columns = ice creams; rank 1 =
    # best, so lower is better).
    n = np.nan
    y = np.array([[2, 3, n, 1, n, n, n], [n, 3, 1, n, 2, n, n], [n, n, 2, 1, n, 3, n],
                  [n, n, n, 1, 2, n, 3], [3, n, n, n, 1, 2, n], [n, 3, n, n, n, 1, 2],
                  [3, n, 1, n, n, n, 2]])
    res = durbin(y, higher_is_better=False)
    assert res.statistic == pytest.approx(12.0, rel=1e-12)
    assert res.details["f_statistic"] == pytest.approx(8.0, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.chi2.sf(12.0, 6), rel=1e-12)
    assert res.details["f_df"] == (6, 8)


def test_common_data_set_counts_cover_every_pair_also_against_a_control():
    # Property: n_common[i][j] counts the data sets where both i and j have a result; with a
    # control the untested pairs used to be NaN cast to int (garbage).
    from outperform.stats import pairwise_wilcoxon_available
    rng = np.random.default_rng(5)
    x = rng.random((9, 4))
    x[[1, 4], 2] = np.nan
    x[6, 3] = np.nan
    present = ~np.isnan(x)
    expected = [[int(np.sum(present[:, i] & present[:, j])) for j in range(4)] for i in range(4)]
    for control in (None, 0):
        res = pairwise_wilcoxon_available(x, control=control)
        assert res.details["n_common"] == expected
