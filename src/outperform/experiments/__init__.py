"""Experiment runner: paired resampling designs with scikit-learn (identical splits for all models).

Needs the ``ml`` extra (scikit-learn, joblib).
"""
from ._datasets import SKLEARN_DATASETS, load_datasets
from ._designs import FiveByTwoDesign, RepeatedHoldoutDesign, RepeatedKFoldDesign, parse_design
from ._models import MODELS, get_models
from ._runner import predictions_path, run_experiment

__all__ = [
    "FiveByTwoDesign", "MODELS", "RepeatedHoldoutDesign", "RepeatedKFoldDesign",
    "SKLEARN_DATASETS", "get_models", "load_datasets", "parse_design", "predictions_path",
    "run_experiment",
]
