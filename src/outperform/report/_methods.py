"""The methods paragraph of a paper, with its citations, and the NeurIPS checklist answer.

:func:`methods_paragraph` writes one paragraph for a paper's methods section from a report:
the question (Q1/Q2/Q3, Williams 2026 §1 after Dietterich 1998), the design, the test the
decision rests on and what it assumes, the other tests, the multiple comparison procedure,
α, the ROPE and where it comes from, the seed and the software with its versions. Every
procedure is cited by the BibTeX keys its registry record names
(:mod:`outperform.compare._procedures`, field ``references``), whose entries
:func:`outperform.report.bibtex` writes: ``\\citet``/``\\citep`` of natbib in LaTeX,
author–year in Markdown and text. :func:`checklist_answer` is the one-line answer to item 7
(experiment statistical significance) of the NeurIPS paper checklist (Williams 2026 §8).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from importlib import metadata

from .. import __version__
from ..compare._registry import procedure
from ._format import is_bayesian
from ._references import author_year, reference_line

FORMATS = ("latex", "markdown", "text")
_UNITS = {"Q1": "test examples", "Q2": "folds", "Q3": "data sets"}
# A parenthesised source with a year, e.g. "(Demšar 2006 §3.2.2)": the paragraph cites instead.
_SOURCE = re.compile(r"\s*\([^()]*\b(1[89]|20)\d\d\b[^()]*\)")
_ROPE_SOURCES = {"Benavoli": "benavoli2017", "Williams": "williams2026", "Kruschke": None}


@dataclass(frozen=True)
class _Cite:
    keys: tuple[str, ...]
    textual: bool = False      # \citet (Williams (2026)) rather than \citep ((Williams 2026))


def _keys(key: str) -> tuple[str, ...]:
    try:
        return procedure(key).references
    except KeyError:
        return ()


def _phrase(key: str) -> str:
    try:
        return procedure(key).phrase
    except KeyError:
        return key


def _assumes(key: str, units: str) -> str:
    try:
        text = procedure(key).assumes(units)
    except KeyError:
        return ""
    return _SOURCE.sub("", text).rstrip(". ")


def _bayesian(res) -> bool:
    """A Bayesian result: a pairwise table of posterior probabilities, or a test's."""
    return is_bayesian(res) if hasattr(res, "adjustment") else hasattr(res, "p_rope")


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _n_units(report) -> str:
    if report.question == "Q1":
        return f"{report.n_examples} test examples" if report.n_examples else "the test examples"
    if report.question == "Q2":
        folds = sorted({int(r["n_folds"]) for r in report.summary if "n_folds" in r})
        return f"{folds[0]} folds" if len(folds) == 1 else "the folds"
    return f"{report.n_tasks} data sets"


def _question(report) -> list:
    k, names = len(report.models), ", ".join(report.models)
    what = {"Q1": (f"We compare {k} trained predictors ({names}) on one shared test set of "
                   f"{_n_units(report)}: question Q1 of "),
            "Q2": (f"We compare {k} learning algorithms ({names}) on one task"
                   f"{f' ({report.task})' if report.task else ''} by resampling: question Q2 of "),
            "Q3": (f"We compare {k} learning algorithms ({names}) over {report.n_tasks} data "
                   "sets: question Q3 of ")}[report.question]
    why = {"Q1": ", whose conclusions hold for these predictors, not for the algorithms that "
                 "trained them.",
           "Q2": ", which algorithm gives better predictors when trained on data of this size "
                 "from this task.",
           "Q3": ", which algorithm is better over a population of tasks of which these data "
                 "sets are a sample."}[report.question]
    direction = "higher is better" if report.higher_is_better else "lower is better"
    metric = (f"The loss per test example is {report.loss} ({direction})."
              if report.question == "Q1" and report.loss
              else f"The metric is {report.metric} ({direction}).")
    return [what, _Cite(("williams2026",), True), ", after ", _Cite(("dietterich1998",), True),
            why + " " + metric]


