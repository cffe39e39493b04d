"""The records of :mod:`._registry`: one :class:`Procedure` per procedure (data only).

To add a procedure: its kernel in ``stats/`` or ``bayes/``, then one record here (key as in
``ComparisonReport.tests``/``posthoc``, assumptions from the source paper); the report's
"assumes" cell, the sentences' labels and, for a post-hoc test, ``posthoc=`` and the help of
``--posthoc`` follow from it. ``tests/compare/test_registry.py`` fails for a key that
``compare`` emits without a record. The post-hoc records are in the order ``posthoc=``
lists them.
"""
from __future__ import annotations

from ._registry import Procedure as P

_RANK_Z = ("independent data sets, ranks within each data set; the z statistics of "
           "average-rank differences (Demšar 2006 §3.2.2), ")

PROCEDURES = (
    # Q3 omnibus tests (Demšar 2006 §3.2; Conover 1999 §5.8–5.9).
    P("iman_davenport", "Iman–Davenport", "the Friedman test with the Iman–Davenport F",
      "independent data sets, ranks within each data set; the F distribution of Iman & "
      "Davenport is less conservative than chi-square (Demšar 2006 §3.2.2).",
      "omnibus", "outperform.stats._friedman:iman_davenport", "Iman & Davenport 1980; Demšar "
      "2006 §3.2.2",
      references=("iman1980", "friedman1937", "demsar2006")),
    P("friedman", "Friedman", "the Friedman test",
      "independent data sets, ranks within each data set; chi-square approximation for "
      "N > 10 and k > 5 (Demšar 2006 §3.2.2).",
      "omnibus", "outperform.stats._friedman:friedman", "Friedman 1937; Demšar 2006 §3.2.2",
      references=("friedman1937", "friedman1940", "demsar2006")),
    P("friedman_tie_corrected", "Friedman (tie-corrected)",
      "the Friedman test with the tie correction",
      "as the Friedman test, with the variance corrected for tied ranks.",
      "omnibus", "outperform.stats._friedman:friedman", "Conover 1999 §5.8",
      references=("friedman1937", "conover1999")),
    P("skillings_mack", "Skillings–Mack", "the Skillings–Mack test",
      "independent data sets, scores ranked within each data set among the models present "
      "on it; missing cells in any pattern, not caused by the scores; chi-square "
      "approximation of the statistic (Skillings & Mack 1981).",
      "omnibus", "outperform.stats._incomplete:skillings_mack", "Skillings & Mack 1981",
      missing_cells=True,
      references=("skillings1981",)),
    P("quade_test", "Quade", "Quade's test",
      "independent data sets, ranks within each data set, and data sets that can be ranked "
      "by the range of their scores, i.e. ranges comparable across data sets (Quade 1979; "
      "Conover 1999 §5.8).",
      "omnibus", "outperform.stats._quade:quade", "Quade 1979; Conover 1999 §5.8",
      reported_in=(),
      references=("quade1979", "conover1999")),
    P("friedman_aligned_ranks", "Friedman aligned ranks", "the Friedman aligned-ranks test",
      "independent data sets; scores aligned by subtracting each data set's mean, so "
      "differences must be comparable across data sets (Hodges & Lehmann 1962; García et al. "
      "2010 §2.2).",
      "omnibus", "outperform.stats._aligned_ranks:friedman_aligned_ranks",
      "Hodges & Lehmann 1962; García et al. 2010 §2.2", reported_in=(),
      references=("hodges1962", "garcia2010")),
    P("repeated_measures_anova", "repeated-measures ANOVA", "the repeated-measures ANOVA",
      "independent data sets; normally distributed scores and sphericity (equal variances of "
      "the differences between every two models), rarely met by classifiers (Demšar 2006 "
      "§3.2.1).",
      "omnibus", "outperform.stats._anova:repeated_measures_anova", "Demšar 2006 §3.2.1",
      references=("demsar2006",)),
    P("friedman_permutation", "Friedman (permutation)",
      "the Friedman test with its permutation p-value",
      "independent data sets, ranks within each data set; the p-value from the permutation "
      "distribution of the ranks (exact, or Monte Carlo), no large-sample approximation "
      "(Hollander, Wolfe & Chicken 2014 §7.1).",
      "omnibus", "outperform.stats._friedman_exact:friedman_permutation",
      "Friedman 1937; Hollander, Wolfe & Chicken 2014 §7.1",
      references=("friedman1937", "hollander2014")),
    # Q3 post-hoc procedures, in the order of posthoc=.
    P("nemenyi", "Nemenyi", "the Nemenyi test",
      "all pairs, after a significant Friedman test; two algorithms differ when their "
      "average ranks differ by at least the critical difference (Demšar 2006 §3.2.2).",
      "pairwise", "outperform.stats._posthoc:nemenyi", "Nemenyi 1963; Demšar 2006 §3.2.2",
      posthoc=True, help="all pairs, critical difference of the average ranks",
      reported_in=("posthoc",),
      references=("nemenyi1963", "demsar2006")),
    P("holm", "Holm", "Holm's procedure",
      "each algorithm against the control (all pairs without one), rank z statistics, "
      "Holm's step-down procedure "
      "(Demšar 2006 §3.2.2).",
      "against control", "outperform.stats._posthoc:rank_posthoc", "Holm 1979; Demšar 2006 "
      "§3.2.2", control="optional", posthoc=True,
      help="rank z tests, step-down; against --control, else all pairs",
      reported_in=("posthoc",),
      references=("holm1979", "demsar2006")),
    P("hochberg", "Hochberg", "Hochberg's procedure",
      "each algorithm against the control (all pairs without one), rank z statistics, "
      "Hochberg's step-up procedure "
      "(Demšar 2006 §3.2.2).",
      "against control", "outperform.stats._posthoc:rank_posthoc", "Hochberg 1988; Demšar "
      "2006 §3.2.2", control="optional", posthoc=True, help="rank z tests, step-up; against --control, else all pairs",
      reported_in=("posthoc",),
      references=("hochberg1988", "demsar2006")),
    P("hommel", "Hommel", "Hommel's procedure",
      "each algorithm against the control, rank z statistics, Hommel's procedure (Demšar "
      "2006 §3.2.2).",
      "against control", "outperform.stats._posthoc:rank_posthoc", "Hommel 1988; Demšar 2006 "
      "§3.2.2", control="optional", posthoc=True,
      help="rank z tests; against --control, else all pairs",
      reported_in=("posthoc",),
      references=("hommel1988", "demsar2006")),
    P("shaffer", "Shaffer", "Shaffer's static procedure on the rank z tests (García & "
      "Herrera 2008)",
      _RANK_Z + "all pairs, Shaffer's static procedure using the logically possible "
      "hypotheses (García & Herrera 2008 §2).",
      "pairwise", "outperform.stats._posthoc:rank_posthoc", "Shaffer 1986; García & Herrera "
      "2008", posthoc=True, help="all pairs, rank z tests, Shaffer's static",
      reported_in=("posthoc",),
      references=("shaffer1986", "garcia2008")),
    P("bergmann", "Bergmann–Hommel", "Bergmann–Hommel's procedure on the rank z tests (García "
      "& Herrera 2008)",
      _RANK_Z + "all pairs, Bergmann–Hommel's procedure over the exhaustive sets of "
      "hypotheses (García & Herrera 2008 §2).",
      "pairwise", "outperform.stats._posthoc:rank_posthoc", "Bergmann & Hommel 1988; García "
      "& Herrera 2008", posthoc=True,
      help="all pairs, rank z tests, Bergmann–Hommel, up to 10 models",
      reported_in=("posthoc",),
      references=("bergmann1988", "garcia2008")),
    P("li", "Li", "Li's procedure on the rank z tests (García et al. 2010)",
      _RANK_Z + "each algorithm against the control, Li's two-step procedure (Li 2008; "
      "García et al. 2010 §3).",
      "against control", "outperform.stats._posthoc:rank_posthoc", "Li 2008; García et al. "
      "2010", control="required", posthoc=True, help="with --control, Li's two-step",
      reported_in=("posthoc",),
      references=("li2008", "garcia2010")),
    P("rom", "Rom", "Rom's step-up procedure on the rank z tests (García et al. 2010)",
      _RANK_Z + "each algorithm against the control, Rom's step-up procedure (Rom 1990; "
      "García et al. 2010 §3).",
      "against control", "outperform.stats._posthoc:rank_posthoc", "Rom 1990; García et al. "
      "2010", control="required", posthoc=True, help="with --control, Rom's step-up",
      reported_in=("posthoc",),
      references=("rom1990", "garcia2010")),
    P("bonferroni-dunn", "Bonferroni–Dunn", "the Bonferroni–Dunn test",
      "each algorithm against the control: it differs when its average rank is one critical "
      "difference away (Demšar 2006 §3.2.2).",
      "against control", "outperform.stats._posthoc:bonferroni_dunn", "Dunn 1961; Demšar "
      "2006 §3.2.2", control="required", posthoc=True,
      help="with --control, critical difference", reported_in=("posthoc",),
      references=("dunn1961", "demsar2006")),
    P("wilcoxon-holm", "Wilcoxon–Holm",
      "Wilcoxon signed-rank tests with Holm's correction (Benavoli et al. 2016)",
      "all pairs by the Wilcoxon signed-rank test, Holm's correction (Benavoli et al. "
      "2016); with missing cells, each pair on the data sets it shares.",
      "pairwise", "outperform.stats._posthoc:pairwise_wilcoxon", "Benavoli et al. 2016",
      missing_cells=True, control="optional", posthoc=True,
      help="Wilcoxon signed-rank tests, Holm; missing cells too", reported_in=("posthoc",),
      references=("wilcoxon1945", "holm1979", "benavoli2016")),
    P("conover", "Conover (Holm)",
      "Conover's t test on the rank sums, Holm-adjusted (Conover 1999 §5.8)",
      "independent data sets, ranks within each data set; t distribution of the differences "
      "of rank sums with the Friedman residual variance, Holm's correction (Conover 1999 "
      "§5.8).",
      "pairwise", "outperform.stats._incomplete:durbin_posthoc", "Conover 1999 §5.8",
      posthoc=True, help="all pairs, t on Friedman rank sums, Holm",
      reported_in=("posthoc",),
      references=("conover1999", "holm1979")),
    P("quade", "Quade (Holm)",
      "the t test on Quade's weighted rank sums, Holm-adjusted (Conover 1999)",
      "independent data sets, ranks within each data set, and data sets ranked by the range "
      "of their scores (ranges comparable across data sets); t test on Quade's weighted "
      "rank sums, Holm's correction (Conover 1999 §5.8, pp. 374–375).",
      "pairwise", "outperform.stats._quade:quade_posthoc", "Quade 1979; Conover 1999 §5.8",
      posthoc=True, help="all pairs, t on Quade's weighted rank sums, Holm",
      reported_in=("posthoc",),
      references=("quade1979", "conover1999", "holm1979")),
    # Means-based post-hoc procedures on the blocked (data sets x models) table.
    P("dunnett", "Dunnett", "Dunnett's many-to-one t tests on the means (Dunnett 1955)",
      "the same {units} for every model; block ({units}) and model effects add up; errors "
      "independent across {units}, normally distributed, with one variance (the residual "
      "mean square of the two-way ANOVA); each model against the control, single-step with "
      "the exact multivariate-t critical value (Dunnett 1955; Hsu 1996 §7.1).",
      "against control", "outperform.stats._dunnett:dunnett_paired",
      "Dunnett 1955; Hsu 1996 ch. 3, §7.1", control="required", posthoc=True,
      help="with --control, t tests on the means, exact multivariate t",
      reported_in=("posthoc",), references=("dunnett1955", "hsu1996")),
    P("mcb", "Hsu's MCB", "Hsu's multiple comparisons with the best on the means (Hsu 1984)",
      "the same {units} for every model; block ({units}) and model effects add up; errors "
      "independent across {units}, normally distributed, with one variance (the residual "
      "mean square of the two-way ANOVA); constrained simultaneous intervals for each "
      "model's mean minus the best of the others (Hsu 1984; Hsu 1996 §4.1).",
      "with the best", "outperform.stats._mcb:mcb", "Hsu 1984; Hsu 1996 ch. 4",
      posthoc=True, help="comparisons with the best on the means: which could be the best",
      reported_in=("best",), references=("hsu1984", "hsu1996")),
    # "durbin" is both the omnibus Durbin test of an incomplete table (in ``tests``) and
    # its all-pairs post-hoc test (in ``posthoc``), as Conover (1999 §5.9) gives them.
    P("durbin", "Durbin–Conover (Holm)",
      "the Durbin–Conover t test on the rank sums, Holm-adjusted (Conover 1999 §5.9)",
      "a balanced incomplete block design (every data set has the same number of models, "
      "every pair of models meets on as many data sets) or a complete table; independent "
      "data sets, ranks within each; chi-square for the omnibus test, t test on the rank "
      "sums with Holm's correction for the pairs (Durbin 1951; Conover 1999 §5.9).",
      "pairwise", "outperform.stats._incomplete:durbin_posthoc", "Durbin 1951; Conover 1999 "
      "§5.9", missing_cells=True, posthoc=True,
      help="all pairs, t on rank sums, Holm; balanced missing cells too",
      reported_in=("tests", "posthoc"),
      references=("durbin1951", "conover1999", "holm1979")),
    # Two models over data sets (Q3, Demšar 2006 §3.1) and Q1 real-valued losses.
    P("wilcoxon", "Wilcoxon signed-rank test", "the Wilcoxon signed-rank test",
      "independent {units}; differences that can be ranked, i.e. comparable in size across "
      "{units}; symmetric around their median (Demšar 2006 §3.1.3).",
      "pairwise", "outperform.stats._wilcoxon:wilcoxon", "Wilcoxon 1945; Demšar 2006 §3.1.3",
      references=("wilcoxon1945", "demsar2006")),
    P("sign", "Sign test", "the sign test",
      "independent {units}; uses only who wins, not by how much, so it is weaker (Demšar "
      "2006 §3.1.4).",
      "pairwise", "outperform.stats._sign:sign_test", "Demšar 2006 §3.1.4",
      references=("demsar2006",)),
    P("paired_t", "Paired t-test", "the paired t-test",
      "independent {units}; normally distributed differences (or many {units}) that are "
      "commensurable (Demšar 2006 §3.1.2; Williams 2026 §5.1).",
      "pairwise", "outperform.stats._ttest:paired_ttest", "Demšar 2006 §3.1.2; Williams 2026 "
      "§5.1",
      references=("demsar2006", "williams2026")),
    P("tost", "TOST", "two one-sided t tests of equivalence (TOST)",
      "independent {units} (folds: the variance corrected for their correlation, Nadeau & "
      "Bengio 2003); normally distributed differences; the equivalence margin (the ROPE) "
      "fixed before seeing the data (Schuirmann 1987).",
      "equivalence", "outperform.stats._tost:tost", "Schuirmann 1987",
      references=("schuirmann1987",)),
    # Q2: one task, resampled folds.
    P("corrected_t", "Corrected resampled t-test", "the corrected resampled t-test",
      "folds of one resampling design; the variance is corrected for the correlation rho "
      "between folds (Nadeau & Bengio 2003).",
      "pairwise", "outperform.stats._correlated_ttest:corrected_resampled_ttest",
      "Nadeau & Bengio 2003",
      references=("nadeau2003", "bouckaert2004")),
    P("corrected_t_holm", "Corrected resampled t-test (Holm)",
      "the corrected resampled t-test on each pair, Holm-adjusted",
      "each pair by the corrected resampled t-test, Holm's correction of the p-values "
      "(Nadeau & Bengio 2003; Holm 1979).",
      "pairwise", "outperform.stats._correlated_ttest:corrected_resampled_ttests",
      "Nadeau & Bengio 2003; Holm 1979", control="optional", reported_in=("posthoc",),
      references=("nadeau2003", "holm1979")),
    P("dietterich_5x2cv", "5×2cv t-test", "Dietterich's 5×2cv paired t-test",
      "five replications of 2-fold cross-validation; the differences of the first fold "
      "normally distributed, the variance estimates independent (Dietterich 1998 §3.5).",
      "pairwise", "outperform.stats._five_by_two:dietterich_5x2cv_ttest", "Dietterich 1998",
      reported_in=(),
      references=("dietterich1998",)),
    P("alpaydin_5x2cv", "5×2cv F-test", "Alpaydın's combined 5×2cv F test",
      "five replications of 2-fold cross-validation; the ten differences normally "
      "distributed, their variance estimates independent (Alpaydın 1999).",
      "pairwise", "outperform.stats._five_by_two:alpaydin_5x2cv_ftest", "Alpaydın 1999",
      reported_in=(),
      references=("alpaydin1999",)),
    P("correlated_bayes", "Correlated Bayesian t-test", "the correlated Bayesian t-test",
      "folds of one resampling design with correlation rho; Student posterior of the mean "
      "difference (Corani & Benavoli 2015 §2).",
      "pairwise", "outperform.bayes._correlated_ttest:correlated_bayesian_ttest",
      "Corani & Benavoli 2015 §2", reported_in=("tests", "posthoc"),
      references=("corani2015", "benavoli2017")),
    # Q3 Bayesian (Benavoli et al. 2017; Corani & Benavoli 2015).
    P("bayesian_signed_rank", "Bayesian signed-rank test", "the Bayesian signed-rank test",
      "independent data sets; Dirichlet-process posterior of the probabilities of the three "
      "regions (Benavoli et al. 2017).",
      "pairwise", "outperform.bayes._dirichlet_process:bayesian_signed_rank_test",
      "Benavoli et al. 2017 §4.2", reported_in=("tests", "posthoc"),
      references=("benavoli2014", "benavoli2017")),
    P("bayesian_sign", "Bayesian sign test", "the Bayesian sign test",
      "independent data sets; Dirichlet-process posterior that ignores the size of the "
      "differences (Benavoli et al. 2017).",
      "pairwise", "outperform.bayes._bayesian_sign:bayesian_sign_test",
      "Benavoli et al. 2017 §4.1",
      references=("benavoli2017",)),
    P("poisson", "Poisson test", "the Poisson test",
      "per-data-set correlated Bayesian t-tests on the folds, combined by the "
      "Poisson-binomial distribution of wins (Corani & Benavoli 2015 §3).",
      "pairwise", "outperform.bayes._poisson_test:poisson_test", "Corani & Benavoli 2015 §3",
      reported_in=("tests", "posthoc"),
      references=("corani2015", "lacoste2012")),
    P("hierarchical", "Hierarchical correlated t-test", "the hierarchical correlated t-test",
      "per data set, folds of one resampling design with correlation rho; data sets "
      "exchangeable, their mean differences drawn from a Student distribution (Benavoli et "
      "al. 2017 §4.3; Corani et al. 2017).",
      "pairwise", "outperform.bayes._hierarchical_ttest:hierarchical_correlated_ttest",
      "Benavoli et al. 2017 §4.3",
      references=("benavoli2017", "corani2017")),
    P("hierarchical_mcnemar", "Hierarchical Bayesian McNemar test",
      "the hierarchical Bayesian McNemar test",
      "independent test examples within each task; tasks exchangeable, their φ drawn from a "
      "common beta distribution (Williams 2026 §5.5).",
      "pairwise", "outperform.bayes._hierarchical_mcnemar:hierarchical_mcnemar",
      "Williams 2026 §5.5",
      references=("williams2026",)),
    # Q1: predictors on one test set.
    P("mcnemar", "McNemar's test", "McNemar's exact test",
      "independent test examples; only the examples on which the two predictors disagree "
      "count (Dietterich 1998; Williams 2026 §5.1).",
      "pairwise", "outperform.stats._mcnemar:mcnemar", "McNemar 1947; Dietterich 1998",
      references=("mcnemar1947", "dietterich1998")),
    P("mcnemar_midp", "McNemar's mid-p test", "McNemar's mid-p test",
      "as the exact McNemar test; the mid-p value counts half the probability of the "
      "observed count, so its level is closer to α than the exact test's (Fagerland, "
      "Lydersen & Laake 2013).",
      "pairwise", "outperform.stats._mcnemar:mcnemar", "Fagerland, Lydersen & Laake 2013",
      references=("mcnemar1947", "fagerland2013")),
    P("mcnemar_chi2", "McNemar's chi-squared test", "McNemar's chi-squared test",
      "as the exact McNemar test; the chi-square approximation needs at least 25 discordant "
      "examples (Dietterich 1998).",
      "pairwise", "outperform.stats._mcnemar:mcnemar", "Dietterich 1998",
      references=("mcnemar1947", "dietterich1998")),
    P("noninferiority", "Non-inferiority (Tango)", "Tango's score test of non-inferiority",
      "independent test examples; large-sample normal approximation of Tango's score "
      "statistic for the difference of paired accuracies; the margin fixed before seeing "
      "the data (Tango 1998).",
      "non-inferiority", "outperform.stats._noninferiority:noninferiority_test", "Tango 1998",
      control="required",
      references=("tango1998",)),
    P("bayesian_mcnemar", "Bayesian McNemar test", "the Bayesian McNemar test",
      "independent test examples; Beta posterior of phi = theta01/(theta01 + theta10) "
      "(Lacoste et al. 2012 Thm 4.1; Williams 2026 §5.4).",
      "pairwise", "outperform.bayes._mcnemar:bayesian_mcnemar", "Lacoste et al. 2012 Thm "
      "4.1; Williams 2026 §5.4", reported_in=("tests", "posthoc"),
      references=("lacoste2012", "williams2026")),
    P("delong", "DeLong's test", "DeLong's test of two correlated AUCs",
      "binary outcome and predicted probabilities; the AUROCs are correlated because they "
      "share the examples (DeLong et al. 1988).",
      "pairwise", "outperform.stats._delong:delong_test", "DeLong et al. 1988",
      references=("delong1988",)),
    P("bayesian_t", "Bayesian t-test", "the Bayesian paired t-test",
      "independent examples (or groups); normal model of the loss differences (Williams "
      "2026 §5.3, eq. 6).",
      "pairwise", "outperform.bayes._ttest:bayesian_ttest", "Williams 2026 §5.3, eq. 6",
      references=("williams2026",)),
    P("cochran_q", "Cochran's Q", "Cochran's Q test",
      "independent test examples; equal error rates of k predictors (Cochran 1950).",
      "omnibus", "outperform.stats._mcnemar:cochrans_q", "Cochran 1950",
      references=("cochran1950",)),
    P("mcnemar_holm", "McNemar (Holm)", "McNemar's test on each pair, Holm-adjusted",
      "each pair by McNemar's test, Holm's correction (Williams 2026 §5.6).",
      "pairwise", "outperform.stats._leaderboard:pairwise_mcnemar", "Williams 2026 §5.6",
      control="optional", reported_in=("posthoc", "leaderboard"),
      references=("mcnemar1947", "holm1979", "williams2026")),
    P("paired_t_holm", "Paired t-test (Holm)", "the paired t-test on each pair, Holm-adjusted",
      "each pair by the paired t-test, Holm's correction (Williams 2026 §5.6).",
      "pairwise", "outperform.stats._ttest:paired_ttest", "Williams 2026 §5.6",
      control="optional", reported_in=("posthoc",),
      references=("holm1979", "williams2026")),
    P("paired_bootstrap", "Paired bootstrap", "the paired bootstrap",
      "independent test examples, resampled with both predictors' predictions kept "
      "together; percentile interval of the metric's difference (Efron & Tibshirani 1993).",
      "pairwise", "outperform.stats._bootstrap:paired_bootstrap", "Efron & Tibshirani 1993",
      reported_in=(),
      references=("efron1993",)),
    # Per-item scores of evaluation logs and leaderboards (Miller 2024).
    P("paired_difference", "Paired difference", "the paired difference of mean scores",
      "the same items for both models, independent items (or independent clusters with a "
      "cluster-robust standard error); normal approximation of the mean difference (Miller "
      "2024 §2.2, §4.1).",
      "pairwise", "outperform.stats._paired_difference:paired_difference",
      "Miller 2024 §2.2, §4.1", clusters=True,
      references=("miller2024",)),
    P("pairwise_t", "Paired t-tests (Holm)",
      "paired t-tests on each pair, cluster-robust standard errors, Holm-adjusted",
      "the same items for every model, independent items or independent clusters "
      "(cluster-robust standard errors); normal mean differences or many items (Miller 2024 "
      "§4.1; Holm 1979).",
      "pairwise", "outperform.stats._pairwise_ttest:pairwise_ttest", "Miller 2024 §4.1",
      clusters=True, reported_in=("leaderboard",),
      references=("miller2024", "holm1979")),
    P("rank_sets", "Simultaneous rank confidence sets",
      "simultaneous rank confidence sets (Mogstad et al. 2024)",
      "the same items for every model, resampled together (whole clusters with clusters); "
      "bootstrap distribution of the studentised mean differences; family-wise level over "
      "all pairs (Mogstad, Romano, Shaikh & Wilhelm 2024).",
      "pairwise", "outperform.stats._rank_sets:rank_sets",
      "Mogstad, Romano, Shaikh & Wilhelm 2024", clusters=True, reported_in=("leaderboard",),
      references=("mogstad2024",)),
    # Judged evaluations: human labels correct the judge; agreement of judge and people
    # (issue 30).
    P("ppi_mean", "PPI++ mean", "the prediction-powered (PPI++) estimate of the mean",
      "the human-labelled items a uniform random subset of the items, labelled and "
      "unlabelled items independent draws; human scores the truth; normal approximation "
      "(Angelopoulos, Duchi & Zrnic 2023, PPI++ §2; power tuning λ clipped to [0, 1]).",
      "estimate", "outperform.stats._ppi:ppi_mean_estimates",
      "Angelopoulos, Duchi & Zrnic 2023 (PPI++) §2", reported_in=(),
      references=("angelopoulos2023", "angelopoulos2023ppipp")),
    P("ppi_difference", "PPI++ paired difference",
      "the prediction-powered (PPI++) paired difference of mean scores",
      "as the PPI++ mean, on the per-item differences A − B: the items labelled for both "
      "models a uniform random subset; independent items (Boyeau et al. 2025 §3).",
      "pairwise", "outperform.stats._ppi:ppi_mean_estimates",
      "Angelopoulos, Duchi & Zrnic 2023; Boyeau et al. 2025 §3", reported_in=(),
      references=("angelopoulos2023", "angelopoulos2023ppipp")),
    P("rogan_gladen", "Rogan–Gladen", "the Rogan–Gladen corrected rate",
      "0/1 verdicts; the judge's sensitivity and specificity the same on labelled and "
      "unlabelled items, estimated on a random labelled subset; delta-method interval from "
      "independent binomials (Rogan & Gladen 1978; Lang & Reiczigel 2014); the Wald "
      "interval can fall short with few labels.",
      "estimate", "outperform.stats._rogan_gladen:rogan_gladen_estimates",
      "Rogan & Gladen 1978; Lang & Reiczigel 2014", reported_in=(),
      references=("rogan1978", "lang2014")),
    P("cohen_kappa", "Cohen's κ", "Cohen's κ",
      "two raters, categories fixed in advance, independent items; chance agreement from "
      "each rater's own marginal shares (Cohen 1960); bootstrap over items.",
      "estimate", "outperform.stats._agreement:cohen_kappa", "Cohen 1960, 1968",
      reported_in=(), references=("cohen1960",)),
    P("fleiss_kappa", "Fleiss' κ", "Fleiss' κ",
      "the same number of raters per item, independent items; chance agreement from the "
      "pooled shares (Fleiss 1971); bootstrap over items.",
      "estimate", "outperform.stats._agreement:fleiss_kappa", "Fleiss 1971", reported_in=(),
      references=("fleiss1971",)),
    P("gwet_ac1", "Gwet's AC1", "Gwet's AC1",
      "two or more raters, missing ratings allowed, independent items; chance agreement "
      "Σπ_k(1 − π_k)/(q − 1), stable when one category dominates (Gwet 2008); bootstrap "
      "over items.",
      "estimate", "outperform.stats._agreement:gwet_ac1", "Gwet 2008", reported_in=(),
      references=("gwet2008",)),
    P("krippendorff_alpha", "Krippendorff's α", "Krippendorff's α",
      "any number of raters, missing values, a level of measurement (nominal, ordinal, "
      "interval, ratio); independent units (Krippendorff 2011); bootstrap over units.",
      "estimate", "outperform.stats._agreement:krippendorff_alpha", "Krippendorff 2011",
      reported_in=(), references=("krippendorff2011",)),
    # Sequential evaluation: decisions valid at every look (issue 26).
    P("betting_confidence_sequence", "Betting confidence sequence",
      "an anytime-valid betting confidence sequence (Waudby-Smith & Ramdas 2024)",
      "scores within known bounds; items in a random order (independent draws, or a random "
      "order of the N items of a benchmark, sampling without replacement); valid at every "
      "look, however often the evaluation is checked (Waudby-Smith & Ramdas 2024 §4).",
      "non-inferiority", "outperform.compare._sequential:sequential_compare",
      "Waudby-Smith & Ramdas 2024 §4; Howard et al. 2021", reported_in=(),
      references=("waudbysmith2024", "howard2021")),
    P("race", "Race (betting confidence sequences)",
      "a race of betting confidence sequences, Bonferroni over the pairs",
      "the same items for every model in a random order, scores within known bounds; a "
      "model is dropped once another's sequence of paired differences over it lies above 0; "
      "family-wise level over all pairs and all looks (Bonferroni).",
      "pairwise", "outperform.compare._sequential:race",
      "Waudby-Smith & Ramdas 2024; Maron & Moore 1997 (racing)", reported_in=(),
      references=("waudbysmith2024", "maron1997")),
    # Which models could be the best, over seeds, over data sets (issue 29).
    P("model_confidence_set", "Model confidence set", "the model confidence set "
      "(Hansen, Lunde & Nason 2011)",
      "the same items (or tasks) for every model; losses stationary and weakly dependent, "
      "resampled in blocks by the stationary or circular block bootstrap (block size 1: "
      "independent items); the set holds the best model with probability at least "
      "1 - alpha as the number of items grows (Hansen, Lunde & Nason 2011, Theorem 1).",
      "best set", "outperform.stats._mcs:model_confidence_set",
      "Hansen, Lunde & Nason 2011, Econometrica 79(2)", clusters=True,
      reported_in=("leaderboard",), references=("hansen2011",)),
    P("aso", "Almost stochastic order", "almost stochastic order (Dror et al. 2019)",
      "independent runs (seeds) of each model, not paired; the bootstrap bound of the "
      "violation ratio is a large-sample result (del Barrio et al. 2018, Theorem 2.4), loose "
      "with few runs; Bonferroni over the pairs compared (Dror, Shlomov & Reichart 2019; "
      "Ulmer, Hardmeier & Frellsen 2022).",
      "pairwise", "outperform.stats._aso:multi_aso",
      "Dror, Shlomov & Reichart 2019; del Barrio et al. 2018; Ulmer et al. 2022",
      reported_in=("runs",), references=("dror2019", "delbarrio2018", "ulmer2022")),
    P("replicability", "Replicability analysis", "the replicability analysis of Dror et al. "
      "(2017)",
      "one valid p-value per data set; Bonferroni's count holds under any dependence between "
      "{units}, Fisher's assumes independent ones; Holm's list controls the family-wise error "
      "(Dror, Baumer, Bogomolov & Reichart 2017; Benjamini & Heller 2008).",
      "pairwise", "outperform.stats._replicability:replicability",
      "Dror, Baumer, Bogomolov & Reichart 2017, TACL", reported_in=(),
      references=("dror2017", "benjamini2008")),
    # Style-controlled Bradley–Terry (issue 30): LMArena's style control.
    P("bradley_terry_style", "Style-controlled Bradley–Terry",
      "the style-controlled Bradley–Terry model (LMArena's style control)",
      "independent battles; P(A beats B) logistic in the ability difference plus a linear "
      "effect of the style differences (f_A - f_B) / (f_A + f_B), standardised, the same for "
      "every pair of models; a tie is half a win for each side; intervals from the sandwich "
      "covariance, valid for large numbers of battles (Bradley & Terry 1952; Li, Angelopoulos "
      "& Chiang 2024; White 1980).",
      "estimate", "outperform.stats._bt_style:bradley_terry_style",
      "Bradley & Terry 1952; Chiang et al. 2024; Li, Angelopoulos & Chiang 2024 (LMArena "
      "blog); arena-rank's ContextualBradleyTerry", reported_in=(),
      help="Bradley–Terry ratings with and without control for answer length and markdown "
           "(leaderboard --battles --control-for).",
      references=("bradley1952", "chiang2024", "li2024stylecontrol", "white1980",
                  "mogstad2024")),
)
