"""Posterior computations: closed forms, Dirichlet-process sampling, hierarchical models.

Every function returns a :class:`outperform.results.BayesianResult` (or a
:class:`~outperform.results.PairwiseResult` of posterior probabilities) with the region
probabilities of a ROPE and the decision of Williams (2026) §5.2. MCMC backends (NumPyro) are
imported only by the functions that need them.
"""
from ._correlated_ttest import (NormalGammaPrior, correlated_bayesian_ttest,
                                correlated_bayesian_ttests)
from ._cycles import find_cycles
from ._bayesian_sign import bayesian_sign_test
from ._dirichlet_pairwise import pairwise_bayesian_sign_test, pairwise_bayesian_signed_rank_test
from ._dirichlet_process import bayesian_signed_rank_test, signed_rank_probabilities
from ._beta_binomial import beta_binomial_hyperposterior
from ._hierarchical_mcnemar import hierarchical_mcnemar
from ._hierarchical_ttest import HierarchicalPrior, hierarchical_correlated_ttest
from ._mcnemar import (bayesian_mcnemar, default_phi_rope, pairwise_bayesian_mcnemar,
                       phi_posterior_regions)
from ._robust_ttest import robust_bayesian_ttest
from ._poisson_binomial_test import (pairwise_poisson_binomial_test,
                                    poisson_binomial_test)
from ._poisson_test import pairwise_poisson_test, poisson_test
from ._mcmc import compilation_cache_folder
from ._plackett_luce import plackett_luce
from ._rope import decide
from ._ttest import bayesian_ttest

from ._beta_binomial_grid import BetaBinomialHyperposterior
from ._hierarchical_ttest import HierarchicalPosterior
from ._beta_mixture import BetaMixture, beta_regions, beta_tail
from ._poisson_binomial_test import context_posterior, task_probability_a_better

__all__ = [
    "bayesian_mcnemar",
    "bayesian_sign_test",
    "bayesian_signed_rank_test",
    "bayesian_ttest",
    "beta_binomial_hyperposterior",
    "beta_regions",
    "beta_tail",
    "BetaBinomialHyperposterior",
    "BetaMixture",
    "compilation_cache_folder",
    "context_posterior",
    "correlated_bayesian_ttest",
    "correlated_bayesian_ttests",
    "decide",
    "default_phi_rope",
    "find_cycles",
    "hierarchical_correlated_ttest",
    "hierarchical_mcnemar",
    "HierarchicalPosterior",
    "HierarchicalPrior",
    "NormalGammaPrior",
    "pairwise_bayesian_mcnemar",
    "pairwise_bayesian_sign_test",
    "pairwise_bayesian_signed_rank_test",
    "pairwise_poisson_binomial_test",
    "pairwise_poisson_test",
    "phi_posterior_regions",
    "plackett_luce",
    "poisson_binomial_test",
    "poisson_test",
    "robust_bayesian_ttest",
    "signed_rank_probabilities",
    "task_probability_a_better",
]
