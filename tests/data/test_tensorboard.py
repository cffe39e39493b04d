"""Reading TensorBoard event files of many runs (data/_tensorboard.py; issue 27, item 3).

Logs of 3 algorithms x 4 tasks x 5 seeds are written with TensorBoard's own writers (no
TensorFlow or PyTorch): ``tensorboard.summary.Writer`` (the scalar plugin's tensors, as TF2
writes them) and ``EventFileWriter`` with ``simple_value`` summaries (as PyTorch's
``SummaryWriter`` writes them). Read back, they must be the very numbers written (float32,
TensorBoard's storage), and ``sample_efficiency`` / ``outperform aggregate`` of the folder
must equal those of the same numbers written as a CSV file.
"""
from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

pytest.importorskip("tensorboard")

from outperform import InvalidInputError, OutperformWarning  # noqa: E402
from outperform.cli import app  # noqa: E402
from outperform.compare import sample_efficiency  # noqa: E402
from outperform.data import read_table, read_tensorboard  # noqa: E402
from outperform.data._tensorboard import pattern_regex  # noqa: E402

ALGOS = {"dqn": 0.0, "ppo": 0.3, "sac": 0.5}   # offset of each algorithm's curves
TASKS = ("ant", "cheetah", "hopper", "walker")
SEEDS = 5
STEPS = np.arange(0, 10_000, 1_000)
TAG = "eval/return"


def write_scalar(folder, steps, values, tag=TAG, kind="tensor"):
    """One run's scalars with TensorBoard's writers: the TF2-style tensor summaries
    (``tensorboard.summary.Writer``) or PyTorch-style ``simple_value`` events."""
    if kind == "tensor":
        from tensorboard.summary import Writer

        writer = Writer(str(folder))
        for step, value in zip(steps, values):
            writer.add_scalar(tag, value, int(step))
        writer.close()
        return
    from tensorboard.compat.proto.event_pb2 import Event
    from tensorboard.compat.proto.summary_pb2 import Summary
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    writer = EventFileWriter(str(folder))
    for step, value in zip(steps, values):
        writer.add_event(Event(wall_time=time.time(), step=int(step), summary=Summary(
            value=[Summary.Value(tag=tag, simple_value=float(value))])))
    writer.close()


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """(log folder, CSV of the same numbers): the dqn runs written PyTorch-style, the others
    TF2-style; values drawn as float32, as TensorBoard stores them."""
    root = tmp_path_factory.mktemp("tb")
    rng = np.random.default_rng(3)
    rows = []
    for algo, shift in ALGOS.items():
        for task in TASKS:
            for seed in range(SEEDS):
                values = (shift + STEPS / 10_000 + rng.normal(0, 0.1, len(STEPS))).astype(
                    np.float32)
                write_scalar(root / "runs" / algo / task / str(seed), STEPS, values,
                             kind="simple" if algo == "dqn" else "tensor")
                rows += [(algo, task, seed, int(s), float(v)) for s, v in zip(STEPS, values)]
    csv = root / "curves.csv"
    pd.DataFrame(rows, columns=["model", "task", "run", "step", TAG]).to_csv(csv, index=False)
    return root / "runs", csv


def test_the_numbers_read_are_the_numbers_written(logs):
    logdir, csv = logs
    frame = read_tensorboard(logdir, tag=TAG)
    table = read_table(csv)
    assert list(frame.columns) == ["model", "task", "run", "step", TAG]
    assert len(frame) == len(ALGOS) * len(TASKS) * SEEDS * len(STEPS)
    for col in ("model", "task"):
        assert frame[col].tolist() == table[col].astype(str).tolist()
    for col in ("run", "step", TAG):
        np.testing.assert_array_equal(frame[col].to_numpy(), table[col].to_numpy())
    assert frame.attrs["provenance"] == {"reader": "tensorboard", "logdir": str(logdir),
                                         "tag": TAG, "pattern": "{model}/{task}/{seed}",
                                         "n_runs": 60}


def test_the_only_tag_needs_no_name(logs):
    logdir, _ = logs
    assert read_tensorboard(logdir).columns[-1] == TAG


@pytest.mark.slow
def test_iqm_per_step_equals_that_of_the_csv(logs):
    logdir, csv = logs
    a = sample_efficiency(read_tensorboard(logdir, tag=TAG), n_resamples=300)
    b = sample_efficiency(csv, n_resamples=300)
    assert a.to_dict() == b.to_dict()
    # the IQM at each step, by hand: the mean of the middle half of the 20 scores of
    # (4 tasks x 5 seeds), as scipy.stats.trim_mean(x, 0.25) computes it
    from scipy.stats import trim_mean

    table = read_table(csv)
    for algo in ALGOS:
        for i, step in enumerate(STEPS):
            x = table[(table["model"] == algo) & (table["step"] == step)][TAG].to_numpy()
            assert a.estimate[algo][i] == pytest.approx(trim_mean(x, 0.25), rel=1e-12)


@pytest.mark.slow
def test_aggregate_of_the_folder_equals_aggregate_of_the_csv(logs):
    logdir, csv = logs
    runner = CliRunner()
    a = runner.invoke(app, ["aggregate", str(logdir), "--tag", TAG, "--n-resamples", "300",
                            "--format", "json"])
    b = runner.invoke(app, ["aggregate", str(csv), "--n-resamples", "300", "--format", "json"])
    assert a.exit_code == 0, a.output
    assert b.exit_code == 0, b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert json.loads(a.stdout)["models"] == list(ALGOS)


def test_a_pattern_reads_cleanrl_folder_names(tmp_path):
    for algo in ("ppo", "dqn"):
        for seed in (1, 2):
            write_scalar(tmp_path / f"CartPole-v1__{algo}__{seed}__17000{seed}", [0, 10],
                         [1.0, 2.0], tag="charts/episodic_return")
    frame = read_tensorboard(tmp_path, pattern="{task}__{model}__{seed}__{}")
    assert sorted(set(zip(frame["model"], frame["task"], frame["run"]))) == [
        ("dqn", "CartPole-v1", 1), ("dqn", "CartPole-v1", 2),
        ("ppo", "CartPole-v1", 1), ("ppo", "CartPole-v1", 2)]


def test_steps_common_keeps_the_steps_all_runs_of_a_model_have(tmp_path):
    write_scalar(tmp_path / "a" / "t" / "0", [0, 10, 20], [1.0, 2.0, 3.0])
    write_scalar(tmp_path / "a" / "t" / "1", [0, 10, 25], [1.0, 2.0, 3.0])
    write_scalar(tmp_path / "b" / "t" / "0", [0, 10, 20], [1.0, 2.0, 3.0])
    with pytest.warns(OutperformWarning, match="left out \\('a': 2\\)"):
        frame = read_tensorboard(tmp_path, steps="common")
    assert sorted(frame[frame["model"] == "a"]["step"]) == [0, 0, 10, 10]
    assert sorted(frame[frame["model"] == "b"]["step"]) == [0, 10, 20]


@pytest.mark.parametrize("pattern, message", [
    ("{algo}/{task}", "unknown field {algo}"),
    ("{task}/{seed}", "has no {model}"),
    ("{model}/{seed}/{run}", "names {run} twice"),
])
def test_a_bad_pattern_is_refused(pattern, message):
    with pytest.raises(InvalidInputError, match=message.replace("{", r"\{").replace("}", r"\}")):
        pattern_regex(pattern)
