"""The agent: the loop, its events and the model providers. Nothing here knows about notebooks."""

from zeph_nb.agent.events import AgentEvent, Stopped, TextDelta, ToolCallFinished
from zeph_nb.agent.loop import Agent
from zeph_nb.agent.messages import Message, ModelRequest, ModelResponse, Provider
from zeph_nb.agent.providers import ScriptedProvider, provider_from_settings
from zeph_nb.agent.result import RunResult, StopReason, Usage

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
