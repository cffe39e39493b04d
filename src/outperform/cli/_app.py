"""The typer application of ``outperform``: its group (:class:`._errors.Group`, which turns
exceptions into one line and an exit code), its help and its ``--version``/``--debug``
options. :mod:`outperform.cli` registers the commands on it; the exit codes are listed
there."""
from __future__ import annotations

import typer

from .. import __version__
from ._errors import Group


app = typer.Typer(
    cls=Group, add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
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
