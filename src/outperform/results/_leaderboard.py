"""A leaderboard with honest uncertainty: rank sets, tiers and pairwise tests (values only)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._base import Result
from ._best import ComparisonWithBest
from ._mcs import ModelConfidenceSet
from ._pairwise import PairwiseResult
from ._rank_sets import RankSets


@dataclass(frozen=True, eq=False, repr=False)
class Leaderboard(Result):
    """Models ranked by their mean score, with rank confidence sets and tiers.

    Attributes
    ----------
    rank_sets : RankSets
        Estimates, standard errors, simultaneous / marginal / percentile rank sets and the
        tiers read off the simultaneous procedure (:meth:`RankSets.tiers`).
    pairwise : PairwiseResult
        The paired test of every pair (exact McNemar for 0/1 scores of independent items,
        else the paired t-test with cluster-robust standard errors), adjusted by
        ``pairwise.adjustment``.
    letters : dict of str -> str
        Compact letter display of ``pairwise.reject`` (Piepho 2004), letters given from the
        best model down: models sharing a letter are not significantly different. With more
        than 50 models, only the 50 best-estimated get letters (among themselves); the
        others have "".
    metric : str
        What the score is (e.g. ``"accuracy"``, ``"auc"``).
    source : str
        The input read: ``"per-item scores"``, ``"per-example predictions"`` or
        ``"per-task scores"``.
    notes : tuple of str
        How the input was read and what to keep in mind (clusters, design effects, too
        few items, clusters or tasks for the rank sets' coverage).
    best : ComparisonWithBest, optional
        Hsu's comparisons with the best of the same scores, items (or tasks) as blocks: the
        "could be the best" column; None with clusters (the two-way ANOVA's error assumes
        independent items) or when the residual variance is 0.
    mcs : ModelConfidenceSet or None
        The model confidence set (Hansen, Lunde & Nason 2011) of the same scores, when asked
        for (``leaderboard(mcs=True)``, ``--mcs``): the models that could be the best and
        each model's MCS p-value.
    """

    rank_sets: RankSets
    pairwise: PairwiseResult
    letters: dict
    metric: str
    source: str
    notes: tuple = field(default=())
    best: ComparisonWithBest | None = None
    mcs: ModelConfidenceSet | None = None

    def _summary(self) -> dict:
        return {"metric": self.metric, "names": self.names,
                "may_be_best": self.top_k(1), "source": self.source}

    @property
    def names(self) -> tuple[str, ...]:
        return self.rank_sets.names

    def top_k(self, k: int, kind: str = "simultaneous") -> tuple[str, ...]:
        """Models that may be among the top ``k`` (see :meth:`RankSets.top_k`)."""
        return self.rank_sets.top_k(k, kind)

    def criteria(self) -> dict[str, str]:
        """What decides each column of the table, in the words the outputs print.

        ``"tier"``: the simultaneous rank confidence sets (also ``top_k``); ``"letters"``:
        the pairwise tests of ``pairwise``; ``"best"`` (with MCB): Hsu's comparisons with the
        best. The two are different tests of the same pairs
        (see :meth:`disagreements`).
        """
        rs, pw = self.rank_sets, self.pairwise
        level = f"{100 * rs.confidence_level:g}%"
        return {"tier": f"simultaneous {level} rank confidence sets (Mogstad et al. 2024): "
                        "tier 1 holds the models no model is significantly better than (those "
                        "that may be the best), each later tier models significantly worse "
                        "than one of the tier above",
                "letters": f"{pw.method}, {pw.adjustment}-adjusted at α = {pw.alpha:g}: "
                           "models sharing a letter do not differ significantly by these tests",
                **({} if self.best is None else {"best": (
                    f"Hsu's multiple comparisons with the best (Hsu 1984) at the simultaneous "
                    f"{100 * (1 - self.best.alpha):g}% level, the {self.best.unit}s as blocks "
                    "of a two-way ANOVA: \"yes\" when the model's mean could be the largest"
                    if self.best.higher_is_better else
                    f"Hsu's multiple comparisons with the best (Hsu 1984) at the simultaneous "
                    f"{100 * (1 - self.best.alpha):g}% level, the {self.best.unit}s as blocks "
                    "of a two-way ANOVA: \"yes\" when the model's mean could be the smallest")})}

    def disagreements(self) -> tuple[tuple[str, str], ...]:
        """Pairs (best estimate first) of models with letters on which the two criteria
        disagree: significantly different by the simultaneous rank sets (``rank_sets.better``)
        but not by the letters' tests (``pairwise.reject``), or the reverse."""
        order = [j for j in self.rank_sets.order if self.letters.get(self.names[j])]
        idx = np.asarray(order, dtype=int)
        better = self.rank_sets.better
        sets = (better | better.T)[np.ix_(idx, idx)]
        tests = np.asarray(self.pairwise.reject, dtype=bool)[np.ix_(idx, idx)]
        rows, cols = np.nonzero(np.triu(sets != tests, 1))
        return tuple((self.names[idx[i]], self.names[idx[j]]) for i, j in zip(rows, cols))

    def disagreement_note(self) -> str | None:
        """One sentence on :meth:`disagreements`, or None when the criteria agree."""
        pairs = self.disagreements()
        if not pairs:
            return None
        index = {m: j for j, m in enumerate(self.names)}
        sets = self.rank_sets.better | self.rank_sets.better.T
        by_sets = [f"{a} vs {b}" for a, b in pairs if sets[index[a], index[b]]]
        by_tests = [f"{a} vs {b}" for a, b in pairs if not sets[index[a], index[b]]]

        def listed(found):
            return ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5
                                            else "")
        parts = ([f"the rank sets separate {listed(by_sets)}, the letters' tests do not"]
                 if by_sets else []) + \
                ([f"the letters' tests separate {listed(by_tests)}, the rank sets do not"]
                 if by_tests else [])
        return ("tiers and letters are different tests: " + "; ".join(parts)
                + ". Read each column by its own criterion.")

    def could_be_best(self) -> dict[str, bool] | None:
        """Model -> whether Hsu's MCB says it could be the best (None without MCB)."""
        if self.best is None:
            return None
        return dict(zip(self.best.names, self.best.could_be_best.tolist()))

    def to_frame(self):
        """One row per model, best first: :meth:`RankSets.to_frame` plus ``letters`` and,
        with MCB, ``could_be_best``."""
        frame = self.rank_sets.to_frame()
        frame["letters"] = [self.letters[m] for m in frame["model"]]
        if self.best is not None:
            frame["could_be_best"] = [self.could_be_best()[m] for m in frame["model"]]
        if self.mcs is not None:
            frame["mcs_pvalue"] = [self.mcs.pvalue(m) for m in frame["model"]]
            frame["in_mcs"] = frame["mcs_pvalue"] > self.mcs.alpha
        return frame

    def to_dict(self) -> dict:
        out = self.rank_sets.to_dict()
        could = self.could_be_best()
        index = {m: j for j, m in enumerate(self.best.names)} if self.best is not None else {}
        for row in out["models"]:
            row["letters"] = self.letters[row["model"]]
            j = index.get(row["model"])
            row["could_be_best"] = None if could is None else could[row["model"]]
            row["mcb_low"] = None if j is None else float(self.best.lower[j])
            row["mcb_high"] = None if j is None else float(self.best.upper[j])
            if self.mcs is not None:
                row["mcs_pvalue"] = self.mcs.pvalue(row["model"])
        out["mcb"] = None if self.best is None else self.best.to_dict()
        if self.mcs is not None:
            out["model_confidence_set"] = self.mcs.to_dict()
        out.update(metric=self.metric, source=self.source, notes=list(self.notes),
                   pairwise_method=self.pairwise.method,
                   pairwise_adjustment=self.pairwise.adjustment)
        return out

    def format(self, top: int | None = None, top_k: int = 1) -> str:
        """The table as text, the ``top`` best-estimated models only if given, and the
        models that may be among the best ``top_k`` (simultaneous sets)."""
        rs = self.rank_sets
        level = f"{100 * rs.confidence_level:g}%"
        tiers = rs.tiers()
        order = rs.order if top is None else rs.order[:top]
        scores = rs.score_texts(order)
        score_width = max(len(text) for text in scores)
        width = max(max(len(rs.names[j]) for j in order), 5) + 2
        unit = {"cluster": f"{rs.n_clusters} clusters of {rs.n_items} items",
                "item": f"{rs.n_items} items", "task": f"{rs.n_items} tasks"}[rs.unit]
        lines = [f"leaderboard of {len(rs.names)} models by mean {self.metric} "
                 f"({'higher' if rs.higher_is_better else 'lower'} is better), {unit}",
                 f"rank sets at {level}: {rs.n_resamples} {rs.weights} bootstrap resamples "
                 f"of the {rs.unit}s, pairing kept; score ± {level} interval"
                 + (" (cluster-robust)" if rs.n_clusters is not None else ""),
                 "model".ljust(width) + f"{'rank':>5}{'simultaneous':>14}{'marginal':>11}"
                 f"{'tier':>6}{'letters':>9}  " + "score".rjust(score_width)]
        for j, score in zip(order, scores):
            s, m = rs.simultaneous[j], rs.marginal[j]
            lines.append(
                rs.names[j].ljust(width) + f"{rs.rank[j]:>5}{f'[{s[0]}, {s[1]}]':>14}"
                f"{f'[{m[0]}, {m[1]}]':>11}{tiers[j]:>6}{self.letters[rs.names[j]]:>9}  "
                + score.rjust(score_width))
        if top is not None and top < len(rs.names):
            lines.append(f"... {len(rs.names) - top} more models (all of them: --top 0)")
        top_k = min(max(int(top_k), 1), len(rs.names))
        best = rs.top_k(top_k)
        shown = ", ".join(best[:20]) + (f" and {len(best) - 20} more" if len(best) > 20 else "")
        what = "the best" if top_k == 1 else f"among the best {top_k}"
        lines.append(f"may be {what} (simultaneous {level}"
                     + ("; tier 1" if top_k == 1 else "") + f"): {shown}")
        if self.best is not None:
            could = self.best.candidates()
            shown = ", ".join(could[:20]) + (f" and {len(could) - 20} more"
                                             if len(could) > 20 else "")
            lines.append(f"could be the best (Hsu's MCB, simultaneous "
                         f"{100 * (1 - self.best.alpha):g}%, on the means): {shown}")
        criteria = self.criteria()
        lines.append(f"tiers: {tiers.max()}, from the {criteria['tier']}")
        lines.append(f"letters: {criteria['letters']}")
        disagree = self.disagreement_note()
        lines += [f"note: {n}" for n in self.notes + ((disagree,) if disagree else ())]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format(top=None if len(self.names) <= 50 else 30)
