"""One surface (issue 24 item 1): the shared options of every command have one name and one
default; every result command writes JSON that validates against the schema shipped in the
package, and Markdown; old spellings still work with a warning naming the new one; faults
(Ctrl-C, a full disk) end in one clear line (issue 25 item 5, the command line's side)."""
import errno
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

import outperform
from outperform.cli import app
from outperform.cli._options import SHARED
from outperform.data import load_demsar_table6
from outperform.report import validate_output

runner = CliRunner()
SRC = Path(outperform.__file__).parent
from _paths import FIXTURES  # noqa: E402

LM_EVAL = FIXTURES / "evals" / "lm_eval"


def _commands():
    """(path, click command) of every command and sub-command of ``outperform``."""
    out = []

    def visit(group, prefix):
        ctx = group.context_class(group)   # typer may bring its own click: no click.Context
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            if hasattr(cmd, "list_commands"):
                visit(cmd, prefix + [name])
            else:
                out.append((" ".join(prefix + [name]), cmd))

    visit(typer.main.get_command(app), [])
    return out


COMMANDS = _commands()


def _default(param):
    value = param.default
    value = getattr(value, "value", value)
    return None if value == () or value == [] else value


#: Where a shared option differs on purpose, and why.
EXCEPTIONS = {
    # The demo reproduces Demšar's worked example (§3.2.4), which is at alpha = 0.10.
    ("demo", "--alpha"): 0.10,
    # report writes several files at once: --format is repeatable, none given = four.
    ("report", "--format"): None,
    # the gate reports its minimum detectable regression at a fixed power; plan solves for it.
    ("gate", "--power"): 0.8,
    # aggregate's percentile intervals of IQM and optimality gap kept their 2,000 resamples.
    ("aggregate", "--n-resamples"): 2000,
    # items prints items to look at, not a ranking of models: 20 of them.
    ("items", "--top"): 20,
}


def test_the_walk_sees_every_command():
    names = {name for name, _ in COMMANDS}
    assert {"compare", "compare-predictions", "compare-evals", "leaderboard", "aggregate",
            "report", "benchmark", "simulate", "demo", "plan mcnemar", "plan paired-t",
            "plan sign", "plan corrected-t", "plan auc", "plan bayes-mcnemar", "table",
            "plan gold-labels"} <= names


