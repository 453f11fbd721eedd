"""Printing a page the package wrote to PDF with a headless Chromium, when one is on the PATH
(Debian's ``chromium``): the strategy cards and the par sheet are printable."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


def print_pdf(page: Path, pdf: Path) -> bool:
    """Print ``page`` (an HTML file) to ``pdf``; False when no Chromium is there or it fails
    (the PDF is optional), True when ``pdf`` was written."""
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chrome:
        return False
    try:
        subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--print-to-pdf={pdf}", "--no-pdf-header-footer",
                        page.resolve().as_uri()], capture_output=True, timeout=120, check=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return pdf.exists()


def pdf_of(page: bytes) -> bytes | None:
    """``page`` (a self-contained HTML document) printed to PDF in a private scratch folder
    (:func:`print_pdf`); None when it cannot be printed."""
    with tempfile.TemporaryDirectory(prefix="asiapoker-pdf-") as scratch:
        html, pdf = Path(scratch) / "page.html", Path(scratch) / "page.pdf"
        html.write_bytes(page)
        return pdf.read_bytes() if print_pdf(html, pdf) else None
