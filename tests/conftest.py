"""Shared fixtures: the reference data in ../shared/data (skipped when absent)."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

# JAX's persistent compilation cache is on by default in the user's cache folder; the suite
# (and the processes it starts, which inherit the environment) writes into a temporary one.
if "OUTPERFORM_JAX_CACHE" not in os.environ:
    os.environ["OUTPERFORM_JAX_CACHE"] = tempfile.mkdtemp(prefix="outperform-test-jax-")
    atexit.register(shutil.rmtree, os.environ["OUTPERFORM_JAX_CACHE"], ignore_errors=True)

SHARED = Path(os.environ.get("OUTPERFORM_SHARED", Path(__file__).resolve().parents[2] / "shared"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Folder ``../shared/data``; the test is skipped with a message when it is absent."""
    folder = SHARED / "data"
    if not folder.is_dir():
        pytest.skip(f"reference data folder {folder} is absent (set OUTPERFORM_SHARED to it)")
    return folder


#: Doctests of the package that take more than ~2 s (an MCMC sampler compiled, a posterior
#: sampled): in the slow set, like the tests marked ``@pytest.mark.slow``, so that
#: ``pytest -m "not slow"`` is the fast loop. A doctest cannot carry a mark itself.
SLOW_DOCTESTS = {
    "outperform.bayes._hierarchical_mcnemar.hierarchical_mcnemar",
    "outperform.bayes._hierarchical_ttest.hierarchical_correlated_ttest",
    "outperform.bayes._plackett_luce.plackett_luce",
    "outperform.compare._hierarchical.compare_counts",
    "outperform.plot._hierarchical.plot_ab_posterior",
    "outperform.plot._hierarchical.plot_hierarchical_posterior",
    "outperform.plot._hierarchical.plot_phi_next",
    "outperform.plot._hierarchical.plot_shrinkage",
}