@pytest.mark.parametrize("name, command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_shared_options_have_one_name_and_one_default(name, command):
    seen = {}
    for param in command.params:
        for opt in param.opts:
            if opt in SHARED and not param.hidden:
                seen[opt] = _default(param)
    for opt, default in seen.items():
        assert default == EXCEPTIONS.get((name, opt), SHARED[opt]), (name, opt, default)
    # no visible option spells a shared concept another way
    visible = {o for p in command.params if not getattr(p, "hidden", False) for o in p.opts}
    assert not visible & {"--cluster-by", "--group", "--json", "--formats",
                          "--confidence-level", "--reference"}, name


RESULT_COMMANDS = ["compare", "compare-predictions", "compare-evals", "leaderboard",
                   "aggregate", "simulate", "plan mcnemar", "plan paired-t", "plan sign",
                   "plan corrected-t", "plan auc", "plan bayes-mcnemar", "demo", "benchmark", "table",
                   "gate", "plan gold-labels"]


@pytest.mark.parametrize("name", RESULT_COMMANDS)
def test_every_result_command_has_format_and_out(name):
    command = dict(COMMANDS)[name]
    options = {o: p for p in command.params for o in p.opts}
    assert "--format" in options and "--out" in options
    res = runner.invoke(app, name.split() + ["--format", "pdf"])
    assert res.exit_code == 2      # a usage error, which lists the formats
    message = " ".join(res.output.split())
    assert all(f"'{f}'" in message for f in ("text", "markdown", "json", "html", "latex"))


def test_every_command_declares_its_seed_alpha_and_cluster_where_it_applies():
    have = {name: {o for p in cmd.params for o in p.opts if not p.hidden} for name, cmd in COMMANDS}
    for name in ("aggregate", "leaderboard", "benchmark", "simulate", "compare", "report"):
        assert "--seed" in have[name], name
    for name in ("aggregate", "compare-evals"):
        assert {"--higher-is-better", "--lower-is-better"} <= have[name], name
    assert "--encoding" in have["aggregate"] and "--control" in have["leaderboard"]
    assert "--y-true" in have["compare"]
    for name in ("compare-evals", "report", "compare-predictions", "leaderboard"):
        assert "--cluster" in have[name], name
    assert "--log-format" in have["compare-evals"]
    for name in ("benchmark", "simulate", "leaderboard", "compare-evals"):  # Dask (issue 31)
        assert "--scheduler" in have[name], name


def test_no_cli_module_outside_the_cli_package():
    strays = [p.relative_to(SRC) for pattern in ("*_cli.py", "_cli.py", "_cli_*.py", "cli.py")
              for p in SRC.rglob(pattern) if "cli" not in p.relative_to(SRC).parts[:-1]]
    assert strays == []
    assert (SRC / "cli" / "__init__.py").is_file() and (SRC / "cli" / "_options.py").is_file()


# -- inputs --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("shared")
    rng = np.random.default_rng(0)
    load_demsar_table6().frame.to_csv(d / "t6.csv", index=False)
    y = rng.integers(0, 2, 200)
    preds = pd.DataFrame({"label": y, "A": np.where(rng.random(200) < .85, y, 1 - y),
                          "B": np.where(rng.random(200) < .7, y, 1 - y)})
    preds.to_csv(d / "preds_label.csv", index=False)
    preds.rename(columns={"label": "y_true"}).to_csv(d / "preds.csv", index=False)
    pd.DataFrame([{"model": m, "item": i, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .7), ("C", .6)) for i in range(120)]
                 ).to_csv(d / "items.csv", index=False)
    pd.DataFrame([{"model_a": a, "model_b": b, "winner": rng.choice(["a", "b", "tie"])}
                  for _ in range(40) for a, b in (("x", "y"), ("y", "z"), ("x", "z"))]
                 ).to_csv(d / "battles.csv", index=False)
    n = 300
    ia = rng.integers(0, 3, n)
    ib = (ia + rng.integers(1, 3, n)) % 3
    pd.DataFrame({"model_a": np.array(["x", "y", "z"])[ia], "model_b": np.array(["x", "y", "z"])[ib],
                  "winner": rng.choice(["a", "b", "tie"], n), "tokens_a": rng.poisson(300, n),
                  "tokens_b": rng.poisson(300, n), "header_count_a": rng.integers(0, 3, n),
                  "header_count_b": rng.integers(0, 3, n)}).to_csv(d / "style.csv", index=False)
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": s,
                   "score": mu + rng.normal(0, .05) + t / 10}
                  for t in range(5) for m, mu in (("A", .5), ("B", .6)) for s in range(5)]
                 ).to_csv(d / "runs.csv", index=False)
    return d


def _lm_eval():
    found = sorted(str(p) for p in LM_EVAL.glob("*/samples_mini_arc_*.jsonl"))
    if len(found) != 2:
        pytest.skip("lm-eval fixtures not present")
    return found


