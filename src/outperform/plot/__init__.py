"""plot layer."""
