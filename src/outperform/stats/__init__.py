"""Statistical kernels: pure numpy/scipy, one module per family of tests.

Every function takes arrays (data first, options keyword-only) and returns a result object of
:mod:`outperform.results`. A positive difference favours model A.
"""
from .._lazy import lazy_exports

#: public name -> private module that defines it; imported on first use (PEP 562), so that
#: importing the package (and ``outperform --help``) does not load every kernel's
#: dependencies (scipy.stats, pandas) before a command needs them.
_WHERE = {
    "friedman_aligned_ranks": "._aligned_ranks",
    "cohen_kappa": "._agreement",
    "fleiss_kappa": "._agreement",
    "gwet_ac1": "._agreement",
    "krippendorff_alpha": "._agreement",
    "ppi_mean_estimates": "._ppi",
    "rogan_gladen_estimates": "._rogan_gladen",
    "repeated_measures_anova": "._anova",
    "groups_from_critical_difference": "._cliques",
    "nonsignificant_groups": "._cliques",
    "corrected_resampled_ttest": "._correlated_ttest",
    "corrected_resampled_ttests": "._correlated_ttest",
    "correlation_heuristic": "._correlated_ttest",
    "naive_kfold_ttest": "._correlated_ttest",
    "paired_bootstrap": "._bootstrap",
    "clustered_mean": "._clustered",
    "bonferroni_dunn_q": "._critical_values",
    "critical_difference": "._critical_values",
    "nemenyi_q": "._critical_values",
    "auc_covariance": "._delong",
    "delong_test": "._delong",
    "cohens_d": "._effect_size",
    "cohens_g": "._effect_size",
    "effect_size_label": "._effect_size",
    "rank_biserial": "._effect_size",
    "alpaydin_5x2cv_ftest": "._five_by_two",
    "dietterich_5x2cv_ttest": "._five_by_two",
    "friedman": "._friedman",
    "iman_davenport": "._friedman",
    "friedman_permutation": "._friedman_exact",
    "durbin": "._incomplete",
    "durbin_posthoc": "._incomplete",
    "pairwise_wilcoxon_available": "._incomplete",
    "skillings_mack": "._incomplete",
    "BERGMANN_MAX_K": "._logical",
    "bergmann_hommel_adjust": "._logical",
    "li_adjust": "._logical",
    "rom_adjust": "._logical",
    "shaffer_adjust": "._logical",
    "shaffer_multipliers": "._logical",
    "against_control": "._leaderboard",
    "pairwise_discordance": "._leaderboard",
    "pairwise_mcnemar": "._leaderboard",
    "cochrans_q": "._mcnemar",
    "discordance_counts": "._mcnemar",
    "mcnemar": "._mcnemar",
    "mcnemar_table": "._mcnemar",
    "noninferiority_test": "._noninferiority",
    "tango_score_test": "._noninferiority",
    "adjust_pvalues": "._multipletests",
    "PoissonBinomial": "._poisson_binomial",
    "poisson_binomial_pmf": "._poisson_binomial",
    "poisson_multinomial_pmf": "._poisson_binomial",
    "bonferroni_dunn": "._posthoc",
    "nemenyi": "._posthoc",
    "pairwise_wilcoxon": "._posthoc",
    "rank_posthoc": "._posthoc",
    "paired_difference": "._paired_difference",
    "proportion_confint": "._proportion",
    "compact_letters": "._letters",
    "quade": "._quade",
    "quade_posthoc": "._quade",
    "rank_sets": "._rank_sets",
    "pairwise_ttest": "._pairwise_ttest",
    "average_ranks": "._ranks",
    "rank_scores": "._ranks",
    "aggregate_runs": "._runs",
    "performance_profile": "._runs",
    "probability_of_improvement": "._runs",
    "beta_risk_bound": "._risk_bounds",
    "langford_test_set_bound": "._risk_bounds",
    "sign_test": "._sign",
    "tost": "._tost",
    "paired_ttest": "._ttest",
    "wilcoxon": "._wilcoxon",
    "PairwiseCounts": "._leaderboard",
    "DiscordanceCounts": "._mcnemar",
    "bradley_terry": "._bradley_terry",
    "BettingConfidenceSequence": "._confseq",
    "betting_confidence_sequence": "._confseq",
    "betting_crossing_times": "._confseq",
}


def _deprecated(name: str):
    # against_reference, the old name of against_control, kept for one release (CHANGELOG.md).
    if name == "against_reference":
        import warnings

        from .._validation import OutperformDeprecationWarning

        warnings.warn("outperform.stats.against_reference is deprecated; use "
                      "outperform.stats.against_control (removed in the next release).",
                      OutperformDeprecationWarning, stacklevel=2)
        return __getattr__("against_control")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals(), _deprecated)


__all__ = [
    "PairwiseCounts", "DiscordanceCounts", "cohen_kappa", "fleiss_kappa", "gwet_ac1",
    "krippendorff_alpha", "ppi_mean_estimates", "rogan_gladen_estimates",
    "PoissonBinomial", "against_control", "auc_covariance", "pairwise_mcnemar",
    "beta_risk_bound", "cochrans_q", "delong_test", "discordance_counts",
    "langford_test_set_bound", "mcnemar", "mcnemar_table", "paired_bootstrap",
    "pairwise_discordance", "poisson_binomial_pmf", "poisson_multinomial_pmf",
    "adjust_pvalues", "alpaydin_5x2cv_ftest", "average_ranks", "bonferroni_dunn",
    "bonferroni_dunn_q", "cohens_d", "cohens_g", "corrected_resampled_ttest",
    "corrected_resampled_ttests",
    "correlation_heuristic", "critical_difference", "dietterich_5x2cv_ttest", "effect_size_label",
    "friedman", "friedman_aligned_ranks", "friedman_permutation", "groups_from_critical_difference", "iman_davenport",
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
    "BettingConfidenceSequence", "betting_confidence_sequence", "betting_crossing_times",
]
