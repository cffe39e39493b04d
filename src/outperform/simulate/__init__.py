"""Simulation studies: synthetic contexts, AUC, calibration, power and replicability of tests.

* :mod:`.contexts` - Lacoste et al. (2012) §6 synthetic contexts and simulated experiments.
* :mod:`.auc` - AUC of the sign, Wilcoxon and Poisson-binomial tests (Lacoste §6.3), and
  of any test giving a direction and a confidence; their batched confidences
  (:mod:`.confidence`) and the ROC scoring of answers (:mod:`.roc`).
* :mod:`.corani` - Corani & Benavoli (2015) §4: Poisson test vs signed-rank test on
  simulated cross-validation (:mod:`.cv_counts`).
* :mod:`.replicability` - Demšar (2006) §4: R(e), R(p) and biased selection of data sets.
* :mod:`.study` - generic calibration and power studies (joblib / Dask).
* :mod:`.rank_coverage` - coverage of rank confidence sets (Mogstad et al. 2024) on
  simulated benchmarks with known true means.
* :mod:`.null_decisions` - false decisions of the Bayesian signed-rank test under no
  difference, by number of data sets.
* :mod:`.figures` - each paper's study by name, quick or at the paper's size.
"""
from ._auc import auc_of_test, direction_and_confidence, lacoste_auc
from ._confidence import (LACOSTE_TESTS, poisson_binomial_confidence, sign_confidence,
                          wilcoxon_confidence)
from ._roc import answer_auc, roc_auc, roc_curve
from ._contexts import (LACOSTE_TABLE5, CustomContext, DirichletContext, Experiments,
                       SyntheticContext, bimodal_context, multiple_dirichlet_context,
                       sample_experiments, single_dirichlet_context)
from ._corani import corani_power, poisson_test_batch, signed_rank_batch
from ._cv_counts import DATA_SET_SIZES, CVSimulation, simulate_cv
from ._figures import (FIGURES, corani_fig2a, corani_fig2b, demsar_replicability,
                      lacoste_bimodal, lacoste_fig3, lacoste_fig4, lacoste_fig5, plot_figure,
                      run_figure)
from ._replicability import (demsar_study, replicability_e, replicability_p, select_data_sets,
                            selection_probabilities)
from ._null_decisions import signed_rank_null_decisions
from ._rank_coverage import RANK_COVERAGE_MEANS, rank_set_coverage
from ._study import calibration, power

from ._contexts import BIMODAL_DIRICHLETS, BIMODAL_WEIGHTS, SINGLE_DIRICHLET
from ._figures import SIZES
from ._replicability import MULTI_CLASSIFIER_TESTS, TWO_CLASSIFIER_TESTS
from ._study import seed_sequence, rejection_outcome

__all__ = [
    "BIMODAL_DIRICHLETS", "BIMODAL_WEIGHTS", "SINGLE_DIRICHLET", "SIZES", "MULTI_CLASSIFIER_TESTS", "TWO_CLASSIFIER_TESTS", "seed_sequence", "rejection_outcome",
    "CVSimulation", "CustomContext", "DATA_SET_SIZES", "DirichletContext", "Experiments",
    "FIGURES", "LACOSTE_TABLE5", "LACOSTE_TESTS", "SyntheticContext", "answer_auc",
    "auc_of_test", "bimodal_context", "calibration", "corani_fig2a", "corani_fig2b",
    "corani_power", "demsar_replicability", "demsar_study", "direction_and_confidence",
    "lacoste_auc", "lacoste_bimodal", "lacoste_fig3", "lacoste_fig4", "lacoste_fig5",
    "multiple_dirichlet_context", "plot_figure", "poisson_binomial_confidence",
    "poisson_test_batch", "power", "replicability_e", "replicability_p", "roc_auc",
    "roc_curve", "run_figure", "sample_experiments", "select_data_sets",
    "selection_probabilities", "sign_confidence", "signed_rank_batch",
    "signed_rank_null_decisions", "simulate_cv",
    "single_dirichlet_context", "wilcoxon_confidence",
    "RANK_COVERAGE_MEANS", "rank_set_coverage",
]
