"""The package's exceptions and warning classes, and the one table of optional dependencies.

Re-exported by :mod:`outperform._validation` (where the checks that raise them live) and by
:mod:`outperform`: ``except outperform.OutperformError`` catches every refusal of input,
``warnings.filterwarnings("ignore", category=outperform.OutperformWarning)`` silences every
warning of the package.
"""
from __future__ import annotations


class OutperformError(ValueError):
    """Base class of the errors raised for bad input (a ``ValueError``)."""


class InvalidInputError(OutperformError):
    """The values given cannot be used: NaN, wrong shape, wrong type, negative counts, ..."""


class TooFewError(OutperformError):
    """Too few data sets, models, folds or examples for the requested procedure."""


class DegenerateDataError(OutperformError):
    """The data carry no information for the test, e.g. all differences are zero."""


#: Top-level module of an optional dependency -> (what to call it, the extra of
#: pyproject.toml's [project.optional-dependencies] that installs it).
EXTRAS = {
    "numpyro": ("NumPyro", "bayes"),
    "jax": ("JAX", "bayes"),
    "jaxlib": ("JAX", "bayes"),
    "flatbuffers": ("flatbuffers", "bayes"),
    "dask": ("Dask", "dask"),
    "distributed": ("dask.distributed", "dask"),
    "inspect_ai": ("inspect_ai", "inspect"),
    "numba": ("numba", "fast"),
    "arch": ("arch", "mcs"),
    "mlflow": ("MLflow", "mlflow"),
    "tensorboard": ("TensorBoard", "tensorboard"),
}


class MissingDependencyError(ModuleNotFoundError, OutperformError):
    """An optional dependency is not installed; the message names the extra that installs it.

    A ``ModuleNotFoundError`` (so ``except ImportError`` still catches it) and an
    :class:`OutperformError` (so the command line prints it as one line, no traceback).
    ``name`` is the missing module, ``extra`` the extra: ``pip install 'outperform[extra]'``.
    """

    def __init__(self, module: str, purpose: str | None = None):
        top = module.split(".")[0]
        label, extra = EXTRAS.get(top, (top, None))
        needed = f"{label} is needed" + (f" for {purpose}" if purpose else "")
        fix = (f"pip install 'outperform[{extra}]'" if extra else f"pip install {top}")
        super().__init__(f"{needed}: {fix}", name=module)
        self.extra = extra

    def __reduce__(self):
        return (type(self), (self.name,))


def require(module: str, purpose: str | None = None):
    """Import ``module`` (e.g. ``"numpyro"``), or raise :class:`MissingDependencyError`.

    Raises
    ------
    MissingDependencyError
        ``module`` (or a module it imports, such as jax for numpyro) is not installed.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        if missing.split(".")[0] not in EXTRAS and module.split(".")[0] not in EXTRAS:
            raise
        raise MissingDependencyError(missing if missing.split(".")[0] in EXTRAS else module,
                                     purpose) from exc


class OutperformWarning(UserWarning):
    """Base of every warning the package emits: ``warnings.filterwarnings("ignore",
    category=OutperformWarning)`` silences them all (a ``UserWarning``)."""


class ConvergenceWarning(OutperformWarning, RuntimeWarning):
    """An MCMC fit may not have converged: R-hat above its bound, too few effective draws,
    or divergent transitions. Its numbers should not be trusted as they stand."""


class PerformanceWarning(OutperformWarning, RuntimeWarning):
    """About the time a computation takes: a slower route gives the same result (e.g. a
    compiled kernel could not be loaded), or long work is about to start (its estimated time
    and memory, from :func:`outperform._cost.check_cost`, before the first step)."""


class OutperformDeprecationWarning(OutperformWarning, DeprecationWarning):
    """A name or option is deprecated; the message names its replacement. Hidden by
    Python's default filters outside ``__main__``, like every ``DeprecationWarning``."""
