"""The ``outperform`` command line.

Exit codes (the table :data:`._errors.EXIT_CODES`): 0 success (gate: pass); 10 gate:
regression; 11 gate: inconclusive; 1 bad input, a file that cannot be read or written, or a
missing optional dependency (one line says what was wrong and what to do, e.g.
``pip install 'outperform[bayes]'``); 2 usage error; 3 internal error (one line, the
traceback in a file of the temporary folder; ``outperform --debug COMMAND ...`` prints it);
130 interrupted (Ctrl-C). The exceptions are turned into messages once, for every command,
by :class:`._errors.Group`.

One module per command (``_compare.py`` is ``outperform compare``, ...), registered in
:data:`._app.COMMANDS` and imported only when that command runs; the options they
share are declared once in :mod:`._options`; writing outputs is :mod:`._output`. The
commands parse options and print: the analyses are in :mod:`outperform.compare`, the
rendering of every result in :mod:`outperform.report`.
"""
from ._app import app

__all__ = ["app"]
