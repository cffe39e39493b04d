"""Paired resampling designs: same splits as scikit-learn's splitters, partitions, parsing."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import (
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedShuffleSplit,
)

from outperform._validation import InvalidInputError, TooFewError
from outperform.experiments._designs import (
    Design,
    FiveByTwoDesign,
    RepeatedHoldoutDesign,
    RepeatedKFoldDesign,
    parse_design,
)

Y = np.repeat([0, 1, 2], [20, 13, 7])


def _splits(design, y=Y):
    return list(design.split(np.zeros((len(y), 1)), y))


# --- same splits as the scikit-learn splitter they are built on (peer implementation) ----

@pytest.mark.parametrize("design, peer", [
    (RepeatedKFoldDesign(3, 4, random_state=7),
     RepeatedStratifiedKFold(n_splits=4, n_repeats=3, random_state=7)),
    (RepeatedKFoldDesign(2, 5, stratified=False, random_state=1),
     RepeatedKFold(n_splits=5, n_repeats=2, random_state=1)),
    (FiveByTwoDesign(random_state=3),
     RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=3)),
    (RepeatedHoldoutDesign(6, 0.3, random_state=2),
     StratifiedShuffleSplit(n_splits=6, test_size=0.3, random_state=2)),
    (RepeatedHoldoutDesign(4, 9, stratified=False, random_state=5),
     ShuffleSplit(n_splits=4, test_size=9, random_state=5)),
])
def test_splits_are_those_of_the_sklearn_splitter(design, peer):
    ours = _splits(design)
    theirs = list(peer.split(np.zeros((len(Y), 1)), Y))
    assert len(ours) == len(theirs) == design.n_runs * design.n_folds
    for (run, fold, train, test), (train2, test2), i in zip(ours, theirs, range(len(ours))):
        assert (run, fold) == divmod(i, design.n_folds)
        np.testing.assert_array_equal(train, train2)
        np.testing.assert_array_equal(test, test2)


# --- properties ----------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n_per_class=st.lists(st.integers(5, 30), min_size=2, max_size=4),
       runs=st.integers(1, 3), folds=st.integers(2, 5), seed=st.integers(0, 2**32 - 1),
       stratified=st.booleans())
def test_kfold_runs_partition_the_examples(n_per_class, runs, folds, seed, stratified):
    y = np.repeat(np.arange(len(n_per_class)), n_per_class)
    rng = np.random.default_rng(0)
    y = rng.permutation(y)
    design = RepeatedKFoldDesign(runs, folds, stratified=stratified, random_state=seed)
    splits = _splits(design, y)
    for run in range(runs):
        tests = [test for r, f, train, test in splits if r == run]
        assert len(tests) == folds
        np.testing.assert_array_equal(np.sort(np.concatenate(tests)), np.arange(len(y)))
    for r, f, train, test in splits:
        assert np.intersect1d(train, test).size == 0
        assert train.size + test.size == len(y)
        if stratified:
            # each class is spread over the folds as evenly as possible
            expected = np.bincount(y) / folds
            assert np.all(np.abs(np.bincount(y[test], minlength=len(n_per_class)) - expected) < 1)
    assert all(np.array_equal(a[3], b[3]) for a, b in zip(splits, _splits(design, y)))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(20, 60), runs=st.integers(1, 4), frac=st.floats(0.1, 0.5),
       seed=st.integers(0, 1000))
def test_holdout_splits_are_disjoint_and_cover(n, runs, frac, seed):
    y = np.arange(n) % 2
    design = RepeatedHoldoutDesign(runs, frac, random_state=seed)
    splits = _splits(design, y)
    assert [(r, f) for r, f, *_ in splits] == [(r, 0) for r in range(runs)]
    for _, _, train, test in splits:
        assert test.size == int(np.ceil(frac * n))
        np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(n))


def test_splits_depend_on_y_and_seed_not_on_x():
    design = RepeatedKFoldDesign(2, 3, random_state=0)
    a = _splits(design)
    b = list(design.split(np.random.default_rng(1).normal(size=(len(Y), 5)), Y))
    assert all(np.array_equal(s[3], t[3]) for s, t in zip(a, b))
    c = _splits(RepeatedKFoldDesign(2, 3, random_state=1))
    assert not all(np.array_equal(s[3], t[3]) for s, t in zip(a, c))


def test_five_by_two_halves_the_data():
    splits = _splits(FiveByTwoDesign(random_state=0))
    assert [(r, f) for r, f, *_ in splits] == [(r, f) for r in range(5) for f in range(2)]
    assert all(abs(len(train) - len(test)) <= 3 for _, _, train, test in splits)
    assert isinstance(FiveByTwoDesign(), RepeatedKFoldDesign)


def test_random_state_none_draws_and_records_an_int():
    d = RepeatedKFoldDesign(1, 2, random_state=None)
    assert isinstance(d.random_state, int)
    assert d.to_dict()["random_state"] == d.random_state


# --- parsing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, expected", [
    ("10x10", RepeatedKFoldDesign(10, 10)),
    (" 3 X 4 ", RepeatedKFoldDesign(3, 4)),
    ("5x2", FiveByTwoDesign()),
    ("holdout:30x0.2", RepeatedHoldoutDesign(30, 0.2)),
    ("holdout:5x40", RepeatedHoldoutDesign(5, 40)),
    ("2x3 unstratified", RepeatedKFoldDesign(2, 3, stratified=False)),
])
def test_parse_design(spec, expected):
    got = parse_design(spec)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("design", [
    RepeatedKFoldDesign(10, 10, random_state=4), FiveByTwoDesign(stratified=False),
    RepeatedHoldoutDesign(7, 0.25, stratified=False), RepeatedHoldoutDesign(3, 12),
])
def test_name_reads_back(design):
    assert parse_design(design.name, random_state=design.random_state) == design
    assert parse_design(design) is design
    assert eval(repr(design)) == design


def test_five_by_two_is_not_equal_to_a_plain_two_fold():
    assert parse_design("5x2") != RepeatedKFoldDesign(5, 2)
    assert len({parse_design("5x2"), FiveByTwoDesign()}) == 1


@pytest.mark.parametrize("spec", ["10-fold", "x10", "holdout:30", "holdout:3x-1", ""])
def test_unreadable_spec(spec):
    with pytest.raises(InvalidInputError, match="cannot read design"):
        parse_design(spec)


def test_spec_must_be_a_string_or_design():
    with pytest.raises(InvalidInputError, match="must be a Design"):
        parse_design(10)


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("make, error, message", [
    (lambda: RepeatedKFoldDesign(0, 10), TooFewError, "n_repeats must be at least 1"),
    (lambda: RepeatedKFoldDesign(10, 1), TooFewError, "n_splits must be at least 2"),
    (lambda: RepeatedKFoldDesign(2.5, 10), InvalidInputError, "n_repeats must be an integer"),
    (lambda: RepeatedKFoldDesign(2, 3, random_state=np.random.RandomState(0)),
     InvalidInputError, "random_state must be an int"),
    (lambda: RepeatedKFoldDesign(2, 3, random_state=-1), InvalidInputError, "random_state"),
    (lambda: RepeatedHoldoutDesign(3, 1.5), InvalidInputError, "test_size"),
    (lambda: RepeatedHoldoutDesign(3, 0), TooFewError, "test_size"),
    (lambda: parse_design("1x1"), TooFewError, "n_splits"),
])
def test_bad_parameters(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_stratified_design_needs_class_labels():
    y = np.linspace(0, 1, 30)
    with pytest.raises(InvalidInputError, match="stratified=False"):
        _splits(RepeatedKFoldDesign(1, 3), y)
    assert len(_splits(RepeatedKFoldDesign(1, 3, stratified=False), y)) == 3


def test_too_small_data_set_gives_a_clear_error():
    with pytest.raises(InvalidInputError, match="cannot split 4 examples"):
        _splits(RepeatedKFoldDesign(1, 10), np.array([0, 1, 0, 1]))


def test_base_class_is_abstract():
    with pytest.raises(NotImplementedError):
        Design().spec
