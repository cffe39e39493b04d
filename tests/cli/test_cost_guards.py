"""Every long command of the fuzz lists (issue 25 "Hangs and memory", issue 31 "Costs found
out too late") says what it will cost before the work: an estimate (one ``warning:`` line
with the time, the memory where it matters, and the option or what to change) or a refusal
(exit 1, the option and the largest value that fits). The cases are tests/_cost_cases.py.

Two forms of the table: each command as a fresh process, as a user runs it, killed once the
line is printed (slow; the wall limit is generous, 20 s, for a loaded CI machine; the time to
the line is measured by benchmarks/bench_cost_guards.py, never asserted); and in-process
through CliRunner, where the estimate is turned into an exception so that the work after it
never runs (fast).
"""
import shlex

import pytest
from typer.testing import CliRunner

import outperform._cost as cost
from _cost_cases import CASES, HUGE_PLANS, first_line, make_inputs
from outperform.cli import app

WALL_LIMIT = 20.0
runner = CliRunner()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return make_inputs(tmp_path_factory.mktemp("cost_guards"))


def _argv(template, folder):
    return shlex.split(template.format(d=folder))


@pytest.mark.slow
@pytest.mark.parametrize("name, template, kind, expected", CASES, ids=[c[0] for c in CASES])
def test_a_fresh_process_says_the_cost_before_the_work(inputs, name, template, kind, expected):
    line, code, _ = first_line(_argv(template, inputs), limit=WALL_LIMIT)
    assert line is not None, f"{name}: no estimate or refusal within {WALL_LIMIT:g} s"
    assert line.startswith(f"{kind}:"), line
    assert expected in line, line
    if kind == "error":
        assert code == 1
    else:
        assert "estimated to take at least" in line


class Announced(BaseException):
    """Raised in place of the estimate's warning: the work after it never starts (a
    BaseException, so neither the command's error handler nor CliRunner catches it)."""


@pytest.fixture
def announce_raises(monkeypatch):
    def warn(message, category=None, stacklevel=1):
        if category is cost.PerformanceWarning:
            raise Announced(str(message))
    monkeypatch.setattr(cost.warnings, "warn", warn)


# the cases whose estimate or refusal comes after a second or more of reading and analysis
# run as fresh processes only
FAST = [c for c in CASES if c[0] not in ("leaderboard 10,000 models", "benchmark README example",
                                         "leaderboard resamples 1e8", "leaderboard resamples 5e6",
                                         "gate --aa resamples 1e7",
                                         "compare --posthoc, 160 models")]


@pytest.mark.parametrize("name, template, kind, expected", FAST, ids=[c[0] for c in FAST])
def test_in_process_the_cost_is_said_before_the_work(inputs, announce_raises, name, template,
                                                     kind, expected):
    if kind == "error":
        res = runner.invoke(app, _argv(template, inputs))
        assert res.exit_code == 1, res.output
        assert "Traceback" not in res.output
        assert expected in " ".join(res.output.split())
        return
    with pytest.raises(Announced, match="estimated to take at least") as info:
        runner.invoke(app, _argv(template, inputs))
    assert expected in str(info.value)


@pytest.mark.parametrize("template, expected", HUGE_PLANS, ids=[p[0][:40] for p in HUGE_PLANS])
def test_plans_of_every_kind_at_huge_n_answer_at_once(template, expected):
    res = runner.invoke(app, shlex.split(template))
    assert res.exit_code == 0, res.output
    assert "nan" not in res.output and "warning:" not in res.output
    assert expected in " ".join(res.output.split())
