"""The documentation site: it builds with --strict and no warning, names every refuted or corrected
claim, and renders in a real browser with no console errors and the figure loaded.

Source of the expected ids: the frozen verdict file (the project's record of what is
refuted or an erratum), not the generator that writes the page.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "tests" / "verify" / "frozen_verdicts.json"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the [docs] extra (mkdocs) is not installed")
    pytest.importorskip("material", reason="the [docs] extra (mkdocs-material) is not installed")
    prebuilt = os.environ.get("PDPSYM_SITE_DIR")
    if prebuilt and (Path(prebuilt) / "index.html").is_file():
        return Path(prebuilt)  # .ci/run built it with --strict already
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    # without -q: a warning that --strict lets through (or -q hid) fails here too
    warnings = [ln for ln in (run.stdout + run.stderr).splitlines() if "WARNING" in ln]
    assert warnings == [], warnings
    return out


def test_the_errata_page_names_every_refuted_or_erratum_claim(site: Path) -> None:
    claims = json.loads(FROZEN.read_text(encoding="utf-8"))["claims"]
    wanted = [c["id"] for c in claims if c["verdict"] in ("refuted", "erratum")]
    page = (site / "generated" / "errata" / "index.html").read_text(encoding="utf-8")
    assert len(wanted) == 21
    assert [cid for cid in wanted if cid not in page] == []


def test_every_command_has_its_help_on_the_site(site: Path) -> None:
    page = (site / "generated" / "commands" / "index.html").read_text(encoding="utf-8")
    for command in ("verify", "leakage", "audit", "figure", "whg", "oracle export"):
        assert f"pdpsym {command}" in page


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    return None


def test_pages_render_in_a_browser(site: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    browser_path = _chromium()
    if browser_path is None:
        pytest.skip("no chromium on this machine (.ci/run installs Debian's chromium)")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            for path in ("/", "/generated/errata/", "/generated/figures/"):
                response = page.goto(base + path, wait_until="networkidle")
                assert response is not None and response.status == 200, path
            images = page.eval_on_selector_all(
                "article img", "imgs => imgs.map(i => [i.getAttribute('src'), i.naturalWidth])"
            )
            browser.close()
    finally:
        server.shutdown()
    assert errors == []
    assert images and all(width > 0 for _src, width in images), images
