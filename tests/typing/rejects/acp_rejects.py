"""Rejecting twin of scripts/acp_user.py (see ahp_rejects.py)."""

from __future__ import annotations

from acp_protocol import Icon, PushToolCallParams, ReadTextFileParams

ok = ReadTextFileParams(path="/a", line=3)
a = ReadTextFileParams(path="/a", line="3")  # error
b = ReadTextFileParams(path="/a", lines=3)  # error
c = PushToolCallParams(label="x", icon="folder")  # error
d = PushToolCallParams(label="x", icon=Icon.FOLDER, content="text")  # error
