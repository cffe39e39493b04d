"""Odd inputs of ``outperform leaderboard --battles --control-for`` (issue 30 item 3): each
row is an input and its exact outcome (exit code and a message), through
``outperform.cli.app``; and the same tables given to
:func:`outperform.compare.bradley_terry_style`, with the exception it raises."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.cli import app
from outperform.compare import bradley_terry_style

runner = CliRunner()


def _battles(n=240, seed=0, **columns):
    rng = np.random.default_rng(seed)
    names = np.array(["x", "y", "z"])
    ia = rng.integers(0, 3, n)
    ib = (ia + rng.integers(1, 3, n)) % 3
    df = pd.DataFrame({"model_a": names[ia], "model_b": names[ib],
                       "winner": rng.choice(["a", "b", "tie"], n),
                       "tokens_a": rng.poisson(300, n), "tokens_b": rng.poisson(300, n),
                       "header_count_a": rng.integers(0, 3, n),
                       "header_count_b": rng.integers(0, 3, n)})
    for name, f in columns.items():
        df[name] = f(df)
    return df


def _z_never_loses(df):
    lose_z = ((df["model_a"] == "z") & (df["winner"] != "a")) | (
        (df["model_b"] == "z") & (df["winner"] != "b"))
    return df[~lose_z]


TABLES = {
    "plain": _battles(),
    "no-style-columns": _battles().drop(columns=["tokens_a", "tokens_b", "header_count_a",
                                                  "header_count_b"]),
    "negative-length": _battles(tokens_a=lambda d: d["tokens_a"] - 400),
    "missing-length": _battles(tokens_b=lambda d: d["tokens_b"].where(d.index != 7)),
    "text-length": _battles(tokens_a=lambda d: np.where(d.index == 0, "long", d["tokens_a"])),
    "zero-markdown": _battles(header_count_a=lambda d: 0, header_count_b=lambda d: 0),
    "per-battle-covariate": _battles(refusal=lambda d: np.arange(len(d)) % 3 - 1.0),
    "z-never-loses": _z_never_loses(_battles()),
}

CASES = [
    # (id, table, options, exit code, substring of the output)
    ("plain", "plain", "--control-for length,markdown", 0,
     "controlling for tokens, header_count"),
    ("no-style-columns", "no-style-columns", "--control-for length", 1,
     "has no columns sum_assistant_tokens_a/sum_assistant_tokens_b"),
    ("unknown-stem", "plain", "--control-for verbosity", 1,
     "has no columns verbosity_a/verbosity_b nor verbosity"),
    ("negative-length", "negative-length", "--control-for length", 1,
     "(f_A - f_B) / (f_A + f_B) needs counts or lengths >= 0"),
    ("missing-length", "missing-length", "--control-for length", 1,
     "style column 'tokens_b' is missing or not finite in row 8"),
    ("text-length", "text-length", "--control-for length", 1,
     "style column 'tokens_a' must be numeric"),
    ("zero-markdown", "zero-markdown", "--control-for markdown", 1,
     "'header_count' has one value in every battle: its coefficient is not identified"),
    ("zero-markdown-penalised", "zero-markdown", "--control-for markdown --l2 1", 0,
     "L2 penalty 1 on the style coefficients"),
    ("empty-control-for", "plain", "--control-for ,", 1, "needs at least one style name"),
    ("twice", "plain", "--control-for length,tokens", 1, "names the feature 'tokens' twice"),
    ("per-battle-covariate", "per-battle-covariate", "--control-for refusal", 0,
     "controlling for refusal"),
    ("negative-l2", "plain", "--control-for length --l2 -1", 1, "l2 must be a finite number"),
    ("l2-without-control", "plain", "--l2 1", 1, "--l2 penalises the style coefficients: add "
     "--control-for"),
    ("z-never-loses", "z-never-loses", "--control-for length", 1,
     "z never lost nor tied against the other models"),
]


@pytest.mark.parametrize("case, table, options, code, message", CASES,
                         ids=[c[0] for c in CASES])
def test_cli(tmp_path, case, table, options, code, message):
    path = tmp_path / f"{table}.csv"
    TABLES[table].to_csv(path, index=False)
    res = runner.invoke(app, ["leaderboard", str(path), "--battles", *options.split(),
                              "--n-resamples", "0", "--format", "markdown"])
    assert res.exit_code == code, res.output
    assert message in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


def test_control_for_without_battles(tmp_path):
    path = tmp_path / "items.csv"
    pd.DataFrame({"model": ["a", "b"] * 10, "item": np.repeat(np.arange(10), 2),
                  "score": np.arange(20) % 2}).to_csv(path, index=False)
    res = runner.invoke(app, ["leaderboard", str(path), "--control-for", "length"])
    assert res.exit_code == 1
    assert "--control-for and --l2 apply to --battles" in res.output


@pytest.mark.parametrize("table, control_for, error, message", [
    ("no-style-columns", "length", InvalidInputError, "has no columns"),
    ("negative-length", "length", InvalidInputError, "needs counts or lengths >= 0"),
    ("zero-markdown", "markdown", DegenerateDataError, "not identified"),
    ("plain", [], TooFewError, "at least one style name"),
    ("z-never-loses", "length", DegenerateDataError, "never lost nor tied"),
])
def test_python(table, control_for, error, message):
    with pytest.raises(error, match=message):
        bradley_terry_style(TABLES[table], control_for, rank_sets=False)


def test_arena_filters_are_not_silently_dropped_with_style_control(tmp_path):
    """--control-for reads every battle of the table: the Arena filters are refused, not
    ignored."""
    from typer.testing import CliRunner

    from outperform.cli import app

    path = tmp_path / "battles.csv"
    path.write_text("model_a,model_b,winner,tokens_a,tokens_b\nx,y,model_a,10,20\n")
    res = CliRunner().invoke(app, ["leaderboard", str(path), "--battles", "--control-for",
                                   "length", "--anony-only"])
    assert res.exit_code == 1 and "not applied with --control-for" in res.output
