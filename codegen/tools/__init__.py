"""Maintenance tools run with ``python -m``: restoring the scraped seeds into ``specs/``
(``seed_restore``, ``seed_markdown``) and building the static docs site (``docs_site``).
"""
