"""experiments layer."""
