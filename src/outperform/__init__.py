"""outperform: is model A really better than model B, how sure is that, and by how much?

Statistical comparison of machine-learning models and algorithms after Demšar (2006),
Lacoste, Laviolette & Marchand (2012), Corani & Benavoli (2015) and Williams (2026).
"""
from ._validation import DegenerateDataError, InvalidInputError, OutperformError, TooFewError

__version__ = "0.1.0"

__all__ = [
    "DegenerateDataError",
    "InvalidInputError",
    "OutperformError",
    "TooFewError",
    "__version__",
]
