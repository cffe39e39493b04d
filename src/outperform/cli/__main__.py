"""``python -m outperform.cli ...``: the same as the ``outperform`` command."""
from . import app

if __name__ == "__main__":   # importing the module (e.g. to list the package) runs nothing
    app(prog_name="outperform")
