"""Experiment runner: paired resampling designs with scikit-learn (identical splits for all models).

Built on scikit-learn and joblib, which are core dependencies; the package is imported
only when used, so ``import outperform`` does not load scikit-learn.
"""
from ._datasets import SKLEARN_DATASETS, load_datasets
from ._designs import FiveByTwoDesign, RepeatedHoldoutDesign, RepeatedKFoldDesign, parse_design
from ._models import MODELS, get_models
from ._options import check_run_options
from ._runner import run_experiment
from ._store import predictions_path

__all__ = [
    "FiveByTwoDesign", "MODELS", "RepeatedHoldoutDesign", "RepeatedKFoldDesign",
    "SKLEARN_DATASETS", "check_run_options", "get_models", "load_datasets", "parse_design", "predictions_path",
    "run_experiment",
]
