"""Data layer: the tidy schema, reading results, and published data shipped with the package."""
from .._lazy import lazy_exports

#: public name -> private module that defines it; imported on first use (PEP 562), so that
#: importing the package (and ``outperform --help``) does not load every kernel's
#: dependencies (scipy.stats, pandas) before a command needs them.
_WHERE = {
    "PairedTask": "._evals._pairing",
    "pair_items": "._evals._pairing",
    "read_eval_logs": "._evals._read",
    "EvalLogs": "._evals._schema",
    "EvalRun": "._evals._schema",
    "read_results": "._io",
    "read_table": "._io",
    "load_demsar_table2": "._published",
    "load_demsar_table6": "._published",
    "load_demsar_table6_ranks": "._published",
    "load_williams_table1": "._published",
    "ResultsTable": "._results_table",
    "ScoreMatrix": "._results_table",
    "column_role": "._columns",
    "find_column": "._columns",
    "metric_direction": "._columns",
    "metric_units": "._columns",
    "load_uci54": "._uci54",
    "load_uci54_arrays": "._uci54",
    "read_battles": "._battles",
    "read_style_battles": "._style_battles",
    "read_sklearn": "._sklearn",
    "read_array": "._arrays",
    "read_mlflow": "._mlflow",
    "read_tensorboard": "._tensorboard",
    "battle_counts": "._battles",
}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())

__all__ = [
    "ResultsTable", "ScoreMatrix", "load_demsar_table2", "load_demsar_table6",
    "load_demsar_table6_ranks", "load_uci54", "load_uci54_arrays", "load_williams_table1", "metric_direction", "read_results", "read_table",
    "EvalLogs", "EvalRun", "PairedTask", "pair_items", "read_eval_logs",
    "read_battles", "battle_counts", "read_style_battles", "column_role", "find_column",
    "metric_units", "read_sklearn", "read_array", "read_mlflow", "read_tensorboard",
]
