"""What every frontend shares: the ``FrontendResult`` they return (``result``) and the
tree-sitter helpers for node text, spans, syntax errors and duplicate names (``syntax``).
"""
