"""The JSON schema of ComparisonReport.to_dict(): documented, versioned, and met by real reports."""
from __future__ import annotations

import copy
import re
import json

import pytest

from _report_cases import CASES, DEMSAR_SENTENCES, report
from outperform import InvalidInputError
from outperform.report import render_json
from outperform.report import load_schema, validate_report
from outperform.results import SCHEMA_VERSION

jsonschema = pytest.importorskip("jsonschema", reason="the schema tests need jsonschema")


@pytest.fixture(scope="module")
def schema():
    return load_schema()


def test_schema_is_valid_json_schema(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("/draft/2020-12/schema")


def test_schema_version_matches_the_package(schema):
    assert schema["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    assert report("table6_005").to_dict()["schema_version"] == SCHEMA_VERSION


def test_every_top_level_field_is_documented(schema):
    props = schema["properties"]
    assert set(schema["required"]) == set(props)
    assert all(p.get("description") for p in props.values())
    assert set(report("table6_005").to_dict()) == set(props)


@pytest.mark.parametrize("name", CASES)
def test_real_reports_follow_the_schema(name):
    rep = report(name)
    data = validate_report(rep)
    assert data["question"] == rep.question
    validate_report(render_json(rep))   # the JSON text the CLI writes
    json.dumps(rep.to_dict(), allow_nan=False)   # no NaN sneaks through


@pytest.mark.parametrize("name", sorted(DEMSAR_SENTENCES))
def test_demsar_table6_conclusions_as_in_the_paper(name):
    conclusions = " ".join(json.loads(render_json(report(name)))["conclusions"])
    for sentence in DEMSAR_SENTENCES[name]:
        assert sentence in conclusions


def _broken(mutate):
    data = copy.deepcopy(report("table2_bayes").to_dict())
    mutate(data)
    return data


@pytest.mark.parametrize("mutate, where", [
    (lambda d: d.pop("conclusions"), "(top level)"),
    (lambda d: d.update(alpha="0.05"), "alpha"),
    (lambda d: d.update(alpha=1.5), "alpha"),
    (lambda d: d.update(question="Q4"), "question"),
    (lambda d: d.update(schema_version="0.9"), "schema_version"),
    (lambda d: d.update(surprise=1), "(top level)"),
    (lambda d: d["summary"][0].pop("model"), "summary/0"),
    (lambda d: d["tests"]["bayesian_sign"].update(decision="maybe"), "tests/bayesian_sign"),
    (lambda d: d["tests"]["bayesian_sign"].update(p_rope=1.2), "tests/bayesian_sign"),
    (lambda d: d["tests"]["wilcoxon"].update(alternative="bigger"), "tests/wilcoxon"),
    (lambda d: d["tests"]["wilcoxon"].pop("pvalue"), "tests/wilcoxon"),
    (lambda d: d.update(models=["A"]), "models"),
])
def test_schema_rejects_broken_reports(mutate, where):
    message = "does not follow the JSON schema at " + re.escape(where)
    with pytest.raises(InvalidInputError, match=message):
        validate_report(_broken(mutate))


def test_posthoc_pairs_are_checked():
    data = copy.deepcopy(report("table6_010").to_dict())
    validate_report(data)
    data["posthoc"]["nemenyi"]["pairs"][0]["reject"] = "yes"
    with pytest.raises(InvalidInputError, match="posthoc/nemenyi/pairs/0/reject"):
        validate_report(data)
