"""``python -m outperform.cli ...``: the same as the ``outperform`` command."""
from . import app

app(prog_name="outperform")
