"""Posterior computations: closed forms, Dirichlet-process sampling, hierarchical models.

Every function returns a :class:`outperform.results.BayesianResult` (or a
:class:`~outperform.results.PairwiseResult` of posterior probabilities) with the region
probabilities of a ROPE and the decision of Williams (2026) §5.2. MCMC backends (NumPyro) are
imported only by the functions that need them.
"""
from .._lazy import lazy_exports

#: public name -> private module that defines it; imported on first use (PEP 562), so that
#: importing the package (and ``outperform --help``) does not load every kernel's
#: dependencies (scipy.stats, pandas) before a command needs them.
_WHERE = {
    "NormalGammaPrior": "._correlated_ttest",
    "correlated_bayesian_ttest": "._correlated_ttest",
    "correlated_bayesian_ttests": "._correlated_ttest",
    "find_cycles": "._cycles",
    "bayesian_sign_test": "._bayesian_sign",
    "pairwise_bayesian_sign_test": "._dirichlet_pairwise",
    "pairwise_bayesian_signed_rank_test": "._dirichlet_pairwise",
    "bayesian_signed_rank_test": "._dirichlet_process",
    "signed_rank_probabilities": "._dirichlet_process",
    "beta_binomial_hyperposterior": "._beta_binomial",
    "hierarchical_mcnemar": "._hierarchical_mcnemar",
    "HierarchicalPrior": "._hierarchical_ttest",
    "hierarchical_correlated_ttest": "._hierarchical_ttest",
    "bayesian_mcnemar": "._mcnemar",
    "default_phi_rope": "._mcnemar",
    "pairwise_bayesian_mcnemar": "._mcnemar",
    "phi_posterior_regions": "._mcnemar",
    "robust_bayesian_ttest": "._robust_ttest",
    "pairwise_poisson_binomial_test": "._poisson_binomial_test",
    "poisson_binomial_test": "._poisson_binomial_test",
    "pairwise_poisson_test": "._poisson_test",
    "poisson_test": "._poisson_test",
    "compilation_cache_folder": "._mcmc",
    "decide": "._rope",
    "bayesian_ttest": "._ttest",
    "BetaBinomialHyperposterior": "._beta_binomial_grid",
    "HierarchicalPosterior": "._hierarchical_ttest",
    "BetaMixture": "._beta_mixture",
    "beta_regions": "._beta_mixture",
    "beta_tail": "._beta_mixture",
    "context_posterior": "._poisson_binomial_test",
    "task_probability_a_better": "._poisson_binomial_test",
    "plackett_luce": "._plackett_luce",
}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())


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
    "poisson_binomial_test",
    "poisson_test",
    "robust_bayesian_ttest",
    "signed_rank_probabilities",
    "task_probability_a_better",
    "plackett_luce",
]
