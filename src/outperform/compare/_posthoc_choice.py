"""Which post-hoc procedures a Q3 analysis runs, checked against the registry of procedures,
and how the rationale and the warnings name them."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ..stats._logical import BERGMANN_MAX_K
from ._registry import choices, label as _label, procedure

#: The values of ``posthoc=``, from the registry of procedures (``"auto"`` ... ``"none"``).
POSTHOC = choices("posthoc")


def _procedures(posthoc) -> list[str]:
    """``posthoc`` as a list of procedures: one name, or several (not "auto"/"none")."""
    if isinstance(posthoc, str):
        if posthoc not in POSTHOC:
            raise InvalidInputError(f"posthoc must be one of {POSTHOC}, got {posthoc!r}.")
        return [posthoc]
    several = list(posthoc) if isinstance(posthoc, (list, tuple)) else None
    if (not several or any(not isinstance(p, str) or p not in POSTHOC[1:-1] for p in several)
            or len(set(several)) < len(several)):
        raise InvalidInputError(
            f"posthoc must be one of {POSTHOC}, or a sequence of distinct procedures other "
            f"than 'auto' and 'none' (e.g. ('nemenyi', 'holm')), got {posthoc!r}.")
    return several


def _check_control(procedures: list[str], control) -> None:
    """Refuse a post-hoc procedure given without the control it needs, or alone with one it
    cannot use (what each supports is in the registry of procedures); in a sequence, the
    all-pairs procedures run beside those that use the control."""
    for p in procedures:
        if p in ("auto", "none"):
            continue
        uses = procedure(p).control
        if uses == "required" and control is None:
            raise InvalidInputError(f"posthoc={p!r} compares each model with a control: pass "
                                    "control= (--control).")
        if uses == "no" and control is not None and len(procedures) == 1:
            others = [q for q in POSTHOC[1:-1] if procedure(q).control != "no"]
            what = ("each model with the best of the others"
                    if procedure(p).decides == "with the best" else "all pairs")
            raise InvalidInputError(
                f"posthoc={p!r} compares {what}: drop control= (--control), or choose "
                f"one that compares with a control: {', '.join(others)}.")


def _posthoc_phrase(posthoc: str, control, k: int) -> str:
    """The post-hoc procedure run, with its source, for the rationale."""
    if posthoc == "none":
        return "no post-hoc test (posthoc='none')"
    if posthoc == "nemenyi":
        better = ("posthoc='bergmann' (Bergmann–Hommel) or 'shaffer'" if k <= BERGMANN_MAX_K
                  else "posthoc='shaffer'")
        return ("the Nemenyi test on all pairs; " + better + " would reject more pairs at the "
                "same family-wise level (García & Herrera 2008)")
    if posthoc == "mcb":
        return procedure(posthoc).phrase + ", each model against the best of the others"
    if posthoc == "dunnett":
        return procedure(posthoc).phrase + " against the control"
    return procedure(posthoc).phrase + (" against the control" if control else " on all pairs")


def _procedures_differ(post: dict, names) -> str | None:
    """Several post-hoc procedures that decide a pair differently (each in its own family):
    name the pairs, so that no two conclusions are read as one verdict."""
    if len(post) < 2:
        return None
    k = len(names)
    rows, cols = np.triu_indices(k, 1)
    decided = []    # per procedure: decision on each pair, NaN where it does not test it
    for res in post.values():
        d = res.reject[rows, cols].astype(float)
        if res.control is not None:
            c = names.index(res.control)
            d[(rows != c) & (cols != c)] = np.nan
        decided.append(d)
    d = np.array(decided)
    both = (np.nanmax(d, axis=0, initial=-1) == 1) & (np.nanmin(d, axis=0, initial=2) == 0)
    if not both.any():
        return None
    pairs = [f"{names[i]} vs {names[j]}" for i, j in zip(rows[both], cols[both])]
    all_pairs = next((key for key, r in post.items() if r.control is None), None)
    letters = ("" if all_pairs is None else   # letters come from an all-pairs procedure only
               f", and the letters are those of {_label(all_pairs)}")
    return (f"the post-hoc procedures ({', '.join(_label(key) for key in post)}) decide "
            f"differently on {', '.join(pairs)}: each tests its own family of pairs; every "
            f"conclusion names the procedure that decides it{letters}.")
