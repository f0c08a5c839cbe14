"""``[scheduler]``: the model's ``schedule_periodic`` / ``schedule_deferred`` / ``cancel_task`` tools, and their
limits."""

from __future__ import annotations

from pydantic import Field

from zeph_nb.config.common import _Section

__all__ = ["SchedulerSettings"]

# The seed agent's [scheduler] keys that have no meaning here, each with why (a config ported from it hears this,
# not "extra inputs are not permitted").
NOT_HERE = {
    "tick_interval_secs": "each task here has a timer of its own on the kernel's event loop, so there is no tick to "
    "set; min_interval_secs bounds how often a task may run",
    "tasks": "tasks are scheduled by a run (the model's schedule_periodic / schedule_deferred, which ask you) and end "
    "with the kernel; tasks in a settings file would start in every kernel that reads it with no cell asking for "
    "them, so none are read from one. To keep a task across kernels, run %zeph jobs keep ID in the kernel that has "
    "it; a later kernel starts it again only when you say %zeph jobs resume ID",
    "daemon": "there is no scheduler daemon: the tasks live in the kernel that scheduled them",
}


class SchedulerSettings(_Section):
    """``[scheduler]``: tasks that start new agent runs later, on the kernel's event loop; they end with the kernel."""

    not_here = NOT_HERE
    _table = "scheduler"

    enabled: bool = Field(
        False,
        description="offer schedule_periodic, schedule_deferred and cancel_task to the model. Off by default: a "
        "scheduled run happens in no cell, after the one that asked for it, and a notebook run top to bottom is "
        "expected to do only what its cells say; turn it on where a run should come back later (check a training "
        "run every ten minutes). Scheduling asks the person first unless a rule allows it",
    )
    min_interval_secs: float = Field(
        60.0,
        gt=0,
        le=7 * 86_400,
        description="the shortest period of schedule_periodic and the shortest delay of schedule_deferred; shorter "
        "is refused, so no model fills the kernel with runs every second",
    )

    max_tasks: int = Field(
        5,
        ge=1,
        le=100,
        description="at most this many scheduled tasks alive at once in one kernel; more is refused until one ends "
        "or is cancelled (%zeph cancel ID)",
    )
