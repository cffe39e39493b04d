"""The judged part of an evaluation report (``compare-evals --gold``): judge-only against
human-corrected means and paired differences side by side, and the judge's agreement with
people."""
from __future__ import annotations

from ._sections import Table

N_EFF_NOTE = ("PPI++: the judge's scores of every item corrected by the human labels "
              "(Angelopoulos, Duchi & Zrnic 2023); λ its power-tuning weight (0: the human "
              "labels alone). n_eff: the number of human labels the human-only mean would need "
              "for the PPI++ interval's width, n_gold · var(human-only) / var(PPI++) (Boyeau et "
              "al. 2025). Rogan–Gladen: the judge's rate on the unlabelled items corrected by "
              "its sensitivity and specificity on the labelled ones (Rogan & Gladen 1978), "
              "delta-method interval (Rogan & Gladen 1978; Lang & Reiczigel 2014).")


def _ci(lo, hi, spec) -> str:
    return f"[{lo:{spec}}, {hi:{spec}}]"


def judge_tables(result) -> tuple[Table, ...]:
    """Corrected means, corrected differences and agreement, as report tables (none without
    human labels)."""
    if not result.judge:
        return ()
    level = f"{1 - next(iter(result.judge.values())).alpha:.0%}"
    means, diffs, agree = [], [], []
    binary = any(j.binary for j in result.judge.values())
    for task, j in result.judge.items():
        for r in j.models:
            row = [task, r["model"],
                   f"{r['judge_mean']:.3f} {_ci(r['judge_low'], r['judge_high'], '.3f')}",
                   f"{r['ppi_mean']:.3f} {_ci(r['ppi_low'], r['ppi_high'], '.3f')}",
                   f"{r['lam']:.2f}",
                   f"{r['n_gold']} of {r['n_gold'] + r['n_unlabelled']}",
                   f"{r['n_effective']:.0f}"]
            if binary:
                row.append("" if "rg_mean" not in r or r["rg_mean"] != r["rg_mean"] else
                           f"{r['rg_mean']:.3f} {_ci(r['rg_low'], r['rg_high'], '.3f')}")
            means.append(row)
        for r in j.pairs:
            diffs.append([task, f"{r['a']} vs {r['b']}",
                          f"{r['judge_difference']:+.3f} "
                          f"{_ci(r['judge_low'], r['judge_high'], '+.3f')}",
                          f"{r['ppi_difference']:+.3f} {_ci(r['ppi_low'], r['ppi_high'], '+.3f')}",
                          f"{r['pvalue']:.3g}" + ("" if r["pvalue_adjusted"] == r["pvalue"]
                                                  else f" (Holm {r['pvalue_adjusted']:.3g})"),
                          str(r["n_gold"]), f"{r['n_effective']:.0f}",
                          r["better"] or "neither"])
        for a in j.agreement:
            agree.append([task, a.method, f"{a.estimate:.3f}",
                          _ci(a.low, a.high, ".3f"), str(a.n_items)])
    mean_header = ["task", "model", f"judge alone ({level} CI)", f"PPI++ ({level} CI)", "λ",
                   "human labels", "n_eff"] + ([f"Rogan–Gladen ({level} CI)"] if binary else [])
    tables = [Table("judge_means", "Judge alone vs corrected by human labels: mean score",
                    mean_header, means, "summary"),
              Table("judge_differences", f"Judge alone vs corrected: paired differences A − B "
                    f"({level} CI; better: PPI++ p below α, Holm-adjusted over the pairs when "
                    "there are several)",
                    ["task", "A vs B", f"judge alone ({level} CI)", f"PPI++ ({level} CI)",
                     "p (PPI++)", "labelled both", "n_eff", "better"], diffs, "frequentist")]
    if agree:
        tables.append(Table("judge_agreement", f"Agreement of judge and people on the "
                            f"labelled (item, model) pairs ({level} bootstrap CI)",
                            ["task", "coefficient", "estimate", f"{level} CI", "units"], agree,
                            "summary"))
    return tuple(tables)
