"""Backends: each turns a normalized ``ir.Protocol`` into ``{relative path: text}``; none writes files."""
