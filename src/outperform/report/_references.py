"""The references of the procedures: ``references.bib`` shipped beside this module, read once.

The registry of procedures (:mod:`outperform.compare._procedures`) names, for each procedure,
the BibTeX keys of the works it comes from; the entries themselves are in one place, the
package file ``outperform/report/references.bib``. :func:`bibtex` writes the entries a report
cites (for a paper's ``\\bibliography``), :func:`author_year` the short form the Markdown
methods paragraph cites, :func:`reference_line` a full reference in plain text.

The file is read by a small reader of the BibTeX this package writes (``@type{key,`` and
``field = {value}`` lines, one entry after the other), not a general BibTeX parser; the test
suite parses the same file with bibtexparser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

#: Fields that say where a work appeared (one is required of every entry).
VENUE_FIELDS = ("journal", "booktitle", "publisher", "school", "institution")

_ENTRY = re.compile(r"^@(\w+)\{([^,\s]+),\s*$")
_FIELD = re.compile(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$")
# LaTeX accents of the file -> Unicode, for Markdown and text.
_ACCENTS = {r"{\v{s}}": "š", r"{\'i}": "í", r"{\'a}": "á", r"{\c{c}}": "ç", r"{\"u}": "ü",
            r"{\i}": "ı", r"\&": "&", "--": "–", r"$\times$": "×", "$m$": "m", "``": "“",
            "''": "”"}


@dataclass(frozen=True)
class Reference:
    """One BibTeX entry: its ``kind`` (article, book, ...), ``key``, ``fields`` and the
    entry's text as written in ``references.bib``."""

    kind: str
    key: str
    fields: dict
    text: str


@cache
def load_references() -> dict[str, Reference]:
    """Every entry of ``references.bib`` by key, in the file's order.

    Raises
    ------
    ValueError
        The file has an entry this reader cannot read, or a key twice (a packaging error).

    Examples
    --------
    >>> refs = load_references()
    >>> refs["demsar2006"].fields["journal"]
    'Journal of Machine Learning Research'
    """
    text = files("outperform.report").joinpath("references.bib").read_text(encoding="utf-8")
    out: dict[str, Reference] = {}
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        m = _ENTRY.match(lines[n])
        if not m:
            n += 1
            continue
        start, fields = n, {}
        n += 1
        while n < len(lines) and lines[n].strip() != "}":
            field = _FIELD.match(lines[n])
            if not field:
                raise ValueError(f"references.bib line {n + 1}: cannot read {lines[n]!r}.")
            fields[field.group(1).lower()] = field.group(2)
            n += 1
        kind, key = m.group(1).lower(), m.group(2)
        if key in out:
            raise ValueError(f"references.bib: the key {key!r} is given twice.")
        out[key] = Reference(kind, key, fields, "\n".join(lines[start:n + 1]))
        n += 1
    return out


def reference(key: str) -> Reference:
    """The entry of ``key``.

    Raises
    ------
    KeyError
        ``key`` has no entry in ``references.bib`` (a registry record naming a missing work).
    """
    try:
        return load_references()[key]
    except KeyError:
        raise KeyError(f"no entry {key!r} in outperform/report/references.bib: add it.") from None


def plain(text: str) -> str:
    """``text`` of a BibTeX field without LaTeX: accents as Unicode, braces dropped.

    Examples
    --------
    >>> plain(r"Dem{\\v{s}}ar, Janez")
    'Demšar, Janez'
    """
    for tex, uni in _ACCENTS.items():
        text = text.replace(tex, uni)
    return text.replace("{", "").replace("}", "")


def _surnames(key: str) -> list[str]:
    authors = plain(reference(key).fields["author"]).split(" and ")
    return [a.split(",")[0].strip() if "," in a else a.strip().split(" ")[-1] for a in authors]


def author_year(key: str) -> str:
    """The short citation of ``key``: "Demšar 2006", "Nadeau & Bengio 2003", "Benavoli et al.
    2017".

    Examples
    --------
    >>> author_year("nadeau2003"), author_year("benavoli2017")
    ('Nadeau & Bengio 2003', 'Benavoli et al. 2017')
    """
    names, year = _surnames(key), reference(key).fields["year"]
    who = (names[0] if len(names) == 1 else " & ".join(names) if len(names) == 2
           else f"{names[0]} et al.")
    return f"{who} {year}"


def reference_line(key: str) -> str:
    """A full reference of ``key`` in plain text, e.g. "Holm, S. (1979). A Simple ... .
    Scandinavian Journal of Statistics, 6, 65–70."."""
    f = {k: plain(v) for k, v in reference(key).fields.items()}
    venue = next((f[v] for v in VENUE_FIELDS if v in f), "")
    where = ", ".join(x for x in (venue, f.get("volume", ""), f.get("pages", "")) if x)
    doi = f" doi:{f['doi']}" if "doi" in f else ""
    return f"{f['author'].replace(' and ', ', ')} ({f['year']}). {f['title']}. {where}.{doi}"


def bibtex(keys) -> str:
    """The BibTeX entries of ``keys`` (in the order given, each once), as one string.

    ``keys`` is a sequence of BibTeX keys, or a report (a
    :class:`~outperform.results.ComparisonReport`): then the works its methods paragraph
    cites (:func:`outperform.report.methods_keys`).

    Raises
    ------
    KeyError
        A key without an entry.

    Examples
    --------
    >>> print(bibtex(["holm1979"]).splitlines()[1])
    @article{holm1979,
    """
    if not isinstance(keys, (list, tuple)):
        from ._methods import methods_keys

        keys = methods_keys(keys)
    entries = [reference(k).text for k in dict.fromkeys(keys)]
    return ("% References written by outperform: the works its methods paragraph cites.\n"
            + "\n\n".join(entries) + "\n")