def _design(report) -> str:
    d = report.details
    if report.question == "Q1":
        text = ("The design is paired: every predictor is scored on the same test examples, "
                "the random factor")
        if d.get("groups"):
            text += (f"; the examples form {d['groups']} groups whose losses are averaged, "
                     "the independent units")
        return text + "."
    if report.question == "Q2":
        text = (f"The design is paired: {_n_units(report)} per algorithm, every algorithm "
                "trained and tested on the same resampled training and test sets (repetitions "
                "times folds of one cross-validation)")
        if report.rho is not None:
            text += (f"; overlapping training sets make them correlated, with ρ = "
                     f"{report.rho:.3g} ({report.rho_source or 'given'})")
        return text + "."
    text = ("The design is paired: the algorithm is the fixed factor and the data set the "
            "random factor, with one score per data set and algorithm")
    if report.aggregation:
        text += f" ({report.aggregation})"
    if report.runs is not None:
        text += ("; the runs (seeds) of each cell are kept for interval estimates over runs "
                 "and data sets")
    return text + "."


def _tests(report) -> list:
    units = _UNITS.get(report.question, "units")
    out: list = []
    if report.recommended:
        key = report.recommended
        out += ["The decision rests on " + _phrase(key) + " ", _Cite(_keys(key)),
                f", which assumes {_assumes(key, units)}." if _assumes(key, units) else "."]
    others = [k for k in report.tests if k != report.recommended]
    if others:
        out.append(" Also reported: ")
        for n, key in enumerate(others):
            sep = "" if n == 0 else (" and " if n == len(others) - 1 else ", ")
            out += [sep + _phrase(key) + " ", _Cite(_keys(key))]
        out.append(".")
    for key in report.posthoc:
        role = ("Bayesian view of the pairs" if is_bayesian(report.posthoc[key])
                else "Multiple comparisons")
        out += [f" {role}: {_phrase(key)} ", _Cite(_keys(key)),
                f": {_assumes(key, units)}." if _assumes(key, units) else "."]
    return out


def _settings(report, seed) -> list:
    level = 100 * (1 - report.alpha)
    out: list = [f" Significance level α = {report.alpha:g}"
                 + (", family-wise over the pairs of the multiple comparisons"
                    if report.posthoc else "")
                 + f"; confidence intervals, where a test defines one, at {level:g}%."]
    bayesian = any(_bayesian(r) for r in (*report.tests.values(), *report.posthoc.values()))
    if bayesian:
        rope, rule = report.rope, report.rope_rule
        width = (f"±{rope:.3g} in {report.metric}" if isinstance(rope, (int, float))
                 and not isinstance(rope, bool) else "set per pair")
        if rule in (None, "given", "user"):
            source, cites = "fixed by the analyst before seeing the results", ()
        else:
            source = "by the rule " + _SOURCE.sub("", str(rule))
            cites = tuple(k for name, k in _ROPE_SOURCES.items() if k and name in str(rule))
        out += [" The Bayesian tests decide “better” or “practically equivalent” with a "
                f"region of practical equivalence (ROPE) of {width}, {source}"]
        if cites:
            out += [" ", _Cite(cites)]
        threshold = report.threshold
        out.append(f", at a posterior probability of {threshold:g}." if threshold else ".")
    if seed is not None and (bayesian or report.runs is not None):
        out.append(f" Monte Carlo draws and bootstrap resamples use the seed {seed}.")
    return out


def software_text(report=None) -> str:
    """The software and versions that computed a report: outperform, Python, numpy, scipy,
    pandas, and matplotlib (figures) or NumPyro (hierarchical models) when used."""
    names = ["numpy", "scipy", "pandas"]
    if report is not None and report.question == "Q3" and len(report.models) > 2:
        names.append("matplotlib")
    if report is not None and any(k.startswith("hierarchical") for k in report.tests):
        names += ["numpyro", "jax"]
    versions = ", ".join(f"{n} {v}" for n in names if (v := _version(n)))
    py = ".".join(map(str, sys.version_info[:3]))
    return f" Computed with outperform {__version__} (Python {py}; {versions})."


