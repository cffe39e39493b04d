"""Readers of language-model evaluation logs (lm-evaluation-harness, Inspect AI, HELM, long
tables) into one tidy table, and the pairing of their items across models."""
