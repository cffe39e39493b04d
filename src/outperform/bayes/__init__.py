"""Posterior computations: closed forms, Dirichlet-process sampling, hierarchical models."""
