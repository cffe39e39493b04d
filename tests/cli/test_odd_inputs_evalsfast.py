"""Odd inputs of the lazily registered commands (issue 31, compare-evals' start-up): the
commands are imported only when they run, and what a user types wrong still gets the same
answer (exit code and a substring of the output)."""
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()

CASES = [
    # a misspelt command: typer's suggestion still names the lazily registered commands
    ("misspelt command", ["compare-evalz"], 2, "Did you mean 'compare-evals'"),
    ("misspelt sub-command group", ["plam", "mcnemar"], 2, "Did you mean 'plan'"),
    ("unknown command", ["frobnicate"], 2, "No such command 'frobnicate'"),
    # a command given with no arguments at all: its own usage error, not the group's
    ("command without its paths", ["compare-evals"], 2, "Missing argument 'paths'"),
    # a misspelt sub-command of the lazily built group
    ("misspelt plan sub-command", ["plan", "mcnemr"], 2, "Did you mean 'mcnemar'"),
]


@pytest.mark.parametrize("args, code, message", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_odd_input(args, code, message):
    result = runner.invoke(app, args)
    assert result.exit_code == code, result.output
    assert message in " ".join(result.output.split())
