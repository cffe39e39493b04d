"""The options the commands share, each declared once: one name, one default, one meaning.

Every command takes its shared options from these factories (a command may say more in
its help through ``help=``, never another name or default), so ``--alpha`` is 0.05 and
``--seed`` is 0 wherever they appear; ``tests/cli/test_shared_options.py`` walks every
command's help to hold that. Old spellings are hidden options that still work for one
release: :func:`deprecated` prints the warning naming the new one.
"""
from __future__ import annotations

from enum import Enum

import typer
from rich.markup import escape

from .._validation import InvalidInputError
from ._errors import err


class Format(str, Enum):
    """What a command prints (``--format``)."""

    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"
    latex = "latex"


#: The shared options: name -> default (the test of the shared options reads this).
SHARED = {"--format": "text", "--out": None, "--metric": None, "--higher-is-better": False,
          "--lower-is-better": False, "--control": None, "--alpha": 0.05, "--cluster": None,
          "--seed": 0, "--encoding": None, "--plot": None, "--y-true": "y_true",
          "--rope": None, "--loss": "zero-one", "--threshold": 0.95, "--margin": None,
          "--fragment": False, "--log-format": None, "--intersect": False, "--task": None,
          "--n-resamples": 1000, "--top": None, "--power": None, "--rho": None,
          "--discordance": None, "--n-jobs": 1, "--scheduler": None}

FORMAT_HELP = "Output format: text, markdown, json, html or latex."


def format_(help: str = FORMAT_HELP):
    return typer.Option(Format.text, "--format", help=help)


def fragment(help: str = "With --format latex: only the tables and figure environments, to "
                          "\\input into a paper (the \\usepackage lines they need in a comment "
                          "at the top), not a whole document."):
    return typer.Option(False, "--fragment", help=help)


def check_fragment(fragment: bool, fmt) -> None:
    """Refuse ``--fragment`` without ``--format latex`` (it would be silently ignored)."""
    if fragment and getattr(fmt, "value", fmt) != "latex":
        raise InvalidInputError(f"--fragment writes LaTeX tables and figures; it needs --format "
                                f"latex, not --format {getattr(fmt, 'value', fmt)}.")


def out(help: str = "Write the output to this file instead of the terminal (the file is "
                    "replaced whole, or not at all)."):
    return typer.Option(None, "--out", metavar="FILE", help=help)


def metric(help: str = "Metric column, when there are several."):
    return typer.Option(None, "--metric", help=help)


def higher_is_better(help: str = "The metric is a score (higher is better): confirms the "
                                 "direction of a metric name outperform does not know."):
    return typer.Option(False, "--higher-is-better", help=help)


def lower_is_better(help: str = "The metric is a loss or error (lower is better)."):
    return typer.Option(False, "--lower-is-better", help=help)


def control(help: str = "Compare every model with this one (e.g. your baseline) instead of "
                        "all pairs."):
    return typer.Option(None, "--control", help=help)


def pairs(help: str = "Which pairs to compute and print in full: all, neighbours (in the "
                      "ranking) or control (each model against --control). Default: control "
                      "with --control, all up to 6 models, else neighbours; the rest are "
                      "counted."):
    from ..compare._pair_choice import PAIRS

    return typer.Option(None, "--pairs", metavar="|".join(PAIRS), help=help)


def alpha(help: str = "Significance level (intervals at 1 - alpha)."):
    return typer.Option(0.05, "--alpha", help=help)


def cluster(help: str = "Column (or field) of cluster labels of the items (documents, "
                        "passages, speakers): cluster-robust standard errors."):
    return typer.Option(None, "--cluster", metavar="COLUMN", help=help)


def seed(help: str = "Seed of the random numbers (the output is reproducible)."):
    return typer.Option(0, "--seed", help=help)


def encoding(help: str = "Encoding of a text file that is not UTF-8, e.g. cp1252 "
                         "(spreadsheet exports)."):
    return typer.Option(None, "--encoding", help=help)


def plot(help: str = "Write the figure here (.png, .svg or .pdf)."):
    return typer.Option(None, "--plot", metavar="FILE", help=help)


def y_true(help: str = "Per-example predictions: the column of the true labels."):
    return typer.Option("y_true", "--y-true", help=help)


def rope(help: str = "Half-width of the region of practical equivalence, in metric units "
                     "(Bayesian tests)."):
    return typer.Option(None, "--rope", help=help)


def loss(help: str = "Q1 loss: zero-one, log, squared, absolute, or given (the model columns "
                     "already hold per-example losses)."):
    return typer.Option("zero-one", "--loss", help=help)


def threshold(help: str = "Posterior probability needed for a Bayesian decision, above 0.5 "
                          "(Williams 2026 §5.2)."):
    return typer.Option(0.95, "--threshold", help=help)


