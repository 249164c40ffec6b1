"""The real-peer tests need the official SDKs, installed only in ``make interop``'s own
virtualenv (``.venv-interop``): ``make test`` leaves this folder out, ``make interop`` (which
sets CODEGEN_INTEROP=1) runs it."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("CODEGEN_INTEROP") == "1" else ["test_*.py"]