def _argv(name, d):
    argv = {
        "compare": ["compare", d / "t6.csv"],
        "compare-q1": ["compare", d / "preds_label.csv", "--y-true", "label"],
        "compare-predictions": ["compare-predictions", d / "preds.csv"],
        "compare-evals": ["compare-evals", *(_lm_eval() if name == "compare-evals" else [])],
        "gate": ["gate", LM_EVAL / "EleutherAI__pythia-160m", LM_EVAL / "EleutherAI__pythia-410m",
                 "--margin", "0.02"],
        "gate-sequential": ["gate", LM_EVAL / "EleutherAI__pythia-160m",
                            LM_EVAL / "EleutherAI__pythia-410m", "--margin", "0.05",
                            "--sequential", "--shuffle"],
        "leaderboard": ["leaderboard", d / "items.csv", "--n-resamples", "200", "--control", "B"],
        "battles": ["leaderboard", d / "battles.csv", "--battles", "--n-resamples", "50"],
        "battles-style": ["leaderboard", d / "style.csv", "--battles", "--control-for",
                          "length,markdown", "--n-resamples", "100"],
        "aggregate": ["aggregate", d / "runs.csv", "--n-resamples", "200"],
        "leaderboard-mcs": ["leaderboard", d / "items.csv", "--n-resamples", "200", "--mcs"],
        "aggregate-aso": ["aggregate", d / "runs.csv", "--n-resamples", "200", "--aso"],
        "simulate": ["simulate", "demsar-replicability"],
        "plan mcnemar": ["plan", "mcnemar", "--accuracy-a", ".8", "--accuracy-b", ".75",
                         "--discordance", ".15"],
        "plan paired-t": ["plan", "paired-t", "--effect", "0.3"],
        "plan sign": ["plan", "sign", "--p-win", "0.7"],
        "plan corrected-t": ["plan", "corrected-t", "--effect", "0.5"],
        "plan auc": ["plan", "auc", "--auc-a", ".85", "--auc-b", ".8"],
        "plan bayes-mcnemar": ["plan", "bayes-mcnemar", "--n", "200", "--accuracy-a", ".8",
                               "--accuracy-b", ".75", "--discordance", ".15"],
        "plan gold-labels": ["plan", "gold-labels", "--width", "0.1", "--correlation", "0.8"],
        "demo": ["demo", "--out", d / "demo"],
        "benchmark": ["benchmark", "--models", "nb,tree", "--datasets", "iris", "--cv", "2x3",
                      "--out", d / "bench.csv"],
        "table": ["table", d / "t6.csv", "--control", "C4.5"],
        "items": ["items", d / "items.csv", "--n-resamples", "100"],
    }[name]
    return [str(a) for a in argv]


OUTPUTS = ["compare", "compare-q1", "compare-predictions", "compare-evals", "leaderboard",
           "battles", "battles-style", "aggregate", "leaderboard-mcs", "aggregate-aso", "simulate", "plan mcnemar",
           "plan paired-t", "plan sign", "plan corrected-t", "plan auc", "plan bayes-mcnemar",
           "table", "gate", "gate-sequential", "items"]


