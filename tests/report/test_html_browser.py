"""The HTML report in a real browser: headless Chromium lays it out, shows the CD diagram and
the tables, and logs no console message (no blocked request, no error).

Needs Debian's ``chromium`` package (``apt-get install -y chromium``); skipped without it.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from _report_cases import report
from outperform.report import render_html

CHROMIUM = next((shutil.which(b) for b in ("chromium", "chromium-browser") if shutil.which(b)),
                None)
pytestmark = [pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not on PATH (apt-get install -y chromium)"),
    pytest.mark.slow]    # a browser started: seconds, outside the fast loop

WIDTH, HEIGHT = 1200, 4000

# Test-only probe, added to a copy of the page (the report itself has no script and its
# Content-Security-Policy would block one): where did the browser put each table and figure?
PROBE = """<pre id="probe" hidden></pre><script>
const box = e => { const r = e.getBoundingClientRect();
  return {id: e.id || e.parentElement.id, x: r.left + scrollX, y: r.top + scrollY,
          w: r.width, h: r.height}; };
document.getElementById("probe").textContent = JSON.stringify({
  height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
  tables: [...document.querySelectorAll("table")].map(box),
  figures: [...document.querySelectorAll("figure svg")].map(box)});
</script>"""


def _chromium(url, profile, *args):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
           f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def browsed(tmp_path_factory):
    """Demšar Table 6 at α = 0.10: layout of the probed copy, screenshot and console log."""
    folder = tmp_path_factory.mktemp("browser")
    html = render_html(report("table6_010"))
    page = folder / "report.html"
    page.write_text(html, encoding="utf-8")
    probed = folder / "probed.html"
    probed.write_text(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "",
                             html).replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _chromium(probed.as_uri(), folder / "profile", "--dump-dom")
    layout = json.loads(re.search(r'<pre id="probe" hidden="">(.*?)</pre>', dom.stdout,
                                  re.S).group(1).replace("&quot;", '"'))
    shot = folder / "shot.png"
    run = _chromium(page.as_uri(), folder / "profile", f"--screenshot={shot}",
                    "--enable-logging=stderr", "--v=0")
    import matplotlib.image

    return layout, matplotlib.image.imread(shot)[..., :3], run.stderr


def _ink(image, box):
    """Share of dark pixels (text, lines) in a box of the screenshot."""
    x, y, w, h = (int(round(box[k])) for k in ("x", "y", "w", "h"))
    region = image[y:y + h, x:x + w].mean(axis=2)
    return float(np.mean(region < 0.5)), region


def test_page_fits_the_window(browsed):
    layout, _, _ = browsed
    assert layout["width"] <= WIDTH   # nothing wider than the window: no sideways scrolling
    assert layout["height"] <= HEIGHT, "the page is longer than the screenshot window"


def test_screenshot_is_not_blank(browsed):
    _, image, _ = browsed
    assert image.shape[:2] == (HEIGHT, WIDTH)
    assert image.std() > 0.05
    rows_with_ink = np.mean((image.mean(axis=2) < 0.5).any(axis=1))
    assert rows_with_ink > 0.2   # text all down the page, not one line


def test_cd_diagram_is_drawn(browsed):
    layout, image, _ = browsed
    (cd,) = layout["figures"]
    assert cd["id"] == "figure-cd-nemenyi"
    assert cd["w"] > 400 and cd["h"] > 100   # scaled up, readable
    ink, region = _ink(image, cd)
    assert 0.01 < ink < 0.5   # axis, ticks, bars and names; not an empty or black box
    # The rank axis is a long horizontal line: some row is dark over a third of the width.
    assert (region < 0.5).mean(axis=1).max() > 0.33


def test_tables_are_drawn(browsed):
    layout, image, _ = browsed
    ids = [t["id"] for t in layout["tables"]]
    assert ids == ["table-assumptions", "table-summary", "table-frequentist", "table-nemenyi"]
    for table in layout["tables"]:
        assert table["w"] > 150 and table["h"] > 40
        ink, _ = _ink(image, table)
        assert ink > 0.02, table["id"]


def test_no_console_messages(browsed):
    _, _, stderr = browsed
    # Blocked requests, CSP violations and script errors are all logged as CONSOLE lines.
    assert [line for line in stderr.splitlines() if ":CONSOLE" in line] == []
