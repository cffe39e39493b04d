"""The one registry of statistical procedures: what each is called, assumes, decides and runs.

Every procedure that :func:`outperform.compare.compare`, :func:`compare_evals` or
:func:`leaderboard` can report, or that a user can pick (each ``posthoc=`` / ``--posthoc``
value), has one :class:`Procedure` record here (the records are in :mod:`._procedures`).
The options ``compare`` accepts, the labels and phrases of the report's sentences, the
"assumes" notes of the report, the help of ``--posthoc`` and the key lists of the JSON
schema's text are read from it, so each fact is written once.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module

#: What a procedure decides.
#: ("estimate": an estimate with its interval, no decision: corrected means, agreement.)
DECIDES = ("omnibus", "pairwise", "against control", "equivalence", "non-inferiority",
           "with the best", "best set", "estimate")
#: How a procedure uses a control model: never, optionally, or only with one.
CONTROL = ("no", "optional", "required")
#: Where a result is reported: ComparisonReport.tests / .posthoc / .best, a Leaderboard, the
#: runs x tasks output of ``aggregate``, or nowhere yet (a kernel a user calls).
SLOTS = ("tests", "posthoc", "leaderboard", "best", "runs")


@dataclass(frozen=True)
class Procedure:
    """One statistical procedure, as every layer above the kernels names and explains it.

    Attributes
    ----------
    key : str
        Its key in ``ComparisonReport.tests`` / ``posthoc`` (and the ``posthoc=`` value).
    label : str
        Short name that starts a conclusion, e.g. ``"Nemenyi"``, ``"Holm"``.
    phrase : str
        How a sentence names it, with its source, e.g. ``"Holm's procedure"``.
    assumptions : str
        What it assumes, one or two sentences from the source paper; ``{units}`` stands for
        what it treats as independent observations (test examples, folds, data sets).
    decides : str
        One of :data:`DECIDES`.
    kernel : str
        The function that runs it, ``"module:function"``.
    source : str
        Paper and section.
    missing_cells : bool
        Runs on a table with missing (data set, model) cells.
    control : str
        One of :data:`CONTROL`.
    clusters : bool
        Accounts for clustered items (cluster-robust, or on cluster means).
    posthoc : bool
        A value of ``posthoc=`` / ``--posthoc``.
    help : str
        Words after its key in the help of ``--posthoc`` (post-hoc procedures only).
    reported_in : tuple of str
        Members of :data:`SLOTS` where its result appears (empty: a kernel users call).
    references : tuple of str
        BibTeX keys of the works it comes from, entries of ``outperform/report/references.bib``
        (:func:`outperform.report.bibtex` writes them; a methods paragraph cites them).
    """

    key: str
    label: str
    phrase: str
    assumptions: str
    decides: str
    kernel: str
    source: str
    missing_cells: bool = False
    control: str = "no"
    clusters: bool = False
    posthoc: bool = False
    help: str = ""
    reported_in: tuple[str, ...] = ("tests",)
    references: tuple[str, ...] = ()

    def __post_init__(self):
        if (self.decides not in DECIDES or self.control not in CONTROL
                or not set(self.reported_in) <= set(SLOTS)):
            raise ValueError(f"{self.key}: decides must be one of {DECIDES} and control one "
                             f"of {CONTROL}, reported_in within {SLOTS}.")

    def run(self):
        """The kernel function (imported on first use)."""
        module, name = self.kernel.split(":")
        return getattr(import_module(module), name)

    def assumes(self, units: str = "units") -> str:
        """The assumption note with ``units`` (e.g. ``"data sets"``) filled in."""
        return self.assumptions.format(units=units)


@cache
def _records() -> dict[str, Procedure]:
    from ._procedures import PROCEDURES

    out = {p.key: p for p in PROCEDURES}
    if len(out) != len(PROCEDURES):
        raise ValueError("two procedures share a key in compare._procedures.")
    return out


def procedures() -> tuple[Procedure, ...]:
    """Every registered procedure, in the registry's order.

    Examples
    --------
    >>> {p.decides for p in procedures()} == set(DECIDES)
    True
    """
    return tuple(_records().values())


def procedure(key: str) -> Procedure:
    """The record of ``key``.

    Raises
    ------
    KeyError
        ``key`` is not registered (a procedure added without its record).

    Examples
    --------
    >>> procedure("holm").label, procedure("holm").control
    ('Holm', 'optional')
    >>> procedure("bonferroni-dunn").control, procedure("nemenyi").control
    ('required', 'no')
    """
    try:
        return _records()[key]
    except KeyError:
        raise KeyError(f"no procedure {key!r} in outperform.compare's registry "
                       "(compare/_procedures.py): add its record.") from None


def label(key: str) -> str:
    """Short name of ``key`` for sentences (the key itself when it is not registered)."""
    rec = _records().get(key)
    return rec.label if rec else key


def choices(option: str = "posthoc") -> tuple[str, ...]:
    """The values an option accepts, from the registry.

    Parameters
    ----------
    option : {"posthoc", "posthoc_missing"}
        ``"posthoc"``: every ``posthoc=`` value, with ``"auto"`` first and ``"none"`` last;
        ``"posthoc_missing"``: those that run on a table with missing cells.

    Examples
    --------
    >>> choices("posthoc_missing")
    ('auto', 'wilcoxon-holm', 'durbin', 'none')
    """
    if option not in ("posthoc", "posthoc_missing"):
        raise ValueError(f"option must be 'posthoc' or 'posthoc_missing', got {option!r}.")
    keys = [p.key for p in procedures() if p.posthoc
            and (option == "posthoc" or p.missing_cells)]
    return ("auto", *keys, "none")


def posthoc_help() -> str:
    """The help text of ``--posthoc``: every value and what it does, from the registry."""
    parts = [f"{p.key} ({p.help})" if p.help else p.key
             for p in procedures() if p.posthoc]
    return ("Post-hoc test after the omnibus test: auto (Holm with --control, else Nemenyi; "
            "Wilcoxon–Holm with missing cells; explained in the report); " + "; ".join(parts)
            + "; none (the omnibus test and average ranks only). Give it twice to run two on "
            "one ranking, e.g. --posthoc nemenyi --posthoc holm --control X.")


def keys_text(slot: str) -> str:
    """The registered keys reported in ``slot`` (``"tests"``, ``"posthoc"`` or ``"best"`` of
    a ComparisonReport, ``"leaderboard"``), comma-separated: the JSON schema's descriptions."""
    if slot not in SLOTS:
        raise ValueError(f"slot must be one of {SLOTS}, got {slot!r}.")
    return ", ".join(p.key for p in procedures() if slot in p.reported_in)
