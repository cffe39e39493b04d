"""The render cost of a report (cli/_output._check_render_cost) counts the pairs the report
writes: the pairs shown by the one rule (details["pairs"]), every pair in JSON. Before, a
160-model Q3 report whose text shows 159 pairs was announced as "at least ~13 s" (it takes
~1.5 s); with --pairs all the notice stays."""
import warnings

import numpy as np
import pandas as pd
import pytest

from outperform._cost import PerformanceWarning
from outperform.cli._output import Format, _check_render_cost
from outperform.compare import compare


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(0)
    k = 160
    return pd.DataFrame(rng.random((30, k)) * 0.1 + np.linspace(0.5, 0.9, k),
                        columns=[f"m{j}" for j in range(k)])


@pytest.mark.slow
def test_the_pairs_written_are_costed_not_all_pairs(table, monkeypatch):
    shown = compare(table, posthoc="holm")
    assert shown.details["pairs"]["shown"] == 159
    with warnings.catch_warnings():
        warnings.simplefilter("error", PerformanceWarning)
        _check_render_cost(shown, Format.text)           # 159 pairs: no notice
    with pytest.warns(PerformanceWarning, match="12,720 pairs"):
        _check_render_cost(compare(table, posthoc="holm", pairs="all"), Format.text)
    import outperform._cost as cost

    costed = []
    monkeypatch.setattr(cost, "check_cost", lambda option, n, **kw: costed.append(n))
    _check_render_cost(shown, Format.json)                # JSON keeps every pair
    _check_render_cost(shown, Format.markdown)
    assert costed == [12_720, 159]
