"""The tidy schema of DESIGN.md: column names, their aliases, and metric directions.

Long table, one row per measurement: ``task``, ``model``, optional ``run``, ``fold``,
``example``, one or more metric columns (default name ``score``), optional ``n_train``,
``n_test``, and optional ``cluster`` (the group of an item: passage, conversation; never a
metric). What each column of a user's table is, and the metric's direction and units, is
decided in one place, :mod:`outperform.data._columns`; the names are re-exported here.
"""
from __future__ import annotations

from ._columns import (ALIASES, CLUSTER, EXAMPLE, FOLD, KEYS, MODEL, N_TEST,  # noqa: F401
                       N_TRAIN, NON_METRIC, RUN, SIZES, TASK, metric_direction)
