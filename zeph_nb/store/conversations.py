"""The ``conversations`` table: one row per conversation, its id, when it started and its title (the first prompt,
cut to 200 characters). Nothing outside ``store/`` writes it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from zeph_nb.store.store import Store, utc_now

__all__ = ["ConversationRecord", "Conversations"]


@dataclass(frozen=True)
class ConversationRecord:
    id: str
    title: str
    created_at: str = field(default_factory=lambda: utc_now().isoformat())


class Conversations:
    def __init__(self, store: Store) -> None:
        self.store = store

    def start(self, conversation_id: str, first_prompt: str) -> None:
        """Record a conversation the first time it is used, titled by its first prompt."""
        self.store.append("conversations", asdict(ConversationRecord(conversation_id, first_prompt.strip()[:200])))
