"""The agent: the loop, its events and the model providers. Nothing here knows about notebooks."""

from zeph_nb.agent.events import AgentEvent, Stopped, StopReason, TextDelta, ToolCallFinished
from zeph_nb.agent.loop import Agent, RunResult
from zeph_nb.agent.messages import Message, ModelRequest, ModelResponse, Provider, Usage
from zeph_nb.agent.providers import ScriptedProvider, provider_from_settings

__all__ = [
    "Agent",
    "AgentEvent",
    "Message",
    "ModelRequest",
    "ModelResponse",
    "Provider",
    "RunResult",
    "ScriptedProvider",
    "StopReason",
    "Stopped",
    "TextDelta",
    "ToolCallFinished",
    "Usage",
    "provider_from_settings",
]
