# The shed's volunteer handbook.
project = "Tool shed handbook"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.todo", "sphinx.ext.intersphinx"]
intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}  # no network here: the fetch fails
todo_include_todos = True
exclude_patterns = ["_build"]
