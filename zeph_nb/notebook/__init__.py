"""The notebook front-end: ``%%zeph``, the live transcript and the approval buttons.

The only package that imports IPython and ipywidgets; the agent below it knows nothing of notebooks.
"""
