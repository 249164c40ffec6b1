"""Rejecting twin of scripts/piglet_user.py (see ahp_rejects.py)."""

from __future__ import annotations

from piglet_protocol import InitializeParams, RegisterToolParams

ok = RegisterToolParams(name="grep")
a = RegisterToolParams(name=None)  # error
b = RegisterToolParams(nmae="grep")  # error
c = InitializeParams(protocolVersion="1")  # error
d = InitializeParams(protocol_version=1)  # error
