"""The commands of ``outperform`` are imported on first use (cli/_app.py, issue 31): the
listing of ``outperform --help`` (built without importing them) says what each command, once
imported, says of itself, and every command is reachable."""
import importlib

import pytest
import typer
from typer.testing import CliRunner

from outperform.cli import app
from outperform.cli._app import COMMANDS, LazyGroup, one_line_help

runner = CliRunner()


def _group():
    group = typer.main.get_command(app)
    assert isinstance(group, LazyGroup)
    return group, group.context_class(group)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_listed_help_is_the_commands_own(name):
    # The property: what `outperform --help` shows without the import (short_help, else the
    # docstring read from the source) equals what the imported command shows.
    group, ctx = _group()
    command = group.get_command(ctx, name)
    assert command.name == name
    shown = command.short_help or command.help
    assert one_line_help(COMMANDS[name]).split("\n\n")[0] == shown.split("\n\n")[0]


def test_the_help_lists_every_command_in_order():
    result = runner.invoke(app, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    rows = [line.strip("│ ").split()[0] for line in result.output.splitlines()
            if line.startswith("│ ") and not line.startswith("│ -") and line.strip("│ ")]
    assert [r for r in rows if r in COMMANDS] == list(COMMANDS)


def test_every_registered_module_defines_its_command():
    # A typo in COMMANDS would only show when that command runs: check each one here.
    for name, spec in COMMANDS.items():
        module = importlib.import_module(spec.module, "outperform.cli")
        target = getattr(module, spec.attribute)
        assert isinstance(target, typer.Typer) if spec.group else callable(target), name
        if spec.epilog is not None:
            assert isinstance(getattr(module, spec.epilog), str), name