def _parts(report, seed) -> list:
    return [*_question(report), " ", _design(report), " ", *_tests(report),
            *_settings(report, seed), software_text(report)]


def methods_keys(report) -> list[str]:
    """BibTeX keys the methods paragraph of ``report`` cites, in the order cited, each once."""
    keys = [k for p in _parts(report, None) if isinstance(p, _Cite) for k in p.keys]
    return list(dict.fromkeys(keys))


def _render(parts, fmt: str) -> str:
    from ._latex import latex_escape

    out = []
    for p in parts:
        if isinstance(p, _Cite):
            if not p.keys:
                continue
            if fmt == "latex":
                out.append(f"\\cite{'t' if p.textual else 'p'}{{{','.join(p.keys)}}}")
            elif p.textual:
                who, year = author_year(p.keys[0]).rsplit(" ", 1)
                out.append(f"{who} ({year})")
            else:
                out.append("(" + "; ".join(author_year(k) for k in p.keys) + ")")
        else:
            out.append(latex_escape(p) if fmt == "latex" else p)
    return re.sub(r" +", " ", "".join(out)).replace(" .", ".").replace(" ,", ",").strip()


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        from .._validation import InvalidInputError

        raise InvalidInputError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}.")


def methods_paragraph(report, format: str = "latex", *, seed: int | None = None) -> str:
    r"""One paragraph for the methods section of a paper, describing how ``report`` was made.

    It names the question (Q1/Q2/Q3 of Williams 2026 §1), the design (fixed and random
    factors, folds and their correlation, data sets), the test the decision rests on and its
    assumptions, the other tests, the multiple comparison procedure, α, the ROPE and its
    source, the seed of the Monte Carlo draws and the software versions; each procedure is
    cited (its registry record's ``references``; :func:`bibtex` writes the entries).

    Parameters
    ----------
    report : ComparisonReport
    format : {"latex", "markdown", "text"}
        ``latex``: natbib's ``\citet``/``\citep`` with the keys of ``references.bib``;
        ``markdown`` and ``text``: author–year citations.
    seed : int, optional
        The seed the analysis used (``random_state``, ``--seed``), stated when it drew
        Monte Carlo samples or bootstrap resamples.

    Returns
    -------
    str
        One paragraph, without a trailing newline.

    Raises
    ------
    InvalidInputError
        Unknown ``format``.

    Examples
    --------
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> text = methods_paragraph(compare(load_demsar_table6()), format="markdown")
    >>> "Iman & Davenport 1980" in text, "Nemenyi 1963" in text
    (True, True)
    """
    _check_format(format)
    return _render(_parts(report, seed), format)


def checklist_answer(report, format: str = "latex") -> str:
    """The answer to item 7 of the NeurIPS paper checklist (experiment statistical
    significance), in one line: what was tested, at what level, over which source of
    variability, with what interval, and where the assumptions are stated."""
    _check_format(format)
    units = _n_units(report)
    decide = _phrase(report.recommended) if report.recommended else "the tests above"
    rec = report.tests.get(report.recommended)
    level = (f"a posterior probability of {report.threshold:g}"
             if rec is not None and _bayesian(rec) and report.threshold
             else f"α = {report.alpha:g}")
    bayes = any(_bayesian(r) for r in (*report.tests.values(), *report.posthoc.values()))
    text = (f"NeurIPS paper checklist, item 7 (experiment statistical significance): Yes. "
            f"Paired comparisons over {units} (the variability the conclusions generalise "
            f"over); the decision rests on {decide} at {level}, with effect sizes and "
            f"{100 * (1 - report.alpha):g}% confidence intervals where a test defines one"
            + ("; Bayesian tests give posterior probabilities with a ROPE" if bayes else "")
            + "; the assumptions of each test are stated in the methods.")
    if format == "latex":
        from ._latex import latex_escape

        return "\\noindent " + latex_escape(text)
    return text


def references_list(report) -> str:
    """The references the methods paragraph cites, one plain-text line each (Markdown list)."""
    return "\n".join(f"- {reference_line(k)}" for k in methods_keys(report))
