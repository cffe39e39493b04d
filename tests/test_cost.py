"""The cost guard: work estimated before it starts, refused with the option to lower and the
largest value that fits (issue 25, "Hangs and memory")."""
import re
import time

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform._cost import MAX_SECONDS, available_memory, check_cost
from outperform.compare import compare_runs, leaderboard
from outperform.plan import mcnemar_assurance
from outperform.simulate import sample_experiments, single_dirichlet_context
from outperform.stats import aggregate_runs, bradley_terry, performance_profile


def test_memory_refusal_names_option_and_largest_value_that_fits():
    with pytest.raises(InvalidInputError) as info:
        check_cost("n_resamples (--n-resamples)", 10**9, work="5,000 items",
                   bytes_per_unit=8 * 5000, memory=16e9)
    msg = str(info.value)
    assert "n_resamples (--n-resamples) = 1,000,000,000" in msg and "40 TB" in msg
    # 16e9 / 40,000 bytes per resample = 400,000
    assert "use n_resamples (--n-resamples) <= 400,000" in msg
    largest = int(re.search(r"<= ([\d,]+)\.$", msg).group(1).replace(",", ""))
    check_cost("x", largest, work="w", bytes_per_unit=8 * 5000, memory=16e9)   # fits


def test_time_refusal_names_the_bound():
    with pytest.raises(InvalidInputError, match=r"at least ~2\.78 h \(bound 1 h\); use n <= "
                                                r"3,600,000"):
        check_cost("n", 10**7, work="w", bytes_per_unit=0, seconds_per_unit=1e-3)
    assert MAX_SECONDS == 3600


def test_small_work_passes_and_returns_its_time():
    assert check_cost("n", 1000, work="w", bytes_per_unit=8,
                      seconds_per_unit=1e-6) == pytest.approx(1e-3)


def test_available_memory_is_positive():
    assert available_memory() > 0


def _fast_refusal(call, match):
    started = time.perf_counter()
    with pytest.raises(InvalidInputError, match=match):
        call()
    assert time.perf_counter() - started < 5


def _runs_frame():
    rng = np.random.default_rng(0)
    return pd.DataFrame([{"task": t, "model": m, "run": r, "score": rng.random()}
                         for t in "uvw" for m in "AB" for r in range(3)])


def _items():
    rng = np.random.default_rng(0)
    return pd.DataFrame([{"model": m, "example": i, "correct": int(rng.random() < 0.7)}
                         for m in "ABC" for i in range(300)])


@pytest.mark.parametrize("call", [
    lambda: aggregate_runs(np.ones((3, 4)), n_resamples=10**13),
    lambda: performance_profile(np.ones((3, 4)), n_resamples=10**13),
    lambda: compare_runs(_runs_frame(), n_resamples=10**12),
    lambda: leaderboard(_items(), n_resamples=10**13),
    lambda: bradley_terry(["x", "y", "x"], ["y", "x", "y"], ["a", "a", "b"],
                          interval="bootstrap", n_resamples=10**13),
])
def test_resampling_refused_before_it_starts(call):
    _fast_refusal(call, r"n_resamples \(--n-resamples\) = .* use n_resamples")


def test_bayes_mcnemar_assurance_huge_n_refused():
    # 10^16 examples are now answered in constant memory (tests/plan/test_assurance_large_n.py);
    # 10^17 means ~1e16 discordant counts, more than double precision counts exactly
    _fast_refusal(lambda: mcnemar_assurance(n=10**17, accuracy_a=0.85, accuracy_b=0.8,
                                            discordance=0.1),
                  r"n = 100,000,000,000,000,000 test examples: .* use n \(--n\) <= ")


def test_simulation_refused_before_it_starts():
    _fast_refusal(lambda: sample_experiments(single_dirichlet_context(), 1000, 10**12),
                  "n_repetitions = 1,000,000,000,000")


def test_ordinary_sizes_still_run():
    res = compare_runs(_runs_frame(), n_resamples=200, random_state=0)
    assert res.aggregates["A"]["mean"].n_resamples == 200
    assert mcnemar_assurance(n=200, accuracy_a=0.85, accuracy_b=0.8,
                             discordance=0.1).n == 200


def test_long_work_is_announced_with_its_estimate_before_it_starts():
    """Work estimated at >= 10 s: a PerformanceWarning names the work, the time, the memory
    and the option (issue 31, item 3); shorter work is silent."""
    import warnings

    from outperform import PerformanceWarning
    from outperform._cost import NOTICE_SECONDS

    with pytest.warns(PerformanceWarning) as record:
        seconds = check_cost("n_resamples (--n-resamples)", 2000, work="5,000 items x 3 models",
                             bytes_per_unit=8 * 5000, seconds_per_unit=0.01, memory=16e9)
    assert seconds == 20.0 >= NOTICE_SECONDS
    message = str(record[0].message)
    assert "5,000 items x 3 models: estimated to take at least ~20 s and ~80 MB" in message
    assert "n_resamples (--n-resamples) = 2,000" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_cost("n", 100, work="w", bytes_per_unit=8, seconds_per_unit=0.01, memory=16e9)
