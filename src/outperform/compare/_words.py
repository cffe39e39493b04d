"""Sentences shared by the conclusions of the comparison reports."""
from __future__ import annotations


def verdict(a: str, b: str, decision: str) -> str:
    """The decision of a Bayesian comparison of ``a`` (as A) with ``b`` (as B), in words."""
    return {"A better": f"{a} is practically better than {b}",
            "B better": f"{b} is practically better than {a}",
            "practically equivalent": f"{a} and {b} are practically equivalent",
            "undecided": f"no decision between {a} and {b}"}[decision]


def probability_summary(a: str, b: str, res, spec: str = ".3f") -> str:
    """The three region probabilities of a Bayesian result, each formatted with ``spec``."""
    return (f"P({a} better) = {res.p_a_better:{spec}}, P(equivalent) = {res.p_rope:{spec}}, "
            f"P({b} better) = {res.p_b_better:{spec}}")
