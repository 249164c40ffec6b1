"""codegen: protocol specs in four languages to one IR, rendered to typed Python, JSON Schema, stubs and docs."""
