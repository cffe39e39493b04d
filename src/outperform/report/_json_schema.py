"""The documented JSON schema of a ComparisonReport, and validation against it.

``schema.json`` (JSON Schema draft 2020-12, shipped with the package) describes every field
of :meth:`ComparisonReport.to_dict`, which is what ``render_json`` and ``outperform report``
write. Its ``schema_version`` follows :data:`outperform.results.SCHEMA_VERSION`: a new optional
field raises the minor number, a removed or retyped field the major number. Validation uses
the ``jsonschema`` package.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files

from .._validation import InvalidInputError


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return files("outperform.report").joinpath("schema.json").read_text(encoding="utf-8")


def load_schema() -> dict:
    """Return the JSON schema of a report as a dictionary.

    The descriptions of ``tests`` and ``posthoc`` end with the keys they may hold, read from
    the registry of procedures (:func:`outperform.compare.procedures`).

    Examples
    --------
    >>> schema = load_schema()
    >>> schema["properties"]["schema_version"]["const"]
    '1.1'
    """
    from ..compare._registry import keys_text

    schema = json.loads(_schema_text())
    for slot in ("tests", "posthoc"):
        field = schema["properties"][slot]
        field["description"] += f" Keys: {keys_text(slot)}."
    return schema


def validate_report(report) -> dict:
    """Check a report, or its JSON dictionary, against the schema.

    Parameters
    ----------
    report : ComparisonReport, dict or str
        A report, the dictionary of ``report.to_dict()``, or JSON text of one.

    Returns
    -------
    dict
        The validated dictionary.

    Raises
    ------
    InvalidInputError
        The dictionary does not follow the schema; the message gives the first offending
        field's path and what is wrong with it.
    ImportError
        The ``jsonschema`` package is not installed.

    Examples
    --------
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> validate_report(compare(load_demsar_table6()))["schema_version"]
    '1.1'
    """
    try:
        import jsonschema
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("validate_report needs the jsonschema package: "
                          "pip install jsonschema") from err
    if isinstance(report, str):
        data = json.loads(report)
    elif isinstance(report, dict):
        data = report
    else:
        # A round trip through JSON text checks that the dictionary is JSON-safe too.
        data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    validator = jsonschema.Draft202012Validator(load_schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise InvalidInputError(f"the report does not follow the JSON schema at {where}: "
                                f"{error.message}")
    return data