#: Tests measured at 0.45 s or more in the fast loop (load 2-3, session 7): they run in the
#: whole suite and in CI, not in `pytest -m "not slow"` (which must stay under two minutes).
SLOW_TESTS = {
    "tests/architecture/test_docs.py::test_tables_page_code_prints_what_the_page_says",
    "tests/architecture/test_public_api.py::test_import_as_gives_the_package[outperform.cli]",
    "tests/architecture/test_public_api.py::test_import_as_gives_the_package[outperform.report]",
    "tests/architecture/test_public_api_ergonomics.py::test_every_warning_the_package_emits_has_a_package_class",
    "tests/bayes/test_bayes_correlated_ttest.py::test_rho_zero_is_the_ordinary_bayesian_ttest_and_scipy",
    "tests/bayes/test_beta_mixture.py::test_quantiles_invert_the_cdf",
    "tests/bayes/test_dirichlet_process.py::test_signed_rank_agrees_with_installed_baycomp_on_rope_zero",
    "tests/bayes/test_hierarchical_mcnemar.py::test_deterministic_and_seeded",
    "tests/bayes/test_hierarchical_mcnemar.py::test_more_data_per_task_moves_probability_out_of_the_rope",
    "tests/bayes/test_hierarchical_mcnemar.py::test_rat_tumours_against_a_brute_force_grid",
    "tests/cli/test_aggregate.py::test_report_of_a_runs_table_has_the_runs_section",
    "tests/cli/test_cli.py::test_report_writes_all_formats",
    "tests/cli/test_gate_sequential_cli.py::test_exit_codes_follow_the_verdict[same-0-PASS]",
    "tests/cli/test_long_work.py::test_scikit_learn_is_a_core_dependency_loaded_only_when_used",
    "tests/cli/test_odd_inputs_edges.py::test_variance_boundary_note_names_the_component",
    "tests/cli/test_odd_inputs_gate.py::test_odd_input[base.csv",
    "tests/cli/test_plan_command.py::test_plot_writes_power_curves[args0]",
    "tests/cli/test_shared_options.py::test_json_validates_against_the_shipped_schema[simulate]",
    "tests/cli/test_shared_options.py::test_markdown_is_written[simulate]",
    "tests/compare/test_api_edges.py::test_boundary_note_only_where_an_estimate_is_zero",
    "tests/compare/test_compare_evals.py::test_q3_over_tasks_runs_with_enough_tasks",
    "tests/compare/test_gate_decisions.py::test_holm_across_tasks_and_the_verdict",
    "tests/compare/test_gate_sequential.py::test_a_clear_regression_stops_early",
    "tests/compare/test_leaderboard_verdicts.py::test_eval_comparisons_never_claim_and_deny_a_pair",
    "tests/compare/test_q3_anova.py::test_control_gets_holm_over_its_pairs_only",
    "tests/compare/test_q3_anova.py::test_paired_posthoc_equals_scipy_with_holm",
    "tests/compare/test_registry.py::test_every_emitted_procedure_is_registered_with_assumptions",
    "tests/compare/test_sequential.py::test_non_inferiority_at_the_margin_is_declared_in_at_most_alpha_of_streams",
    "tests/compare/test_words.py::test_counts_claims_agree_with_the_unshared_errors[n010-n100]",
    "tests/compare/test_words.py::test_counts_claims_agree_with_the_unshared_errors[n011-n101]",
    "tests/data/test_columns.py::test_cross_validate_neg_log_loss_ranks_the_lowest_log_loss_first",
    "tests/data/test_columns.py::test_long_and_wide_give_the_same_ranks_and_iman_davenport",
    "tests/data/test_files.py::test_ten_thousand_models_are_refused_before_allocating_the_pair_tables",
    "tests/plot/test_cd_diagram.py::test_save_figure_rejects_unknown_suffix",
    "tests/plot/test_style.py::test_figure_has_the_requested_width_and_fonts_in_range[plot_run_aggregates-column-3.3]",
    "tests/plot/test_style.py::test_figure_has_the_requested_width_and_fonts_in_range[plot_shrinkage-column-3.3]",
    "tests/report/test_report_files.py::test_figures_without_latex_are_still_written",
    "tests/simulate/test_figures.py::test_corani_and_demsar_figures_run_at_small_sizes",
    "tests/simulate/test_figures.py::test_power_curves_share_colours_per_test_and_styles_per_runs",
    "tests/stats/test_multipletests.py::test_holm_rows_equals_holm_row_by_row",
    "tests/stats/test_rank_sets.py::test_huge_samples_give_the_true_ranks",
    "tests/stats/test_rank_sets.py::test_pairwise_ttest_without_clusters_is_scipy_ttest_rel_with_holm",
    "tests/stats/test_rank_sets_dask.py::test_dask_results_are_reproducible_and_follow_the_direction",
    "tests/stats/test_replicability_counts.py::test_holm_equals_statsmodels",
    "tests/stats/test_stats_leaderboard.py::test_pairwise_mcnemar_matches_single_tests_and_holm",
    "tests/stats/test_wilcoxon.py::test_exact_size_at_most_alpha",
    "tests/test_display.py::test_the_renderer_is_loaded_on_the_first_display_only",
    "src/outperform/simulate/_figures.py::outperform.simulate._figures.plot_figure",
    "tests/cli/test_aggregate.py::test_aggregate_with_learning_curves_prints_and_draws_sample_efficiency",
    "tests/cli/test_errors.py::test_missing_sklearn_is_a_broken_install_not_a_missing_extra",
    "tests/cli/test_gate_sequential_cli.py::test_exit_codes_follow_the_verdict[worse-10-REGRESSION]",
    "tests/cli/test_plan_command.py::test_plot_writes_power_curves[args4]",
    "tests/compare/test_registry.py::test_report_states_assumptions_of_every_test_it_shows[incomplete",
    "tests/compare/test_registry.py::test_report_states_assumptions_of_every_test_it_shows[posthoc=auto]",
    "tests/plot/test_comparison_matrix.py::test_lower_is_better_sorts_the_smallest_first",
    "tests/plot/test_style.py::test_colours_come_from_the_palette_or_greys[plot_rank_sets]",
    "tests/plot/test_style.py::test_figure_has_the_requested_width_and_fonts_in_range[plot_shrinkage-page-7.0]",
    "tests/report/test_report_files.py::test_several_diagrams_get_one_file_each",
    "tests/simulate/test_rank_coverage.py::test_simultaneous_sets_cover_and_percentile_intervals_do_not",
    "tests/stats/test_cliques.py::test_matches_brute_force_enumeration",
    "tests/stats/test_rank_sets.py::test_equal_means_give_overlapping_sets",
    "tests/stats/test_wilcoxon.py::test_exact_with_ties_matches_scipy_permutation",
    "tests/stats/test_wilcoxon.py::test_invariances",
    "tests/test_atomic.py::test_write_report_when_the_disk_fills_at_the_figures",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS
                or item.nodeid in SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
