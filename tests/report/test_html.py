"""The self-contained HTML report: checklist order, tables, inline SVG, escaping, no requests."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pytest
from scipy import stats

from _report_cases import CASES, DEMSAR_SENTENCES, NASTY, report
from outperform.data import load_demsar_table2
from outperform.report import render_html

VOID = {"meta", "link", "br", "hr", "img", "input", "source", "wbr", "col", "area", "base"}
CHECKLIST = ["question", "metric", "design", "tests", "inferences", "warnings"]
FIGURES = {  # kinds of the inline figures each case must show, in order
    "table6_005": ["cd"], "table6_010": ["cd"], "table6_control": ["cd"],
    "table6_bayes": ["cd"], "table2_bayes": ["simplex", "simplex"], "q2_two": ["posterior"],
    "q2_three": [], "q1_labels": ["posterior"], "q1_log": ["posterior"], "q1_three": ["ranks"],
    "q3_folds": ["simplex", "simplex", "wins"], "nasty": ["cd"],
}


class Page(HTMLParser):
    """Parse a page: visible text, elements with attributes, comments, and nesting errors."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.elements, self.comments = [], [], [], []
        self.text_parts, self.tables = [], []
        self.feed(html)
        self.close()
        self.text = re.sub(r"\s+", " ", "".join(self.text_parts))
        if self.stack:
            self.errors.append(f"unclosed {self.stack}")

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), list(self.stack)))
        if tag == "table":
            self.tables.append({"id": dict(attrs).get("id"), "rows": []})
        if tag == "tr" and self.tables:
            self.tables[-1]["rows"].append({"class": dict(attrs).get("class"), "cells": []})
        if tag in ("td", "th") and self.tables:
            self.tables[-1]["rows"][-1]["cells"].append("")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs), list(self.stack)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if "style" in self.stack or "svg" in self.stack:
            return
        self.text_parts.append(data)
        if self.tables and {"td", "th"} & set(self.stack) and self.tables[-1]["rows"]:
            self.tables[-1]["rows"][-1]["cells"][-1] += data

    def handle_comment(self, data):
        self.comments.append(data)

    def table(self, table_id):
        return next(t for t in self.tables if t["id"] == table_id)


@pytest.fixture(scope="module")
def pages():
    cache = {}

    def get(name):
        if name not in cache:
            html = render_html(report(name))
            cache[name] = (html, Page(html))
        return cache[name]
    return get


@pytest.mark.parametrize("name", CASES)
def test_page_is_well_formed_and_follows_the_checklist(pages, name):
    html, page = pages(name)
    assert html.startswith("<!DOCTYPE html>")
    assert page.errors == []
    sections = [a["id"] for tag, a, _ in page.elements if tag == "section"]
    assert sections == CHECKLIST
    headings = re.findall(r'<h2>(\d)\. ', html)
    assert headings == ["1", "2", "3", "4", "5", "6"]
    rep = report(name)
    assert rep.question in page.text and rep.metric in page.text
    for line in rep.conclusions + rep.warnings + (rep.rationale,):
        assert re.sub(r"\s+", " ", line) in page.text


