"""Data layer: the tidy schema, reading results, and published data shipped with the package."""
from .io import read_results, read_table
from .published import (load_demsar_table2, load_demsar_table6, load_demsar_table6_ranks,
                        load_williams_table1)
from .results_table import ResultsTable, ScoreMatrix
from .schema import metric_direction

__all__ = [
    "ResultsTable", "ScoreMatrix", "load_demsar_table2", "load_demsar_table6",
    "load_demsar_table6_ranks", "load_williams_table1", "metric_direction", "read_results", "read_table",
]
