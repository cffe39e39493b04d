"""Data layer: the tidy schema, reading results, and published data shipped with the package."""
from .io import read_results, read_table
from .published import load_demsar_table2, load_demsar_table6, load_demsar_table6_ranks
from .results_table import ResultsTable, ScoreMatrix
from .schema import metric_direction

__all__ = [
    "ResultsTable", "ScoreMatrix", "load_demsar_table2", "load_demsar_table6",
    "load_demsar_table6_ranks", "metric_direction", "read_results", "read_table",
]
