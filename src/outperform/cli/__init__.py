"""The ``outperform`` command line.

Exit codes (the table :data:`._errors.EXIT_CODES`): 0 success (gate: pass); 10 gate:
regression; 11 gate: inconclusive; 1 bad input, a file that cannot be read or written, or a
missing optional dependency (one line says what was wrong and what to do, e.g.
``pip install 'outperform[bayes]'``); 2 usage error; 3 internal error (one line, the
traceback in a file of the temporary folder; ``outperform --debug COMMAND ...`` prints it);
130 interrupted (Ctrl-C). The exceptions are turned into messages once, for every command,
by :class:`._errors.Group`.

One module per command (``_compare.py`` is ``outperform compare``, ...); the options they
share are declared once in :mod:`._options`; writing outputs is :mod:`._output`. The
commands parse options and print: the analyses are in :mod:`outperform.compare`, the
rendering of every result in :mod:`outperform.report`.
"""
from ._aggregate import aggregate_cmd
from ._app import app
from ._benchmark import benchmark
from ._compare import compare_cmd
from ._compare_evals import compare_evals_cmd
from ._compare_predictions import compare_predictions_cmd
from ._demo import demo
from ._gate import EXIT_HELP, gate_cmd
from ._items import items_cmd
from ._leaderboard import leaderboard_cmd
from ._plan import plan_app
from ._report import report
from ._simulate import simulate
from ._table import table_cmd

app.command("compare")(compare_cmd)
app.command("compare-predictions")(compare_predictions_cmd)
app.command("benchmark")(benchmark)
app.command("report")(report)
app.command("simulate")(simulate)
app.command("demo")(demo)
app.command("aggregate", short_help="Runs x tasks (deep learning, RL): IQM and other "
            "aggregates with bootstrap intervals, probability of improvement, almost "
            "stochastic order.")(aggregate_cmd)
app.command("compare-evals")(compare_evals_cmd)
app.command("leaderboard", short_help="Rank many models: rank confidence sets, tiers, "
            "letters, could-be-best sets; Bradley–Terry ratings of battles.")(leaderboard_cmd)
app.command("table", short_help="The per-data-set results table of a paper (LaTeX, "
            "Markdown, HTML): mean ± sd, best in bold, marks, ranks.")(table_cmd)
app.command("gate", epilog=EXIT_HELP)(gate_cmd)
app.command("items", short_help="Item diagnostics of a benchmark: difficulty, "
            "discrimination, signal-to-noise, Rasch/2PL abilities.")(items_cmd)
app.add_typer(plan_app, name="plan")

__all__ = ["app"]