@pytest.mark.parametrize("name", CASES)
def test_page_requests_nothing(pages, name):
    html, page = pages(name)
    tags = {tag for tag, _, _ in page.elements}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "video", "audio"}
    for tag, attrs, _ in page.elements:
        for key in ("src", "srcset", "data", "poster", "action"):
            assert key not in attrs, (tag, attrs)
        for key in ("href", "xlink:href"):
            if key in attrs:
                assert attrs[key].startswith("#"), (tag, attrs)   # in-page anchors only
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    assert not re.search(r"url\((?!#)", html) and "@import" not in html   # local refs only
    csp = next(a for tag, a, _ in page.elements if tag == "meta"
               and a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp["content"]


@pytest.mark.parametrize("name", sorted(DEMSAR_SENTENCES))
def test_demsar_table6_conclusions_as_in_the_paper(pages, name):
    _, page = pages(name)
    for sentence in DEMSAR_SENTENCES[name]:
        assert sentence in page.text


@pytest.mark.parametrize("name", CASES)
def test_figures_are_inline_svg_with_captions(pages, name):
    html, page = pages(name)
    figures = [a for tag, a, _ in page.elements if tag == "figure"]
    assert [f["data-kind"] for f in figures] == FIGURES[name]
    svgs = [stack for tag, _, stack in page.elements if tag == "svg"]
    assert len(svgs) == len(figures) and all("figure" in s for s in svgs)
    assert html.count("<figcaption>") == len(figures)
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html


def test_cd_diagram_names_every_model(pages):
    html, page = pages("table6_010")
    cd = re.search(r'<figure id="figure-cd-nemenyi".*?</figure>', html, re.S).group(0)
    # Matplotlib draws text as paths and writes the string beside it as a comment.
    labels = {c.strip() for c in re.findall(r"<!-- (.*?) -->", cd)}
    # Each name carries its compact letters, as in the report's table.
    rep = report("table6_010")
    assert {f"{row['model']} ({row['letters']})" for row in rep.summary} <= labels
    assert len(rep.summary) == len(rep.models)
    assert "CD = 1.12" in labels   # Demšar's CD for k = 4, N = 14, α = 0.10


def test_without_figures_the_page_has_no_svg():
    html = render_html(report("table6_010"), figures=False)
    assert "<svg" not in html and "<figure" not in html
    assert "C4.5+m+cf is significantly better than C4.5" in html


def test_hostile_model_names_are_escaped(pages):
    html, page = pages("nasty")
    assert page.errors == []
    assert "<script>" not in html
    assert not any(tag == "script" for tag, _, _ in page.elements)
    summary = page.table("table-summary")
    assert {row["cells"][0] for row in summary["rows"][1:]} == set(NASTY)
    for name in NASTY:
        assert name in page.text
    # A name that ends a comment must not end matplotlib's comment in the SVG.
    assert all("-->" not in c and "<" not in c for c in page.comments)


def test_title_is_escaped():
    html = render_html(report("q2_two"), figures=False, title="A < B & C")
    assert "<title>A &lt; B &amp; C</title>" in html


def test_recommended_test_is_marked(pages):
    _, page = pages("table2_bayes")
    rows = page.table("table-frequentist")["rows"]
    marked = [r["cells"][0] for r in rows if r["class"] == "decides"]
    assert marked == [report("table2_bayes").tests["wilcoxon"].method]


def test_paired_t_estimate_interval_and_effect_size_match_scipy(pages):
    """Demšar Table 2 (C4.5 vs C4.5+m): the paired t-test row carries the mean difference,
    its 95% CI and Cohen's d, checked against scipy.stats.ttest_rel."""
    _, page = pages("table2_bayes")
    rows = page.table("table-frequentist")["rows"]
    header = rows[0]["cells"]
    row = dict(zip(header, next(r["cells"] for r in rows if r["cells"][0] == "paired t-test")))
    wide = load_demsar_table2().frame.pivot(index="task", columns="model", values="auc")
    a, b = wide["C4.5"].to_numpy(), wide["C4.5+m"].to_numpy()
    ref = stats.ttest_rel(a, b)
    lo, hi = ref.confidence_interval(0.95)
    d = a - b
    assert row["estimate [95% CI]"] == f"{d.mean():.3g} [{lo:.3g}, {hi:.3g}]"
    assert row["p-value"] == f"{ref.pvalue:.3g}"
    cohen_d = d.mean() / d.std(ddof=1)
    assert row["effect size"] == f"Cohen's d = {cohen_d:.3f}"


def test_corrected_t_interval_matches_nadeau_bengio(pages):
    """Q2: the corrected resampled t interval is mean ± t(0.975, n-1) sqrt((1/n + rho/(1-rho))
    s^2) with rho = 1/k for k-fold CV (Nadeau & Bengio 2003), computed here from the folds."""
    from _report_cases import cv_folds

    _, page = pages("q2_two")
    rows = page.table("table-frequentist")["rows"]
    row = dict(zip(rows[0]["cells"], rows[1]["cells"]))
    df = cv_folds().sort_values(["run", "fold"])
    d = (df[df.model == "lr"].accuracy.to_numpy() - df[df.model == "svm"].accuracy.to_numpy())
    n, rho = d.size, 1 / 5
    half = stats.t.ppf(0.975, n - 1) * np.sqrt((1 / n + rho / (1 - rho)) * d.var(ddof=1))
    assert row["estimate [95% CI]"] == (f"{d.mean():.3g} [{d.mean() - half:.3g}, "
                                        f"{d.mean() + half:.3g}]")


def test_bayesian_table_names_the_models_and_gives_the_probabilities(pages):
    _, page = pages("q2_two")
    res = report("q2_two").tests["correlated_bayes"]
    rows = page.table("table-bayesian")["rows"]
    row = dict(zip(rows[0]["cells"], rows[1]["cells"]))
    assert row["P(lr better)"] == f"{res.p_a_better:.3f}"
    assert row["P(svm better)"] == f"{res.p_b_better:.3f}"
    assert row["P(equivalent)"] == f"{res.p_rope:.3f}"
    assert abs(sum(float(row[k]) for k in ("P(lr better)", "P(equivalent)", "P(svm better)"))
               - 1) < 2e-3
    assert rows[1]["class"] == "decides"


def test_posthoc_tables_have_one_row_per_pair(pages):
    _, page = pages("table6_control")
    holm = page.table("table-holm")["rows"]
    assert len(holm) - 1 == 3   # the control against the 3 others
    _, page = pages("q2_three")
    assert len(page.table("table-corrected_t_holm")["rows"]) - 1 == 3
    assert len(page.table("table-corrected_t_holm-bayes")["rows"]) - 1 == 3


def test_output_is_deterministic():
    assert render_html(report("table2_bayes")) == render_html(report("table2_bayes"))
