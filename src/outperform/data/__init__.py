"""Data layer: the tidy schema, reading results, and published data shipped with the package."""
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
    "metric_direction": "._schema",
    "load_uci54": "._uci54",
    "load_uci54_arrays": "._uci54",
    "read_battles": "._battles",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value   # later lookups skip this hook
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_WHERE))

__all__ = [
    "ResultsTable", "ScoreMatrix", "load_demsar_table2", "load_demsar_table6",
    "load_demsar_table6_ranks", "load_uci54", "load_uci54_arrays", "load_williams_table1", "metric_direction", "read_results", "read_table",
    "EvalLogs", "EvalRun", "PairedTask", "pair_items", "read_eval_logs",
    "read_battles",
]
