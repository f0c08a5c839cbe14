"""The memory tools: ``memory_save`` and ``memory_search`` over the store's ``memories`` table (``[memory]``)."""

from zeph_nb.tools.memory.executor import MEMORY_SAVE, MEMORY_SEARCH, Embedder, MemoryExecutor

__all__ = ["MEMORY_SAVE", "MEMORY_SEARCH", "Embedder", "MemoryExecutor"]
