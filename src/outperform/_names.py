"""Names of the k models of a comparison table."""
from __future__ import annotations

from typing import Sequence

from ._validation import InvalidInputError


def model_names(names: Sequence[str] | None, k: int) -> tuple[str, ...]:
    """``names`` as a tuple of k distinct strings (default ``"model 0"``, ``"model 1"``, ...)."""
    if names is None:
        return tuple(f"model {j}" for j in range(k))
    if isinstance(names, str):
        raise InvalidInputError("names must be a sequence of model names, not one string.")
    out = tuple(str(name) for name in names)
    if len(out) != k:
        raise InvalidInputError(
            f"names has {len(out)} entries but there are {k} models: give {k} distinct names.")
    if len(set(out)) != k:
        raise InvalidInputError(f"names must be unique: give {k} distinct names, got {out}.")
    return out
