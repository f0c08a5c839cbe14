"""The ``conversations`` table: one row per conversation, its id, when it started and its title (the first prompt,
cut to 200 characters). Nothing outside ``store/`` writes it."""

from __future__ import annotations

from dataclasses import asdict

from zeph_nb.store.records import ConversationRow
from zeph_nb.store.store import Store

__all__ = ["ConversationRecord", "ConversationRow", "Conversations"]

ConversationRecord = ConversationRow  # its name before the records moved to store/records.py


class Conversations:
    def __init__(self, store: Store) -> None:
        self.store = store

    def start(self, conversation_id: str, first_prompt: str) -> None:
        """Record a conversation the first time it is used, titled by its first prompt."""
        row = ConversationRow(id=conversation_id, title=first_prompt.strip()[:200])
        self.store.append("conversations", asdict(row))
