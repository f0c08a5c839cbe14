"""The scheduler tools: ``schedule_periodic``, ``schedule_deferred``, ``cancel_task`` (``executor.py``) over the
kernel's tasks (``tasks.py``)."""

from zeph_nb.tools.scheduler.executor import (
    CANCEL_TASK,
    SCHEDULE_DEFERRED,
    SCHEDULE_PERIODIC,
    SchedulerExecutor,
    describe,
)
from zeph_nb.tools.scheduler.tasks import (
    FIRING,
    Launch,
    RunReport,
    ScheduledTask,
    Scheduler,
    SchedulingRefused,
    kernel_scheduler,
)

__all__ = [
    "CANCEL_TASK",
    "FIRING",
    "SCHEDULE_DEFERRED",
    "SCHEDULE_PERIODIC",
    "Launch",
    "RunReport",
    "ScheduledTask",
    "Scheduler",
    "SchedulerExecutor",
    "SchedulingRefused",
    "describe",
    "kernel_scheduler",
]
