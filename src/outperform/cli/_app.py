"""The typer application of ``outperform``: its group (:class:`LazyGroup`, a
:class:`._errors.Group`, which turns exceptions into one line and an exit code), its help,
its ``--version``/``--debug`` options and its commands (:data:`COMMANDS`), imported lazily.

A command's module (and what it imports: pandas, scipy, the renderers) is imported only when
that command runs, or when something asks for the command itself (its own ``--help``, a walk
of the commands): ``outperform compare-evals`` does not load the modules of the thirteen
others. ``outperform --help`` lists every command with its one-line help without importing
any of them: the line is the command's ``short_help`` below, else the first paragraph of its
function's docstring, read from the module's source (:func:`one_line_help`).
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
from typing import NamedTuple

import typer
from typer.core import TyperCommand
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo, TyperInfo

from .. import __version__
from ._errors import Group


class LazyCommand(NamedTuple):
    """Where a command lives and how it is registered (the arguments of ``app.command``).

    ``module`` is relative to :mod:`outperform.cli`; ``attribute`` names the command's function
    (or, with ``group=True``, its ``typer.Typer`` of sub-commands); ``short_help``, when given,
    is the line of ``outperform --help``; ``epilog`` names an attribute of the module holding
    the epilog of the command's own help.
    """

    module: str
    attribute: str
    short_help: str | None = None
    epilog: str | None = None
    group: bool = False


#: Every command of ``outperform``, in the order ``outperform --help`` lists them.
COMMANDS = {
    "compare": LazyCommand("._compare", "compare_cmd"),
    "compare-predictions": LazyCommand("._compare_predictions", "compare_predictions_cmd"),
    "benchmark": LazyCommand("._benchmark", "benchmark"),
    "report": LazyCommand("._report", "report"),
    "simulate": LazyCommand("._simulate", "simulate"),
    "demo": LazyCommand("._demo", "demo"),
    "aggregate": LazyCommand("._aggregate", "aggregate_cmd", short_help=(
        "Runs x tasks (deep learning, RL): IQM and other aggregates with bootstrap intervals, "
        "probability of improvement, almost stochastic order.")),
    "compare-evals": LazyCommand("._compare_evals", "compare_evals_cmd"),
    "leaderboard": LazyCommand("._leaderboard", "leaderboard_cmd", short_help=(
        "Rank many models: rank confidence sets, tiers, letters, could-be-best sets; "
        "Bradley–Terry ratings of battles.")),
    "table": LazyCommand("._table", "table_cmd", short_help=(
        "The per-data-set results table of a paper (LaTeX, Markdown, HTML): mean ± sd, best in "
        "bold, marks, ranks.")),
    "gate": LazyCommand("._gate", "gate_cmd", epilog="EXIT_HELP"),
    "items": LazyCommand("._items", "items_cmd", short_help=(
        "Item diagnostics of a benchmark: difficulty, discrimination, signal-to-noise, "
        "Rasch/2PL abilities.")),
    "plan": LazyCommand("._plan", "plan_app", group=True, short_help=(
        "Plan an experiment before running it: power, sample size and minimum detectable "
        "effect.")),
}


def one_line_help(spec: LazyCommand) -> str:
    """The help ``outperform --help`` shows for a command, without importing its module.

    ``spec.short_help``, else the docstring of the module-level function ``spec.attribute``
    read from the module's source with :mod:`ast` (typer shows its first paragraph); the
    module is imported only when its source cannot be read.
    """
    if spec.short_help is not None:
        return spec.short_help
    name = importlib.util.resolve_name(spec.module, __package__)
    try:
        source = importlib.util.find_spec(name).loader.get_source(name)
    except (AttributeError, ImportError, OSError):
        source = None
    if source is not None:
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name == spec.attribute:
                return ast.get_docstring(node) or ""
    return inspect.getdoc(getattr(importlib.import_module(name), spec.attribute)) or ""


class _Listed(TyperCommand):
    """A command not imported yet, as ``outperform --help`` lists it (name and help only)."""


class LazyGroup(Group):
    """The ``outperform`` group, whose commands (:data:`COMMANDS`) are imported on first use.

    :meth:`get_command` imports a command's module and builds the command as typer would
    have at start-up; while the group's own help is printed, it returns a stand-in with the
    command's name and one-line help, so that ``outperform --help`` imports no command.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._listing = False

    def list_commands(self, ctx):
        return [*COMMANDS, *(n for n in super().list_commands(ctx) if n not in COMMANDS)]

    def get_command(self, ctx, cmd_name):
        if cmd_name not in COMMANDS or self.commands.get(cmd_name) is not None:
            return super().get_command(ctx, cmd_name)
        spec = COMMANDS[cmd_name]
        if self._listing:
            return _Listed(name=cmd_name, help=one_line_help(spec), short_help=spec.short_help)
        self.add_command(_build(cmd_name, spec), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx, formatter):
        self._listing = True
        try:
            return super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx, args):
        # typer suggests close names from the keys of self.commands: the lazy ones too (None
        # stands for one not built yet, which get_command builds)
        for name in COMMANDS:
            self.commands.setdefault(name, None)
        try:
            return super().resolve_command(ctx, args)
        finally:
            for name in [n for n, c in self.commands.items() if c is None]:
                del self.commands[name]


def _build(name: str, spec: LazyCommand):
    """The click command of ``spec``, as ``app.command(name, ...)`` (or ``app.add_typer``)
    at start-up would have built it."""
    module = importlib.import_module(spec.module, __package__)
    target = getattr(module, spec.attribute)
    settings = dict(pretty_exceptions_short=app.pretty_exceptions_short,
                    rich_markup_mode=app.rich_markup_mode)
    if spec.group:
        info = TyperInfo(target, name=name, short_help=spec.short_help)
        return get_group_from_info(info, suggest_commands=app.suggest_commands,
                                              **settings)
    info = CommandInfo(name=name, callback=target, short_help=spec.short_help,
                                    epilog=None if spec.epilog is None else
                                    getattr(module, spec.epilog))
    return get_command_from_info(info, **settings)


app = typer.Typer(
    cls=LazyGroup, add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
    help="Is model A really better than model B, how sure is that, and by how much?\n\n"
         "Statistical comparison of machine-learning models after Demšar (2006), Lacoste et al. "
         "(2012), Corani & Benavoli (2015) and Williams (2026). Start with "
         "[bold]outperform demo[/bold].",
    epilog="Exit codes: 0 success, 1 bad input (the message says what to fix), 2 usage error, "
           "3 internal error (the message names the file that holds the traceback; "
           "[bold]outperform --debug ...[/bold] prints it), 10 gate: regression, 11 gate: "
           "inconclusive, 130 interrupted (Ctrl-C).")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"outperform {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         debug: bool = typer.Option(False, "--debug", help="Print the traceback of an error "
                                    "(for a bug report) instead of writing it to a file.")
         ) -> None:
    """Compare models and algorithms soundly."""
