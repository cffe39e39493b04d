"""Statistical kernels: pure numpy/scipy, one module per family of tests.

Every function takes arrays (data first, options keyword-only) and returns a result object of
:mod:`outperform.results`. A positive difference favours model A.
"""
from ._aligned_ranks import friedman_aligned_ranks
from ._anova import repeated_measures_anova
from ._cliques import groups_from_critical_difference, nonsignificant_groups
from ._correlated_ttest import corrected_resampled_ttest, correlation_heuristic, naive_kfold_ttest
from ._bootstrap import paired_bootstrap
from ._bradley_terry import bradley_terry
from ._clustered import clustered_mean
from ._critical_values import bonferroni_dunn_q, critical_difference, nemenyi_q
from ._delong import auc_covariance, delong_test
from ._effect_size import cohens_d, cohens_g, effect_size_label, rank_biserial
from ._five_by_two import alpaydin_5x2cv_ftest, dietterich_5x2cv_ttest
from ._friedman import friedman, iman_davenport
from ._incomplete import (durbin, durbin_posthoc, pairwise_wilcoxon_available,
                          skillings_mack)
from ._logical import (BERGMANN_MAX_K, bergmann_hommel_adjust, li_adjust, rom_adjust,
                       shaffer_adjust, shaffer_multipliers)
from ._leaderboard import (against_control, pairwise_discordance,
                          pairwise_mcnemar)
from ._mcnemar import cochrans_q, discordance_counts, mcnemar, mcnemar_table
from ._noninferiority import noninferiority_test, tango_score_test
from ._multipletests import adjust_pvalues
from ._poisson_binomial import PoissonBinomial, poisson_binomial_pmf, poisson_multinomial_pmf
from ._posthoc import bonferroni_dunn, nemenyi, pairwise_wilcoxon, rank_posthoc
from ._paired_difference import paired_difference
from ._proportion import proportion_confint
from ._letters import compact_letters
from ._quade import quade, quade_posthoc
from ._rank_sets import rank_sets
from ._pairwise_ttest import pairwise_ttest
from ._ranks import average_ranks, rank_scores
from ._runs import aggregate_runs, performance_profile, probability_of_improvement
from ._risk_bounds import beta_risk_bound, langford_test_set_bound
from ._sign import sign_test
from ._tost import tost
from ._ttest import paired_ttest
from ._wilcoxon import wilcoxon

from ._leaderboard import PairwiseCounts
from ._mcnemar import DiscordanceCounts

__all__ = [
    "PairwiseCounts", "DiscordanceCounts",
    "PoissonBinomial", "against_control", "auc_covariance", "pairwise_mcnemar",
    "beta_risk_bound", "cochrans_q", "delong_test", "discordance_counts",
    "langford_test_set_bound", "mcnemar", "mcnemar_table", "paired_bootstrap",
    "pairwise_discordance", "poisson_binomial_pmf", "poisson_multinomial_pmf",
    "adjust_pvalues", "alpaydin_5x2cv_ftest", "average_ranks", "bonferroni_dunn",
    "bonferroni_dunn_q", "cohens_d", "cohens_g", "corrected_resampled_ttest",
    "correlation_heuristic", "critical_difference", "dietterich_5x2cv_ttest", "effect_size_label",
    "friedman", "friedman_aligned_ranks", "groups_from_critical_difference", "iman_davenport",
    "naive_kfold_ttest", "nemenyi", "nemenyi_q", "nonsignificant_groups", "paired_ttest",
    "pairwise_wilcoxon", "quade", "rank_biserial", "rank_posthoc", "rank_scores",
    "repeated_measures_anova", "sign_test", "wilcoxon",
    "aggregate_runs", "performance_profile", "probability_of_improvement",
    "durbin", "durbin_posthoc", "pairwise_wilcoxon_available", "skillings_mack",
    "BERGMANN_MAX_K", "bergmann_hommel_adjust", "li_adjust", "shaffer_adjust",
    "shaffer_multipliers", "quade_posthoc", "compact_letters", "tost",
    "rom_adjust", "clustered_mean",
    "noninferiority_test", "tango_score_test",
    "proportion_confint", "paired_difference",
    "rank_sets", "pairwise_ttest",
    "bradley_terry",
]



def __getattr__(name: str):
    # against_reference, the old name of against_control, kept for one release (CHANGELOG.md).
    if name == "against_reference":
        import warnings

        warnings.warn("outperform.stats.against_reference is deprecated; use "
                      "outperform.stats.against_control (removed in the next release).",
                      DeprecationWarning, stacklevel=2)
        return against_control
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
