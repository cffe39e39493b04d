"""references.bib (report/_references.py): it parses with a well-kept BibTeX parser, every entry
has author, title, year and venue, and every registry procedure's references resolve to it
(issue 28, item 2)."""
from __future__ import annotations

from importlib.resources import files

import pytest

from outperform.compare._registry import procedures
from outperform.report import bibtex
from outperform.report._references import (VENUE_FIELDS, author_year, load_references, plain,
                                           reference, reference_line)

bibtexparser = pytest.importorskip("bibtexparser")


def _parsed():
    text = files("outperform.report").joinpath("references.bib").read_text(encoding="utf-8")
    return bibtexparser.parse_string(text)


def test_the_shipped_file_parses_without_errors_or_duplicate_keys():
    library = _parsed()
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    keys = [e.key for e in library.entries]
    assert len(keys) == len(set(keys))
    # the package's own reader sees the same entries, in the same order
    assert keys == list(load_references())


def test_every_entry_has_author_title_year_and_venue():
    for entry in _parsed().entries:
        fields = {f.key.lower(): f.value for f in entry.fields}
        assert fields.get("author") and fields.get("title"), entry.key
        assert fields.get("year", "").isdigit() and len(fields["year"]) == 4, entry.key
        assert any(fields.get(v) for v in VENUE_FIELDS), entry.key


def test_the_package_reader_agrees_with_bibtexparser_field_by_field():
    ours = load_references()
    for entry in _parsed().entries:
        theirs = {f.key.lower(): f.value for f in entry.fields}
        assert ours[entry.key].fields == theirs, entry.key
        assert ours[entry.key].kind == entry.entry_type.lower()


def test_every_registered_procedure_cites_works_that_are_in_the_file():
    keys = set(load_references())
    for p in procedures():
        assert p.references, f"{p.key}: no references in its registry record"
        missing = set(p.references) - keys
        assert not missing, (p.key, missing)


def test_every_entry_is_cited_by_a_procedure_or_the_methods_paragraph():
    # A work nobody cites is dead weight that nobody keeps checked.
    cited = {k for p in procedures() for k in p.references} | {"williams2026",
                                                               "dietterich1998"}
    assert set(load_references()) == cited


@pytest.mark.parametrize("key, year, venue", [
    # Demšar (2006), References (pp. 28-30): the founding paper's own reference list.
    ("holm1979", "1979", "Scandinavian Journal of Statistics"),
    ("iman1980", "1980", "Communications in Statistics"),
    ("wilcoxon1945", "1945", "Biometrics Bulletin"),
    ("nemenyi1963", "1963", "Princeton University"),
    # Corani & Benavoli (2015), References: Nadeau & Bengio, Machine Learning 52(3).
    ("nadeau2003", "2003", "Machine Learning"),
    # Williams (2026), References: Benavoli et al., JMLR 18(77).
    ("benavoli2017", "2017", "Journal of Machine Learning Research"),
])
def test_details_match_the_reference_lists_of_the_papers(key, year, venue):
    fields = reference(key).fields
    assert fields["year"] == year
    assert venue in {fields.get(v) for v in VENUE_FIELDS}


def test_short_and_long_forms():
    assert author_year("demsar2006") == "Demšar 2006"
    assert author_year("garcia2008") == "García & Herrera 2008"
    assert author_year("corani2017") == "Corani et al. 2017"
    assert plain(r"Fran{\c{c}}ois") == "François"
    assert reference_line("holm1979") == ("Holm, Sture (1979). A Simple Sequentially Rejective "
                                          "Multiple Test Procedure. Scandinavian Journal of "
                                          "Statistics, 6, 65–70.")


def test_bibtex_of_keys_keeps_order_and_writes_each_once():
    text = bibtex(["holm1979", "demsar2006", "holm1979"])
    assert text.index("@article{holm1979,") < text.index("@article{demsar2006,")
    assert text.count("@article{holm1979,") == 1
    library = bibtexparser.parse_string(text)
    assert [e.key for e in library.entries] == ["holm1979", "demsar2006"]


def test_an_unknown_key_is_named():
    with pytest.raises(KeyError, match="no entry 'nobody2099'.*references.bib"):
        bibtex(["nobody2099"])