def margin(help: str = "The loss tolerated, in the metric's units (0.02 = two points of "
                       "accuracy), a positive number: non-inferiority within it."):
    return typer.Option(None, "--margin", help=help)


LOG_FORMAT_HELP = ("Format of the logs: auto, lm-eval, inspect, helm, hf-details or csv (auto: "
                   "each file by its name and content).")


def log_format(help: str = LOG_FORMAT_HELP):
    """``--log-format``; None (not given) reads as auto."""
    return typer.Option(None, "--log-format", help=help)


def intersect(help: str = "Compare on the items and tasks all models share instead of "
                          "refusing when some are missing."):
    return typer.Option(False, "--intersect", help=help)


def task(help: str):
    """``--task``: only this task (a command that takes several declares a list)."""
    return typer.Option(None, "--task", help=help)


def n_resamples(help: str = "Bootstrap resamples.", default: int = 1000):
    """``--n-resamples``; another ``default`` only where tests/cli/test_shared_options.py's
    EXCEPTIONS says why."""
    return typer.Option(default, "--n-resamples", help=help)


def top(help: str, default: int | None = None):
    """``--top N``: print the N first rows of a ranking (0: all; None: the command's rule).
    Another ``default`` only where tests/cli/test_shared_options.py's EXCEPTIONS says why."""
    return typer.Option(default, "--top", help=help)


def power(help: str = "Target power; 0.8 when solving for n or the effect.",
          default: float | None = None):
    """``--power``; another ``default`` only where tests/cli/test_shared_options.py's
    EXCEPTIONS says why."""
    return typer.Option(default, "--power", help=help)


def rho(help: str = "Correlation of the fold differences of the corrected t-test."):
    return typer.Option(None, "--rho", help=help)


def discordance(help: str = "Share of test examples on which exactly one model is right.",
                required: bool = False):
    return typer.Option(... if required else None, "--discordance", help=help)


def n_jobs(help: str = "Parallel workers (joblib; -1: all cores)."):
    return typer.Option(1, "--n-jobs", help=help)


# "\\[": rich markup would take "[dask]" for a style.
def scheduler(help: str = "Run on the Dask cluster of this scheduler (tcp://HOST:PORT, as `dask "
                          "scheduler` prints it). Needs outperform\\[dask] here and the same "
                          "outperform on the workers; the results are those of a local run."):
    return typer.Option(None, "--scheduler", metavar="<address>", help=help)


def results_source(text: str):
    """A command's results argument: an ``mlflow://`` URI as it was typed (a path would
    fold its ``//``), anything else a path."""
    from pathlib import Path

    from ..data._mlflow_uri import is_mlflow_uri

    return text if is_mlflow_uri(text) else Path(text)


def old(name: str, new: str, default=None, **kwargs):
    """A hidden option of an old spelling (``name``) that :func:`deprecated` reports."""
    return typer.Option(default, name, hidden=True, help=f"Deprecated: use {new}.", **kwargs)


def deprecated(old_name: str, new: str) -> None:
    """Print the one-line warning of an old option spelling, naming the new one."""
    err.print(f"[yellow]warning:[/yellow] {escape(old_name)} is deprecated; use "
              f"{escape(new)}.", soft_wrap=True, highlight=False)


def merge(new_name: str, new_value, old_name: str, old_value, *, unset=None):
    """The value of an option given in its new or (deprecated) old spelling.

    Raises
    ------
    InvalidInputError
        Both spellings given with different values.
    """
    if old_value is None or old_value is False:
        return new_value
    deprecated(old_name, new_name)
    if new_value != unset and new_value != old_value:
        raise InvalidInputError(f"{new_name} {new_value!r} and {old_name} {old_value!r} "
                                f"disagree; give {new_name} only.")
    return old_value


def json_format(json_out: bool, fmt):
    """The output format given the old ``--json`` flag (deprecated: ``--format json``).

    Raises
    ------
    InvalidInputError
        ``--json`` with a ``--format`` other than text or json.
    """
    if not json_out:
        return fmt
    deprecated("--json", "--format json")
    if Format(fmt) not in (Format.text, Format.json):
        raise InvalidInputError(f"--json and --format {Format(fmt).value} disagree; give "
                                "--format only.")
    return Format.json


def direction(lower: bool, higher: bool) -> bool | None:
    """``higher_is_better`` from the two direction flags; None leaves it to the metric's name.

    Raises
    ------
    typer.BadParameter
        Both flags given: a usage error (exit code 2).
    """
    if lower and higher:
        raise typer.BadParameter("it contradicts --lower-is-better: give the one flag that "
                                 "describes the metric.", param_hint="'--higher-is-better'")
    return False if lower else True if higher else None


