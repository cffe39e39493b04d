"""Odd inputs of ``--scheduler`` on ``leaderboard`` and ``compare-evals`` and of
``scheduler=`` in the library (issue 31): each row is an input and its exact outcome, an
exit code and a message through ``outperform.cli.app``, or an exception class and message."""
import socket

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError
from outperform.cli import app
from outperform.compare import compare_evals, leaderboard

pytest.importorskip("distributed", reason="dask.distributed not installed")
runner = CliRunner()


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd_dask")
    rng = np.random.default_rng(0)
    pd.DataFrame([{"model": m, "item": i, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .7), ("C", .6)) for i in range(60)]
                 ).to_csv(d / "items.csv", index=False)
    pd.DataFrame([{"model_a": a, "model_b": b, "winner": rng.choice(["a", "b", "tie"])}
                  for _ in range(20) for a, b in (("x", "y"), ("y", "z"))]
                 ).to_csv(d / "battles.csv", index=False)
    return d


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CLI = [
    (["leaderboard", "items.csv", "--scheduler", "127.0.0.1"], 1,
     "Dask scheduler address '127.0.0.1': missing port"),
    (["compare-evals", "items.csv", "--scheduler", "http://127.0.0.1:8786"], 1,
     "unknown address scheme 'http'"),
    (["leaderboard", "items.csv", "--scheduler", "tcp://127.0.0.1:eighty"], 1,
     "give it as tcp://HOST:PORT"),
    (["leaderboard", "battles.csv", "--battles", "--scheduler", "tcp://127.0.0.1:8786"], 1,
     "--scheduler runs the rank sets' bootstrap of scores on Dask; --battles"),
]


@pytest.mark.parametrize("args, code, message", CLI, ids=[" ".join(a[:2] + a[-2:-1])
                                                           for a, *_ in CLI])
def test_cli(d, args, code, message, monkeypatch):
    monkeypatch.chdir(d)
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    assert message in " ".join(res.stderr.split())
    assert "Traceback" not in res.output and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("command", ["leaderboard", "compare-evals"])
def test_an_unreachable_scheduler_is_one_line_before_any_work(d, command, monkeypatch):
    from outperform import _parallel

    monkeypatch.setattr(_parallel, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    res = runner.invoke(app, [command, str(d / "items.csv"), "--scheduler", address])
    assert res.exit_code == 1, res.output
    assert f"cannot reach a Dask scheduler at {address!r} within 1 s" in res.stderr
    assert "Traceback" not in res.output and res.stdout == ""


API = [
    (lambda t: leaderboard(t, scheduler=8786), InvalidInputError,
     "scheduler must be None, a Dask scheduler's address (tcp://HOST:PORT) or a "
     "dask.distributed Client, got int."),
    (lambda t: leaderboard(t, scheduler="localhost"), InvalidInputError,
     "Dask scheduler address 'localhost'"),
    (lambda t: compare_evals(t, scheduler=object()), InvalidInputError,
     "got object."),
]


@pytest.mark.parametrize("call, error, message", API)
def test_api(d, call, error, message):
    table = pd.read_csv(d / "items.csv")
    with pytest.raises(error, match=None) as info:
        call(table)
    assert message in str(info.value)


class _Counter(np.random.PCG64):
    """A user's bit generator: its state names a class numpy does not have."""

    @property
    def state(self):
        return {**super().state, "bit_generator": "Counter"}


def test_a_bit_generator_numpy_cannot_rebuild_on_the_workers_is_refused():
    import distributed

    from outperform.stats import rank_sets

    y = np.random.default_rng(0).normal([0.0, 0.1, 0.2], 1.0, size=(200, 3))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        with pytest.raises(InvalidInputError, match="random_state: a Generator of Counter, "
                                                    "which is not one of numpy's bit "
                                                    "generators, cannot be rebuilt on the "
                                                    "Dask workers; give an int seed"):
            rank_sets(y, n_resamples=100, random_state=np.random.Generator(_Counter(1)),
                      scheduler=client)
