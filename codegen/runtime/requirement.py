"""The pydantic releases the generated models work with, checked when the runtime is imported.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the installed ``pydantic.VERSION``.
Outputs: ``PYDANTIC_REQUIREMENT``; an ``ImportError`` saying what to install when the
installed pydantic is outside it.
Guarantees: runs before any model is imported (the package imports ``_rpc`` first, and
``_rpc`` imports this module first), so the user sees the requirement, not an
``ImportError`` from deep inside ``models``.
"""

from __future__ import annotations

from typing import Final

import pydantic

PYDANTIC_REQUIREMENT: Final = ">=2.14,<3"
"""The pydantic releases a generated package works with (its pyproject says the same)."""


def _check_pydantic(version: str) -> None:
    """Refuse a pydantic the generated models cannot work with, saying so, instead of
    an ``ImportError`` about ``MISSING`` from deep inside ``models``."""
    parts = version.split(".")
    try:
        found = (int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0))
    except (IndexError, ValueError):
        return  # an unusual version string: let the imports decide
    if not (2, 14) <= found < (3, 0):
        package = (__package__ or "").rpartition(".")[0]  # ``<pkg>`` of ``<pkg>._rpc``
        raise ImportError(
            f"{package or 'this package'} needs pydantic{PYDANTIC_REQUIREMENT}, "
            f"found pydantic {version}: pip install 'pydantic{PYDANTIC_REQUIREMENT}'"
        )


_check_pydantic(pydantic.VERSION)
