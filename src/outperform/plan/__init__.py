"""Plan an experiment before running it: power, sample size and minimum detectable effect.

Every planner takes all of power, n, effect and alpha but one and solves for the missing one,
returning a :class:`PowerAnalysis`:

* :func:`paired_ttest_power` - paired t on examples or data sets, with a design effect for
  clustered items (statsmodels' noncentral t);
* :func:`wilcoxon_power` - signed-rank test by its asymptotic relative efficiency (an
  approximation, labelled as such);
* :func:`corrected_ttest_power`, :func:`corrected_ttest_table` - Nadeau & Bengio's corrected
  resampled t-test over r runs of k-fold cross-validation, and its r x k table;
* :func:`mcnemar_power` - McNemar on a shared test set (Connor 1987, Miettinen 1968, exact);
* :func:`auc_power` - two paired AUCs compared by DeLong's test (Hanley & McNeil 1982
  variance);
* :func:`sign_test_power`, :func:`binomial_test_power` - the exact sign test;
* :func:`mcnemar_assurance` - Bayesian assurance: the probability of each decision of the
  Bayesian McNemar test, exact, optionally averaged over a design prior;
* :func:`gate_power`, :func:`gate_sample_size`, :func:`threshold_gate_fail_probability` -
  a regression gate's power at its n, the items it needs, and the point-threshold gates';
* :func:`gold_labels` - human labels a judged evaluation needs for a PPI++ interval of a
  given width (closed form of the PPI++ variance);
* :func:`power_curve`, :func:`plot_power_curve` - power against n or against the effect
  (matplotlib imported on use).
"""
from ._assurance import mcnemar_assurance
from ._auc import auc_power, hanley_mcneil_variance
from ._binomial import binomial_test_power, mcnemar_power, sign_test_power
from ._curve import power_curve
from ._gate import gate_power, gate_sample_size, threshold_gate_fail_probability
from ._gold import GoldLabelPlan, gold_labels
from ._plot import plot_power_curve
from ._result import Assurance, PowerAnalysis
from ._ttest import (
                     WILCOXON_ARE,
                     corrected_ttest_power,
                     corrected_ttest_table,
                     design_effect,
                     paired_ttest_power,
                     wilcoxon_power,
)

__all__ = [
    "Assurance", "GoldLabelPlan", "PowerAnalysis", "WILCOXON_ARE", "auc_power", "binomial_test_power",
    "corrected_ttest_power", "corrected_ttest_table", "design_effect", "gate_power",
    "gate_sample_size", "gold_labels", "hanley_mcneil_variance", "threshold_gate_fail_probability",
    "mcnemar_assurance", "mcnemar_power", "paired_ttest_power", "plot_power_curve",
    "power_curve", "sign_test_power", "wilcoxon_power",
]
