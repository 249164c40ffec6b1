"""A spec's inputs: ``spec.toml`` (``config``), its source files as text with line and
column mapping (``source``) and its wire samples under ``examples/`` (``samples``)."""
