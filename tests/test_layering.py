"""DESIGN.md layering: kernels (stats, bayes, results) never import the upper layers."""
import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "outperform"
UPPER = ("data", "compare", "report", "plot", "cli", "experiments", "simulate")
FORBIDDEN_THIRD_PARTY = ("pandas", "matplotlib")


def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.col_offset
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            yield ("." * node.level) + mod, node.col_offset


def _violations(layer: str, allow_lazy_pandas: bool = False):
    bad = []
    for path in (PKG / layer).rglob("*.py"):
        for name, col in _imports(path):
            target = name.lstrip(".")
            top = target.split(".")[0]
            if top == "outperform":
                top = target.split(".")[1] if "." in target else ""
            # Relative imports inside the layer are fine; "..x" reaches package level x.
            if name.startswith("..") and name.lstrip(".").split(".")[0] in UPPER:
                bad.append(f"{path.name}: {name}")
            elif top in UPPER and not name.startswith(".") or (
                    name.split(".")[0] in FORBIDDEN_THIRD_PARTY and not (allow_lazy_pandas and col > 0)):
                bad.append(f"{path.name}: {name}")
    return bad


def test_stats_imports_no_upper_layer():
    assert _violations("stats") == []


def test_bayes_imports_no_upper_layer():
    assert _violations("bayes") == []


def test_results_import_pandas_only_lazily():
    assert _violations("results", allow_lazy_pandas=True) == []


def test_the_check_sees_a_violation(tmp_path, monkeypatch):
    fake = tmp_path / "stats"
    fake.mkdir()
    (fake / "bad.py").write_text("import pandas as pd\nfrom ..plot import x\n")
    monkeypatch.setattr(__import__(__name__), "PKG", tmp_path)
    assert len(_violations("stats")) == 2
