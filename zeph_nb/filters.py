"""Output filters, the public face of ``zeph_nb/output/``: ``filter_output(command, output, exit_code=None,
settings=None) -> FilteredOutput``, the engine and its rules (see ``output/loading.py`` for where rules come from).
"""

from zeph_nb.output.loading import (
    FilterConfidence,
    FilteredOutput,
    FilterEngine,
    default_rules,
    engine_for,
    filter_output,
    load_rules,
    producing_segments,
)

__all__ = [
    "FilterConfidence",
    "FilterEngine",
    "FilteredOutput",
    "default_rules",
    "engine_for",
    "filter_output",
    "load_rules",
    "producing_segments",
]
