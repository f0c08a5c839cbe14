"""search_code (issue 49, item 4): structural search with tree-sitter and, for Python, symbols and references
through a language server, over the project the notebook sits in."""

from __future__ import annotations

from zeph_nb.tools.code_search.executor import SEARCH_CODE, CodeSearchExecutor
from zeph_nb.tools.code_search.structural import Hit, languages

__all__ = ["SEARCH_CODE", "CodeSearchExecutor", "Hit", "languages"]
