"""Sphinx configuration of the documentation site: `make docs` builds it into docs/_build/html.

Sphinx with MyST-NB and the PyData theme, as JupyterLab and jupyter-ai build theirs: the pages are Markdown (MyST)
as the README was, the tutorials are the notebooks themselves, rendered from the outputs they hold — which nbval
checks in `make test` — with nothing executed to build them, and the search index is built offline.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).parent
sys.path.insert(0, str(DOCS / "_ext"))  # zeph_docs: the generated tables and the API page
sys.path.insert(0, str(DOCS.parent))  # zeph_nb itself, for autodoc, from this checkout

project = "zeph-nb"
author = "the zeph-nb authors"
copyright = "zeph-nb authors, MIT licence"

extensions = ["myst_nb", "sphinx.ext.autodoc", "zeph_docs"]

# The tutorials (tutorials/notebooks is a link to the repository's notebooks/) are shown as committed: nbval runs
# them in `make test`; executing them here would need the sandbox, tmux, PostgreSQL and minutes.
nb_execution_mode = "off"
nb_merge_streams = True
# Widget views (the live transcript) need a running kernel; the static copy each run leaves is shown instead.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# GitHub's anchors for every heading down to ####, so a README link to docs/guide/sandbox.md#the-os-sandbox
# lands on the same heading here as on GitHub.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = [
    "_build",
    "_ext",
    "tutorials/notebooks/*.py",
    "tutorials/notebooks/*.cfg",
    "**/.ipynb_checkpoints",
]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_class_signature = "separated"
autodoc_default_options = {"exclude-members": "model_config, model_fields, model_computed_fields"}

html_theme = "pydata_sphinx_theme"
html_title = "zeph-nb"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_show_sourcelink = False
# Pages with no pages under them: no empty "Section Navigation" column taking a third of the width (the settings
# tables need it).
html_sidebars = {page: [] for page in ("index", "getting-started", "security", "troubleshooting", "reference/settings")}
# The theme reads its light/dark mode from here; unset, every page logs "Got invalid theme mode" in the console.
html_context = {"default_mode": "auto"}
toc_object_entries = False  # the API page's headings already name each object once
