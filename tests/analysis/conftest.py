import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bunco.cli.app import console, err_console

sys.path.insert(0, str(Path(__file__).parent))  # the helpers beside the tests


@pytest.fixture
def wide_console() -> Iterator[None]:
    """The CLI's consoles 200 columns wide, so that tables and messages do not wrap
    (their width is fixed when the CLI is imported, whatever COLUMNS says later)."""
    saved = [(c, c._width) for c in (console, err_console)]
    for c, _ in saved:
        c.width = 200
    yield
    for c, width in saved:
        c._width = width
