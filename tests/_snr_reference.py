"""The reference implementation of Heineman et al. (2025)'s signal-to-noise ratio and
decision accuracy: ``snr/metrics.py`` of allenai/signal-and-noise, a byte-for-byte copy in
``fixtures/real/signal_and_noise/`` (pinned in its README), loaded as a module."""
import importlib.util
from importlib.machinery import SourceFileLoader

from _paths import FIXTURES

PATH = FIXTURES / "real" / "signal_and_noise" / "metrics.py.txt"


def load():
    """The module ``snr.metrics`` (``signal_to_noise_ratio``, ``decision_acc_fast``)."""
    loader = SourceFileLoader("snr_metrics_reference", str(PATH))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
