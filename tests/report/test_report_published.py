"""`write_report` on every shipped published data set writes all formats and a valid JSON."""
import warnings

import pytest

from outperform.compare import compare
from outperform.data import load_demsar_table6, load_williams_table1
from outperform.report import validate_report, write_report

jsonschema = pytest.importorskip("jsonschema", reason="schema validation needs jsonschema")


def _check(report, out):
    paths = write_report(report, out)
    assert {"html", "md", "tex", "json"} <= set(paths)
    assert all(p.stat().st_size > 200 for p in paths.values())
    validate_report(paths["json"].read_text())


@pytest.mark.slow
def test_demsar_and_williams(tmp_path):
    _check(compare(load_demsar_table6(), alpha=0.10, bayesian=True), tmp_path / "demsar")
    _check(compare(load_williams_table1()), tmp_path / "williams")


@pytest.mark.slow
def test_uci54(shared_data, tmp_path):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    _check(compare(table, bayesian=True), tmp_path / "uci54")