@pytest.mark.parametrize("name", OUTPUTS)
def test_json_validates_against_the_shipped_schema(files, name):
    pytest.importorskip("jsonschema")
    res = runner.invoke(app, _argv(name, files) + ["--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["schema_version"] == outperform.results.SCHEMA_VERSION
    validate_output(data)
    if name == "compare-q1":
        assert data["question"] == "Q1"   # the y_true column read as labels, not a data set


def test_the_schema_refuses_what_it_does_not_describe():
    pytest.importorskip("jsonschema")
    from outperform._validation import InvalidInputError

    with pytest.raises(InvalidInputError, match="leaderboard output .* 'models'"):
        validate_output({"schema_version": outperform.results.SCHEMA_VERSION,
                         "kind": "leaderboard"})
    res = runner.invoke(app, ["plan", "sign", "--p-win", "0.7", "--format", "json"])
    good = json.loads(res.stdout)
    assert validate_output(good) == good
    with pytest.raises(InvalidInputError, match="schema_version"):
        validate_output({**good, "schema_version": "0.9"})
    with pytest.raises(InvalidInputError, match="power"):
        validate_output({**good, "power": 1.5})


@pytest.mark.parametrize("name", OUTPUTS)
def test_markdown_is_written(files, name):
    res = runner.invoke(app, _argv(name, files) + ["--format", "markdown"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert any(line.startswith("|") and line.endswith("|") for line in lines), res.stdout
    assert "┃" not in res.stdout and "Traceback" not in res.output


@pytest.mark.parametrize("fmt, mark", [("html", "<table"), ("latex", "\\toprule")])
@pytest.mark.parametrize("name", ["compare", "leaderboard", "aggregate", "plan mcnemar", "demo",
                                  "table", "leaderboard-mcs", "aggregate-aso", "items",
                                  "battles-style"])
def test_html_and_latex(files, name, fmt, mark):
    res = runner.invoke(app, _argv(name, files) + ["--format", fmt])
    assert res.exit_code == 0, res.output
    assert mark in res.stdout


def test_out_writes_the_file_and_nothing_on_stdout(files, tmp_path):
    out = tmp_path / "sub" / "board.json"
    res = runner.invoke(app, _argv("leaderboard", files) + ["--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stdout == ""
    assert json.loads(out.read_text())["kind"] == "leaderboard"
    assert [p.name for p in out.parent.iterdir()] == ["board.json"]   # no temporary left


def test_aggregate_twice_prints_the_same(files):
    first = runner.invoke(app, _argv("aggregate", files))
    second = runner.invoke(app, _argv("aggregate", files))
    assert first.exit_code == second.exit_code == 0, first.output
    assert first.stdout == second.stdout
    # seed 0 is the default: the same as giving it
    third = runner.invoke(app, _argv("aggregate", files) + ["--seed", "0"])
    assert third.stdout == first.stdout
    other = runner.invoke(app, _argv("aggregate", files) + ["--seed", "1"])
    assert other.stdout != first.stdout     # the seed does reach the bootstrap


# -- old spellings -------------------------------------------------------------------------

def _both(files, old, new):
    a = runner.invoke(app, [str(x).format(d=files) for x in old])
    b = runner.invoke(app, [str(x).format(d=files) for x in new])
    assert a.exit_code == 0, a.output
    assert b.exit_code == 0, b.output
    return a, b


@pytest.mark.parametrize("old, new, warning", [
    (["aggregate", "{d}/runs.csv", "--n-resamples", "200", "--json"],
     ["aggregate", "{d}/runs.csv", "--n-resamples", "200", "--format", "json"],
     "--json is deprecated; use --format json"),
    (["aggregate", "{d}/runs.csv", "--n-resamples", "200", "--confidence-level", "0.9"],
     ["aggregate", "{d}/runs.csv", "--n-resamples", "200", "--alpha", "0.1"],
     "--confidence-level is deprecated; use --alpha"),
    (["compare-evals", "{d}/items_eval.csv", "--json"],
     ["compare-evals", "{d}/items_eval.csv", "--format", "json"],
     "--json is deprecated; use --format json"),
    (["compare-evals", "{d}/items_eval.csv", "--cluster-by", "passage", "--format", "json"],
     ["compare-evals", "{d}/items_eval.csv", "--cluster", "passage", "--format", "json"],
     "--cluster-by is deprecated; use --cluster"),
    (["compare-evals", "{d}/items_eval.csv", "--format", "csv"],
     ["compare-evals", "{d}/items_eval.csv", "--log-format", "csv"],
     "use --log-format csv"),
    (["compare-predictions", "{d}/preds_g.csv", "--group", "doc", "--format", "json"],
     ["compare-predictions", "{d}/preds_g.csv", "--cluster", "doc", "--format", "json"],
     "--group is deprecated; use --cluster"),
])
def test_old_spellings_work_and_warn(files, old, new, warning):
    rng = np.random.default_rng(3)
    pd.DataFrame([{"model": m, "item": i, "passage": i // 10, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .6)) for i in range(100)]
                 ).to_csv(files / "items_eval.csv", index=False)
    y = rng.integers(0, 2, 120)
    pd.DataFrame({"y_true": y, "doc": np.arange(120) // 6,
                  "A": np.where(rng.random(120) < .8, y, 1 - y),
                  "B": np.where(rng.random(120) < .7, y, 1 - y)}).to_csv(files / "preds_g.csv",
                                                                      index=False)
    a, b = _both(files, old, new)
    assert warning in " ".join(a.stderr.split())
    assert "deprecated" not in b.stderr
    assert a.stdout == b.stdout


@pytest.mark.slow
@pytest.mark.parametrize("old", [["--formats", "md,json"], ["--formats", "markdown,json"]])
def test_report_formats_old_spelling(files, tmp_path, old):
    res = runner.invoke(app, ["report", str(files / "t6.csv"), "--out", str(tmp_path / "r"),
                              *old, "--no-bayesian"])
    assert res.exit_code == 0, res.output
    assert "--formats is deprecated; use --format" in " ".join(res.stderr.split())
    assert sorted(p.suffix for p in (tmp_path / "r").glob("*.*") if p.suffix in
                  (".md", ".json", ".html", ".tex")) == [".json", ".md"]
    new = runner.invoke(app, ["report", str(files / "t6.csv"), "--out", str(tmp_path / "n"),
                              "--format", "markdown", "--format", "json", "--no-bayesian"])
    assert new.exit_code == 0 and "deprecated" not in new.stderr
    assert (tmp_path / "n" / "report.md").read_text() == (tmp_path / "r" / "report.md").read_text()


def test_report_cluster_by_old_spelling(files, tmp_path):
    rng = np.random.default_rng(4)
    pd.DataFrame([{"model": m, "item": i, "passage": i // 10, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .6)) for i in range(100)]
                 ).to_csv(tmp_path / "items.csv", index=False)
    res = runner.invoke(app, ["report", str(tmp_path / "items.csv"), "--out",
                              str(tmp_path / "r"), "--format", "json", "--cluster-by", "passage"])
    assert res.exit_code == 0, res.output
    assert "--cluster-by is deprecated; use --cluster" in " ".join(res.stderr.split())


@pytest.mark.slow
def test_simulate_out_figure_is_the_old_plot(files, tmp_path):
    res = runner.invoke(app, ["simulate", "demsar-replicability", "--out",
                              str(tmp_path / "f.png")])
    assert res.exit_code == 0, res.output
    assert "use --plot" in " ".join(res.stderr.split())
    assert (tmp_path / "f.png").stat().st_size > 1000


def test_old_and_new_spelling_that_disagree_are_refused(files):
    res = runner.invoke(app, ["compare-predictions", str(files / "preds.csv"), "--group", "a",
                              "--cluster", "b"])
    assert res.exit_code == 1
    assert "--cluster 'b' and --group 'a' disagree" in " ".join(res.output.split())


def test_both_directions_in_aggregate_are_a_usage_error(files):
    res = runner.invoke(app, _argv("aggregate", files) + ["--lower-is-better",
                                                          "--higher-is-better"])
    assert res.exit_code == 2


def test_leaderboard_control_must_be_a_model(files):
    res = runner.invoke(app, _argv("leaderboard", files)[:-2] + ["--control", "Z"])
    assert res.exit_code == 1 and "--control 'Z' is not among the models" in res.output


# -- faults --------------------------------------------------------------------------------

def test_ctrl_c_prints_one_line_and_exits_130(files, monkeypatch):
    import outperform.compare as oc

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(oc, "compare", interrupted)
    res = runner.invoke(app, ["compare", str(files / "t6.csv")])
    assert res.exit_code == 130
    assert res.stderr.strip() == "interrupted; nothing was written."
    assert "Traceback" not in res.output and "Aborted" not in res.output


def test_ctrl_c_after_a_file_names_it(files, monkeypatch, tmp_path):
    import outperform.cli._aggregate as agg

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    real = agg.save_figure
    calls = []

    def once_then_stop(figure, path, **kw):
        if calls:
            raise KeyboardInterrupt
        calls.append(path)
        real(figure, path, **kw)

    monkeypatch.setattr(agg, "save_figure", once_then_stop)
    pytest.importorskip("matplotlib")
    frame = pd.read_csv(files / "runs.csv")
    steps = pd.concat([frame.assign(step=s) for s in (1, 2)])
    steps.to_csv(tmp_path / "steps.csv", index=False)
    res = runner.invoke(app, ["aggregate", str(tmp_path / "steps.csv"), "--n-resamples", "50",
                              "--out", str(tmp_path / "agg.txt"),
                              "--plot", str(tmp_path / "a.png"),
                              "--curves", str(tmp_path / "c.png")])
    assert res.exit_code == 130, res.output
    line = " ".join(res.stderr.split())
    assert "interrupted; written before:" in line
    assert "agg.txt" in line and "a.png" in line and "Traceback" not in res.output


def _full_disk(monkeypatch, tmp_path):
    """Every file the CLI writes goes to a temporary file written through /dev/full
    (ENOSPC when the bytes reach the device), as the package's atomic writer opens it."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    import outperform._atomic as atomic

    real = atomic._temporary_beside

    def beside(path):
        tmp = real(path)
        tmp.unlink()
        tmp.symlink_to("/dev/full")   # writes to the temporary file fill the "disk"
        return tmp

    monkeypatch.setattr(atomic, "_temporary_beside", beside)


def test_full_disk_says_so_and_keeps_the_old_file(files, monkeypatch, tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old")
    _full_disk(monkeypatch, tmp_path)
    res = runner.invoke(app, ["compare", str(files / "t6.csv"), "--format", "json",
                              "--out", str(out)])
    assert res.exit_code == 1
    line = " ".join(res.stderr.split())
    assert f"disk full while writing '{out}'" in line
    assert "permissions" not in line and "Traceback" not in res.output
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]   # no temporary left


def test_full_disk_with_a_file_name_in_the_error(monkeypatch, files):
    import outperform.compare as oc

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "/data/results.parquet")

    monkeypatch.setattr(oc, "compare", full)
    res = runner.invoke(app, ["compare", str(files / "t6.csv")])
    assert res.exit_code == 1
    line = " ".join(res.stderr.split())
    assert "disk full while writing '/data/results.parquet'" in line
    assert "permissions" not in line


@pytest.mark.slow
def test_a_real_sigint_ends_in_one_line_and_exit_130(files):
    # A real signal to a real process: the analysis (replaced by a wait, so the test does
    # not depend on how long a bootstrap takes) is interrupted, as Ctrl-C does.
    import signal
    import subprocess
    import sys

    code = ("import sys, time, outperform.compare as oc\n"
            "def wait(*a, **k):\n"
            "    print('ready', file=sys.stderr, flush=True)\n"
            "    time.sleep(60)\n"
            "oc.compare_runs = wait\n"
            "from outperform.cli import app\n"
            f"sys.argv = ['outperform', 'aggregate', {str(files / 'runs.csv')!r}]\n"
            "app(prog_name='outperform')\n")
    # SIGINT back to its default in the child: a test run started in the background of a
    # non-interactive shell (`cmd &`) inherits SIGINT ignored, and Python then installs no
    # KeyboardInterrupt handler (a terminal's Ctrl-C always reaches a foreground command)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stderr.readline().strip() == "ready"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err.strip() == "interrupted; nothing was written."
    assert out == "" and "Traceback" not in err



@pytest.mark.parametrize("name, command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_that_writes_latex_takes_fragment(name, command):
    # issue 28: --format latex --fragment (tables and figures only) wherever LaTeX is written
    visible = {o for p in command.params if not getattr(p, "hidden", False) for o in p.opts}
    if "--format" in visible:
        assert "--fragment" in visible, name


@pytest.mark.parametrize("name", ["compare", "plan mcnemar", "aggregate", "leaderboard"])
def test_fragment_prints_only_tables(tmp_path, name):
    argv = {"compare": f"compare {tmp_path}/t6.csv",
            "plan mcnemar": "plan mcnemar --accuracy-a 0.85 --accuracy-b 0.8 "
                            "--discordance 0.2",
            "aggregate": f"aggregate {tmp_path}/runs.csv --n-resamples 50",
            "leaderboard": f"leaderboard {tmp_path}/items.csv --n-resamples 100"}[name]
    load_demsar_table6().frame.to_csv(tmp_path / "t6.csv", index=False)
    rng = np.random.default_rng(0)
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": s, "score": mu + rng.normal(0, .05)}
                  for t in range(4) for m, mu in (("A", .5), ("B", .6)) for s in range(4)]
                 ).to_csv(tmp_path / "runs.csv", index=False)
    pd.DataFrame([{"model": m, "item": i, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .7), ("C", .6)) for i in range(100)]
                 ).to_csv(tmp_path / "items.csv", index=False)
    result = runner.invoke(app, argv.split() + ["--format", "latex", "--fragment"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "\\paragraph" not in text and "\\begin{table*}" in text
    assert "% \\usepackage{booktabs,array,tabularx" in text
