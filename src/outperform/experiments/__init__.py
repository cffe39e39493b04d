"""Experiment runner: paired resampling designs with scikit-learn (identical splits for all models).

Built on scikit-learn and joblib, which are core dependencies; the package is imported
only when used, so ``import outperform`` does not load scikit-learn.
"""
from .datasets import SKLEARN_DATASETS, load_datasets
from .designs import FiveByTwoDesign, RepeatedHoldoutDesign, RepeatedKFoldDesign, parse_design
from .models import MODELS, get_models
from ._store import predictions_path
from .runner import run_experiment

__all__ = [
    "FiveByTwoDesign", "MODELS", "RepeatedHoldoutDesign", "RepeatedKFoldDesign",
    "SKLEARN_DATASETS", "get_models", "load_datasets", "parse_design", "predictions_path",
    "run_experiment",
]
