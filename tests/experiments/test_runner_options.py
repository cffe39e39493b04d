"""experiments.check_run_options: a benchmark's options refused before the first fit
(issue 25: `benchmark --alpha 1` or `--rope -1` ran every fit, then skipped the analysis)."""
import os

import pytest

from outperform import InvalidInputError
from outperform.experiments import check_run_options, run_experiment


@pytest.mark.parametrize("kwargs, match", [
    (dict(alpha=1), r"alpha \(--alpha\), the significance level, must lie in \(0, 1\), got 1"),
    (dict(alpha=0.0), "must lie in"),
    (dict(alpha=-0.05), "must lie in"),
    (dict(alpha="0.05"), r"alpha \(--alpha\) must be a number"),
    (dict(rope=-1), r"rope \(--rope\) is the half-width .* got -1"),
    (dict(rope=float("nan")), r"rope \(--rope\)"),
    (dict(rope=float("inf")), r"rope \(--rope\)"),
    (dict(n_jobs=0), r"n_jobs \(--n-jobs\) must be a non-zero whole number"),
    (dict(n_jobs=1.5), r"n_jobs \(--n-jobs\)"),
    (dict(n_jobs=True), r"n_jobs \(--n-jobs\)"),
    (dict(metrics="accurasy"), "'accurasy' is not a valid scoring name.*did you mean accuracy"),
    (dict(metrics=()), "metrics .* is empty"),
    (dict(out="results.xlsx"), r"out must end in \.parquet, \.pq or \.csv"),
])
def test_bad_options_refused(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        check_run_options(**kwargs)


def test_out_in_missing_folder_or_a_folder(tmp_path):
    with pytest.raises(InvalidInputError, match="does not exist"):
        check_run_options(out=tmp_path / "nope" / "r.csv")
    with pytest.raises(InvalidInputError, match="is a folder"):
        (tmp_path / "d.csv").mkdir()
        check_run_options(out=tmp_path / "d.csv")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_out_in_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InvalidInputError, match="cannot be written"):
            check_run_options(out=folder / "r.parquet")
    finally:
        folder.chmod(0o700)


def test_good_options_pass(tmp_path):
    check_run_options(metrics=("accuracy", "neg_log_loss"), n_jobs=-1,
                      out=tmp_path / "r.parquet", alpha=0.05, rope=0.0)
    check_run_options(metrics={"acc": object()})          # scorers given as objects


def test_runner_refuses_before_any_fit(tmp_path, monkeypatch):
    import outperform.experiments._runner as runner

    def no_fit(*args, **kwargs):
        raise AssertionError("a fit ran before the options were checked")

    monkeypatch.setattr(runner, "_fit_and_score", no_fit)
    monkeypatch.setattr(runner, "load_datasets", no_fit)
    for kwargs, match in [(dict(n_jobs=0), "--n-jobs"), (dict(metrics="accurasy"), "scoring"),
                          (dict(out=tmp_path / "x" / "r.csv"), "does not exist")]:
        with pytest.raises(InvalidInputError, match=match):
            run_experiment("nb", "iris", "2x2", progress=False, **kwargs)
