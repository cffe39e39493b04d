"""``mlflow://`` URIs: the tracking server (or SQLite store) and the experiment or run they
name, with the params of the roles in their query (see :mod:`outperform.data._mlflow`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

from .._validation import InvalidInputError

SCHEMES = ("mlflow", "mlflow+http", "mlflow+https")
_QUERY = {"model", "task", "fold", "seed", "metric", "experiment", "run"}
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


@dataclass(frozen=True)
class MlflowURI:
    """What an ``mlflow://`` URI names: the tracking URI, the experiment (or run) and the
    params of the roles given in its query."""

    tracking_uri: str
    name: str
    options: dict = field(default_factory=dict)


def is_mlflow_uri(source) -> bool:
    """Whether ``source`` is a string naming MLflow runs (``mlflow://...``).

    >>> is_mlflow_uri("mlflow://localhost:5000/sweep"), is_mlflow_uri("results.csv")
    (True, False)
    """
    return isinstance(source, str) and source.split(":", 1)[0].lower() in SCHEMES \
        and ":" in source


def parse_mlflow_uri(uri: str, what: str = "experiment") -> MlflowURI:
    """The tracking URI, the experiment (or run id, ``what="run"``) and the options of an
    ``mlflow://`` URI (see the module's table).

    Raises
    ------
    InvalidInputError
        No experiment (or run) named, a local store that is not a SQLite file, an unknown
        query key.

    Examples
    --------
    >>> parse_mlflow_uri("mlflow://127.0.0.1:5000/my%20sweep?model=algo")
    MlflowURI(tracking_uri='http://127.0.0.1:5000', name='my sweep', options={'model': 'algo'})
    >>> parse_mlflow_uri("mlflow:///tmp/runs/mlflow.db/sweep").tracking_uri
    'sqlite:////tmp/runs/mlflow.db'
    """
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    unknown = sorted(set(query) - _QUERY)
    if unknown:
        raise InvalidInputError(
            f"{uri!r}: unknown query key(s) {unknown}; the query names params and the "
            f"metric: {', '.join(sorted(_QUERY))} (e.g. ?model=algo&task=dataset).")
    path = unquote(parts.path)
    if parts.netloc:
        http = "https" if scheme == "mlflow+https" else "http"
        tracking, name = f"{http}://{parts.netloc}", path.strip("/")
    else:
        pieces = path.split("/")
        at = next((i for i, p in enumerate(pieces) if p.lower().endswith(SQLITE_SUFFIXES)), None)
        if at is None:
            raise InvalidInputError(
                f"{uri!r}: a local MLflow store is named by its SQLite file, "
                "mlflow:///path/to/mlflow.db/EXPERIMENT (a tracking server: "
                "mlflow://HOST:PORT/EXPERIMENT).")
        tracking = "sqlite:///" + "/".join(pieces[:at + 1])
        name = "/".join(pieces[at + 1:]).strip("/")
    name = query.pop(what, None) or name
    query.pop("experiment" if what == "run" else "run", None)
    if not name:
        raise InvalidInputError(
            f"{uri!r} names no {what}: give it after the address, e.g. "
            f"mlflow://HOST:PORT/{what.upper()}, or as ?{what}=...")
    return MlflowURI(tracking, name, query)


def public_uri(uri: str) -> str:
    """The tracking URI without user and password (for messages and provenance)."""
    parts = urlsplit(uri)
    if parts.username is None and parts.password is None:
        return uri
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=host).geturl()
