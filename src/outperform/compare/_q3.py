"""Q3: algorithms compared over many data sets (Demšar 2006), frequentist analysis.

Decision logic (Demšar 2006 §3 and §5):
- two algorithms: the Wilcoxon signed-rank test decides (zeros split as Demšar); the sign
  test and the paired t-test are reported beside it, with their caveats;
- k >= 3 algorithms: the Friedman test with the Iman–Davenport F decides whether any differ;
  then, with a control, Holm's step-down procedure on the rank z statistics (and the
  Bonferroni–Dunn critical difference for the diagram); without one, the Nemenyi test on all
  pairs with its critical difference.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .._validation import InvalidInputError, TooFewError, check_probability
from ..data._results_table import ScoreMatrix
from ..results import ComparisonReport, PairwiseResult
from ..stats._cliques import nonsignificant_groups
from ..stats._dunnett import dunnett_paired
from ..stats._friedman import friedman, iman_davenport
from ..stats._incomplete import durbin_posthoc, pairwise_wilcoxon_available
from ..stats._letters import compact_letters
from ..stats._quade import quade_posthoc
from ..stats._posthoc import bonferroni_dunn, nemenyi, pairwise_wilcoxon, rank_posthoc
from ..stats._ranks import RankedScores, ranked_scores
from ..stats._sign import sign_test
from ..stats._ttest import paired_ttest
from ..stats._wilcoxon import wilcoxon
from ._words import conclusion
from ._guards import unit_mismatch
from ._posthoc_choice import POSTHOC as POSTHOC   # re-exported: compare._q3.POSTHOC
from ._posthoc_choice import (_check_control, _posthoc_phrase, _procedures,
                              _procedures_differ)
from ._q3_anova import check_omnibus, compare_anova
from ._pair_choice import choose_pairs, report_pairs, shown_pairs
from ._q3_words import conclusions as q3_conclusions
from ._q3_small import SMALL_N, small_sample_omnibus, small_sample_warning, withhold_posthoc

MANY_TIES = 0.25  # share of tied rank positions above which the report warns
# Post-hoc results hold k x k matrices (statistic, p-values, adjusted p-values, decisions) and
# their temporaries: about 80 bytes per (row, column) cell, measured for k = 3000 with and
# without a control. Above this budget the analysis is refused before anything is allocated.
POSTHOC_MEMORY_LIMIT = 2 * 2**30
BYTES_PER_CELL = 80


def compare_many_tasks(scores: ScoreMatrix, *, alpha: float = 0.05, control: str | None = None,
                       posthoc: str | Sequence[str] = "auto", random_state=0,
                       omnibus: str = "friedman", pairs: str | None = None
                       ) -> ComparisonReport:
    """Frequentist comparison of k algorithms over N data sets (Williams Q3; Demšar 2006).

    Parameters
    ----------
    scores : ScoreMatrix
        One score per (data set, algorithm), see :meth:`ResultsTable.score_matrix`.
    alpha : float
        Significance level of every test and of the critical differences.
    control : str, optional
        A model compared with all others (many-to-one post-hoc tests, more powerful).
    posthoc : {"auto", "nemenyi", "holm", "hochberg", "hommel", "shaffer", "bergmann", "li", "rom", "bonferroni-dunn", "wilcoxon-holm", "conover", "quade", "dunnett", "mcb", "durbin", "none"}
        ``"auto"``: Holm with a control, Nemenyi without. ``"shaffer"``, ``"bergmann"``: all
        pairs, rank z tests with Shaffer's static or Bergmann–Hommel's adjustment (García &
        Herrera 2008; Bergmann–Hommel up to 10 models, Shaffer's beyond with a warning).
        ``"li"``, ``"rom"``: against the control, Li's (2008) two-step or Rom's (1990)
        step-up adjustment. ``"conover"``: all
        pairs by Conover's t test on Friedman rank sums (Conover 1999 §5.8; the Durbin–Conover
        test of a complete table), Holm-adjusted. ``"quade"``: all pairs by the t test on
        Quade's weighted rank sums (Conover 1999 pp. 374–375), Holm-adjusted. ``"wilcoxon-holm"``: all pairs by the
        Wilcoxon signed-rank test with Holm's correction (Benavoli et al. 2016). ``"durbin"``:
        the Durbin–Conover all-pairs t test on rank sums, Holm-adjusted (Conover 1999 §5.9).
        ``"dunnett"``: each model against the control by t tests on the means with the
        two-way ANOVA error and the exact multivariate-t critical value
        (:func:`outperform.stats.dunnett_paired`; Dunnett 1955). ``"mcb"``: Hsu's
        comparisons with the best on the means (:func:`outperform.stats.mcb`; Hsu 1984),
        in ``report.best``: which models could be the best, with constrained simultaneous
        intervals for each mean minus the best of the others (k >= 2). Both need every cell.
        ``"none"``: the omnibus test and the average ranks only. With missing cells (NaN in
        ``scores.values``) the analysis is that of
        :func:`outperform.compare._q3_incomplete.compare_incomplete` (Skillings–Mack or
        Durbin; ``"auto"`` is Wilcoxon–Holm on each pair's common data sets).
        A sequence of procedures runs them all on one ranking, e.g. ``("nemenyi", "holm")``
        with a control: Nemenyi on all pairs, Holm (and Bonferroni–Dunn) against the
        control, each in ``report.posthoc`` under its name, the procedures that compare
        with a control using it and the others comparing all pairs (complete tables only).
    omnibus : {"friedman", "anova"}
        The omnibus test of k >= 3 models: ``"friedman"`` (default, Demšar 2006 §3.2.2) with
        the post-hoc rank tests above; ``"anova"``: the repeated-measures ANOVA (Demšar
        §3.2.1; normality and sphericity assumed, the Greenhouse–Geisser p-value beside it)
        followed by paired t-tests with Holm's correction (``posthoc`` "auto", "holm" or
        "none"; complete tables only), see :mod:`outperform.compare._q3_anova`.
    random_state : int or Generator
        Seed of the Monte Carlo permutations of the Friedman test over at most 10 data sets
        when its exact distribution is too large to enumerate (see below).
    pairs : {"all", "neighbours", "control"}, optional
        Which pairs the conclusions and the post-hoc tables show in full
        (:func:`outperform.compare._pair_choice.choose_pairs` on the ranking by average
        rank): by default each model against ``control``, every pair up to 6 models, else
        the neighbours in the ranking. The tests run on all pairs whatever is shown; a
        sentence counts those that differ, and ``details["pairs"]`` holds the choice and
        the counts (:func:`outperform.compare._pair_choice.report_pairs`).

    Notes
    -----
    k >= 3 models on at most ``SMALL_N`` = 10 complete data sets: the omnibus decision
    (``recommended = "friedman_permutation"``) is the Friedman test's permutation p-value,
    exact when enumerable, and the post-hoc rejections are withheld when it does not reject
    (see :mod:`outperform.compare._q3_small`).

    Returns
    -------
    ComparisonReport

    Raises
    ------
    TooFewError
        Fewer than 2 data sets or models, or too few data sets for the Wilcoxon test (5).
    InvalidInputError
        Unknown control or post-hoc procedure; so many models that the k x k post-hoc tables
        would need more than ``POSTHOC_MEMORY_LIMIT`` bytes (about 5,000 models; the message
        says what to do instead).
    """
    check_probability(alpha, "alpha")
    procedures = _procedures(posthoc)
    names = scores.models
    if control is not None and control not in names:
        raise InvalidInputError(f"control {control!r} is not one of the models {list(names)}.")
    values, hib = scores.values, scores.higher_is_better
    n, k = values.shape
    _check_control(procedures, control)
    choose_pairs(names, control=control, pairs=pairs)     # a bad choice refused before work
    check_omnibus(omnibus, procedures, k, bool(np.isnan(values).any()))
    if procedures == ["none"] and control is not None:
        raise InvalidInputError("posthoc='none' (--posthoc none) runs no comparison with the "
                                "control: drop control= (--control), or choose a post-hoc "
                                "procedure such as 'holm'.")
    if np.isnan(values).any():
        from ._q3_incomplete import compare_incomplete   # it builds on this module
        if len(procedures) > 1:
            raise InvalidInputError(
                f"posthoc={tuple(procedures)!r}: on a table with missing cells choose one "
                "post-hoc procedure at a time (several run together on complete tables).")
        if k > 2 and procedures != ["none"]:
            _check_posthoc_memory(k)
        return compare_incomplete(scores, alpha=alpha, control=control,
                                  posthoc=procedures[0], pairs=pairs)
    if k > 2 and procedures != ["none"]:
        _check_posthoc_memory(k)
    if n < 2:
        raise TooFewError(f"{n} data set: comparisons over data sets need at least 2 (Demšar "
                          "recommends at least 10 for the Friedman test).")
    # Ranked once: every rank statistic, post-hoc test and warning below shares it.
    ranked = ranked_scores(values, higher_is_better=hib)
    ranks = ranked.average
    order = np.argsort(ranks, kind="stable")
    wins = np.sum(ranked.ranks == 1, axis=0)
    medians = np.median(values, axis=0)   # each column's, as np.median(values[:, i])
    summary = tuple(
        {"model": names[i], "average_rank": float(ranks[i]),
         "mean_score": float(values[:, i].mean()), "median_score": float(medians[i]),
         "wins": int(wins[i])}
        for i in order)
    if omnibus == "anova":
        return compare_anova(scores, summary, alpha=alpha, control=control,
                             procedure=procedures[0],
                             warnings=unit_mismatch(dict(zip(names, values.T))), pairs=pairs)
    warnings = _warnings(scores, ranked)
    if k == 2:
        report = _two_models(scores, ranks, summary, alpha, warnings)
    else:
        report = _many_models(scores, ranked, summary, alpha, control, procedures, warnings,
                              random_state, pairs)
    if "mcb" in procedures:
        from ._q3_best import with_best

        report = with_best(report, scores, alpha=alpha)
    return report


def _check_posthoc_memory(k: int) -> None:
    """Refuse, before allocating them, post-hoc tables too large for memory."""
    need = BYTES_PER_CELL * k * k
    if need > POSTHOC_MEMORY_LIMIT:
        k_max = int((POSTHOC_MEMORY_LIMIT / BYTES_PER_CELL) ** 0.5)
        raise InvalidInputError(
            f"{k:,} models: the post-hoc tests compare {k * (k - 1) // 2:,} pairs (or {k - 1:,} "
            f"with a control) in k x k tables that need about {need / 2**30:.0f} GiB of memory, "
            f"more than the {POSTHOC_MEMORY_LIMIT / 2**30:.0f} GiB allowed (about {k_max:,} "
            "models). "
            "Compare fewer models (e.g. the best by average rank, or one family at a time), or "
            "ask for the Friedman test and the average ranks alone with posthoc='none' "
            "(--posthoc none).")


def _warnings(scores: ScoreMatrix, ranked: RankedScores) -> list[str]:
    out = unit_mismatch(dict(zip(scores.models, scores.values.T)))
    n, k = scores.values.shape
    tied = np.mean(ranked.tied_rows) if k > 1 else 0.0
    if tied > MANY_TIES:
        out.append(f"{tied:.0%} of the data sets have tied scores: rank tests lose power with ties; "
                   "do not round scores before testing (Demšar 2006 §3.1.3).")
    if k > 2 and n > SMALL_N and k <= 5:   # fewer data sets: see _q3_small's warning
        out.append(f"with N = {n} data sets and k = {k} algorithms the chi-square approximation of "
                   "the Friedman statistic is rough (Demšar 2006 §3.2.2 asks for N > 10 and k > 5); "
                   "the Iman–Davenport F is less conservative and is the one used here.")
    return out


def _two_models(scores, ranks, summary, alpha, warnings) -> ComparisonReport:
    a_name, b_name = scores.models
    a, b = scores.values[:, 0], scores.values[:, 1]
    if not scores.higher_is_better:
        a, b = -a, -b  # the kernels take higher-is-better scores
    n = len(a)
    if n < 5:
        raise TooFewError(f"{n} data sets: the Wilcoxon signed-rank test cannot reach p < 0.05 "
                          "with fewer than 6; collect more data sets.")
    tests = {
        "wilcoxon": wilcoxon(a, b, zero_method="demsar"),
        "sign": sign_test(a, b, ties="split"),
    }
    if np.any(a != b) and np.std(a - b) > 0:
        tests["paired_t"] = paired_ttest(a, b)
        warnings.append("the paired t-test is shown for reference only: it assumes the differences "
                        "are commensurable across data sets and normally distributed (Demšar 2006 "
                        "§3.1.2); the Wilcoxon test does not.")
    w, s = tests["wilcoxon"], tests["sign"]
    # Directions from the signed-rank sums and the wins, never from T (which is never < 0).
    conclusions = [
        conclusion("Wilcoxon signed-rank test", a_name, b_name, decision=bool(w.pvalue < alpha),
                   values=(w.details["R_plus"], w.details["R_minus"]),
                   quantity="signed-rank sums", higher_is_better=True, spec="g",
                   evidence=f"p = {w.pvalue:.3g} " + ("<" if w.pvalue < alpha else ">=")
                            + f" {alpha}"),
        conclusion("Sign test (ties split)", a_name, b_name, decision=bool(s.pvalue < alpha),
                   values=(s.statistic, s.details["n"] - s.statistic),
                   quantity="data sets won", higher_is_better=True, spec="g",
                   evidence=f"of {s.details['n']}, exact p = {s.pvalue:.3g}")]
    if (s.pvalue < alpha) != (w.pvalue < alpha):
        warnings.append("the sign test and the Wilcoxon test disagree; the sign test is weaker and "
                        "ignores the size of differences, the Wilcoxon test is the one to report.")
    return ComparisonReport(
        question="Q3", metric=scores.metric, higher_is_better=scores.higher_is_better,
        models=scores.models, n_tasks=len(a), alpha=alpha, summary=summary, tests=tests,
        recommended="wilcoxon",
        rationale="two algorithms over several data sets: the Wilcoxon signed-rank test is "
                  "safer than the t-test and more powerful than the sign test (Demšar 2006 §3.1.5).",
        conclusions=tuple(conclusions), warnings=tuple(warnings),
        details={"aggregation": scores.aggregation})


def _many_models(scores, ranked, summary, alpha, control, procedures, warnings,
                 random_state=0, pairs=None) -> ComparisonReport:
    values, hib, names = scores.values, scores.higher_is_better, scores.models
    ranks = ranked.average
    tests = {
        "iman_davenport": iman_davenport(ranked, higher_is_better=hib),
        "friedman": friedman(ranked, higher_is_better=hib),
        "friedman_tie_corrected": friedman(ranked, higher_is_better=hib, tie_correction=True),
    }
    omnibus = tests["iman_davenport"]
    exact = small_sample_omnibus(ranked, random_state=random_state)
    if exact is not None:
        tests["friedman_permutation"] = omnibus = exact
        warnings.append(small_sample_warning(exact))
    if procedures == ["auto"]:
        procedures = ["holm" if control is not None else "nemenyi"]
    post: dict[str, PairwiseResult] = {}
    for posthoc in procedures:
        _run_posthoc(post, posthoc, values, ranked, alpha, control, names)
    warnings += [res.fallback for res in post.values() if res.fallback is not None]
    if exact is not None:
        post, withheld = withhold_posthoc(post, exact, alpha)
        warnings += withheld
    groups = {}
    for key, res in post.items():
        if res.control is None:
            groups[key] = [tuple(names[i] for i in g)
                           for g in nonsignificant_groups(ranks, res.reject)]
    summary, letters = with_letters(summary, post, names)
    chosen = report_pairs([row["model"] for row in summary], names, post, control=control,
                          pairs=pairs)
    conclusions = q3_conclusions(omnibus, post, groups, ranks, names, alpha,
                                 tests["iman_davenport"].details["perfect_agreement"],
                                 shown=shown_pairs(names, chosen))
    differ = _procedures_differ(post, names)
    if differ:
        warnings.append(differ)
    if omnibus.pvalue >= alpha and any(r.reject[np.triu_indices(len(names), 1)].any()
                                       for r in post.values()):
        warnings.append("the Friedman/Iman–Davenport test is not significant but a post-hoc test "
                        "rejects some pair: such post-hoc claims are not supported (Demšar 2006 §3.2.2).")
    return ComparisonReport(
        question="Q3", metric=scores.metric, higher_is_better=hib, models=names,
        n_tasks=values.shape[0], alpha=alpha, summary=summary, tests=tests,
        recommended="iman_davenport" if exact is None else "friedman_permutation",
        rationale="k >= 3 algorithms over data sets: the Friedman test ("
                  + ("Iman–Davenport F, less conservative than chi-square" if exact is None
                     else f"p-value from its permutation distribution, as N = {values.shape[0]}"
                          f" <= {SMALL_N} data sets") + ") followed by "
                  + "; and ".join(_posthoc_phrase(p, control, len(names)) for p in procedures)
                  + " (Demšar 2006 §3.2.2).",
        posthoc=post, groups=groups, conclusions=tuple(conclusions), warnings=tuple(warnings),
        control=control, details={"aggregation": scores.aggregation,
                                   "posthoc": procedures[0] if len(procedures) == 1
                                   else tuple(procedures), **letters, "pairs": chosen})


def _run_posthoc(post: dict, posthoc: str, values, ranked, alpha, control, names) -> None:
    """Add the results of one post-hoc procedure to ``post`` (the rank tests use ``ranked``).

    With a control, a procedure that compares with one (Holm, Hochberg, ...) is followed by
    the Bonferroni–Dunn test, whose single critical difference the diagram draws.
    """
    hib = ranked.higher_is_better
    if posthoc in ("none", "mcb"):   # MCB: report.best, added by compare_many_tasks
        pass
    elif posthoc == "dunnett":
        post["dunnett"] = dunnett_paired(values, control=control, alpha=alpha, names=names,
                                         higher_is_better=hib)
    elif posthoc == "nemenyi":
        post["nemenyi"] = nemenyi(ranked, alpha=alpha, higher_is_better=hib, names=names)
    elif posthoc == "wilcoxon-holm" and control is None:
        post["wilcoxon-holm"] = pairwise_wilcoxon(values, adjustment="holm", alpha=alpha,
                                                  higher_is_better=hib, names=names)
    elif posthoc == "wilcoxon-holm":   # against the control: its k - 1 pairs are the family
        post["wilcoxon-holm"] = pairwise_wilcoxon_available(
            values, control=control, adjustment="holm", alpha=alpha, higher_is_better=hib,
            names=names)
    elif posthoc in ("durbin", "conover", "quade"):
        if control is not None:
            raise InvalidInputError(f"posthoc={posthoc!r} compares all pairs: drop control=.")
        test = quade_posthoc if posthoc == "quade" else durbin_posthoc
        post[posthoc] = test(values, adjustment="holm", alpha=alpha, higher_is_better=hib,
                             names=names)
    elif posthoc == "bonferroni-dunn" or control is not None:
        if control is None:
            raise InvalidInputError(f"posthoc={posthoc!r} compares with a control: pass control=.")
        if posthoc != "bonferroni-dunn":
            post[posthoc] = rank_posthoc(ranked, control=control, adjustment=posthoc,
                                         alpha=alpha, higher_is_better=hib, names=names)
        if "bonferroni-dunn" not in post:
            post["bonferroni-dunn"] = bonferroni_dunn(ranked, control=control, alpha=alpha,
                                                      higher_is_better=hib, names=names)
    else:
        post[posthoc] = rank_posthoc(ranked, control=None, adjustment=posthoc, alpha=alpha,
                                     higher_is_better=hib, names=names)


def with_letters(summary, post, names) -> tuple[tuple, dict]:
    """Summary rows with the compact letter display (Piepho 2004) of the first all-pairs
    post-hoc test: models sharing a letter do not differ; "a" goes to the best model."""
    key = next((k for k, r in post.items() if r.control is None), None)
    if key is None:
        return summary, {}
    order = [names.index(row["model"]) for row in summary]   # best first
    letters = compact_letters(post[key].reject[np.ix_(order, order)],
                              [names[i] for i in order])
    return (tuple(dict(row, letters=letters[row["model"]]) for row in summary),
            {"letters_from": key})
