"""Odd inputs around the shipped sampler programs (bayes/_shipped.py, issue 31): settings of
$OUTPERFORM_SHIPPED_PROGRAMS, a broken manifest, a damaged program file. None of them is an
error: the sampler is then traced or compiled here, as without shipped programs."""
import json
import shutil

import pytest

from outperform.bayes import _shipped


@pytest.mark.parametrize("value, on", [("", True), ("1", True), ("yes", True), ("0", False),
                                       ("off", False), (" No ", False), ("FALSE", False)])
def test_the_environment_variable(monkeypatch, value, on):
    monkeypatch.setenv(_shipped.ENV, value)
    assert _shipped.enabled() is on


@pytest.mark.parametrize("text, count", [("{not json", 0), ("{}", 0), ('{"programs": []}', 0),
                                         (None, 0)])
def test_a_broken_or_missing_manifest_ships_nothing(tmp_path, text, count):
    if text is not None:
        (tmp_path / _shipped.MANIFEST).write_text(text)
    assert len(_shipped.manifest(tmp_path)) == count


@pytest.mark.slow
@pytest.mark.parametrize("damage", [b"", b"not an lzma stream", "truncated"])
def test_a_damaged_compiled_program_is_not_loaded(tmp_path, monkeypatch, damage):
    jax = pytest.importorskip("jax")
    entry = next(iter(_shipped.manifest().values()))
    for suffix in (".jaxexport", ".xla.xz"):
        name = f"{entry['name']}-{entry['digest']}{suffix}"
        shutil.copy(_shipped.FOLDER / name, tmp_path / name)
    (tmp_path / _shipped.MANIFEST).write_text(json.dumps({"programs": [entry]}))
    exe = tmp_path / entry["executable"]
    exe.write_bytes(exe.read_bytes()[:1000] if damage == "truncated" else damage)
    monkeypatch.setattr(_shipped, "FOLDER", tmp_path)
    monkeypatch.setattr(_shipped, "manifest", lambda folder=tmp_path: {entry["digest"]: entry})
    monkeypatch.setattr(_shipped, "host_features", lambda: frozenset(entry["features"]))
    if jax.default_backend() != "cpu" or entry["machine"] != _shipped.platform.machine():
        pytest.skip("the shipped programs were compiled for another machine")
    program = _shipped.exported(entry["name"], entry["digest"])
    assert program is not None
    example = jax.tree_util.tree_unflatten(
        program.in_tree.children()[0],
        [jax.ShapeDtypeStruct(v.shape, v.dtype) for v in program.in_avals])
    assert _shipped.executable(entry["name"], entry["digest"], program, tuple(example)) is None
