"""Moved to ``codegen.methods.table`` (the shared method model); kept for importers."""

from codegen.methods.table import FACTS, apply_method_table, parse_direction

__all__ = ["FACTS", "apply_method_table", "parse_direction"]
