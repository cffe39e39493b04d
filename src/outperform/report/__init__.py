"""Renderers of result objects: terminal (rich), Markdown, JSON."""
import json

from .markdown import render_markdown
from .text import render_text


def render_json(report) -> str:
    """Return ``report.to_dict()`` as indented JSON (schema version in ``schema_version``)."""
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


__all__ = ["render_json", "render_markdown", "render_text"]
