"""Data layer: the tidy schema, reading results, and published data shipped with the package."""
from ._evals._pairing import PairedTask, pair_items
from ._evals._read import read_eval_logs
from ._evals._schema import EvalLogs, EvalRun
from ._battles import read_battles
from ._io import read_results, read_table
from ._published import (load_demsar_table2, load_demsar_table6, load_demsar_table6_ranks,
                        load_williams_table1)
from ._results_table import ResultsTable, ScoreMatrix
from ._schema import metric_direction
from ._uci54 import load_uci54, load_uci54_arrays

__all__ = [
    "ResultsTable", "ScoreMatrix", "load_demsar_table2", "load_demsar_table6",
    "load_demsar_table6_ranks", "load_uci54", "load_uci54_arrays", "load_williams_table1", "metric_direction", "read_results", "read_table",
    "EvalLogs", "EvalRun", "PairedTask", "pair_items", "read_eval_logs",
    "read_battles",
]
