"""The kernel tools (list_variables, inspect_variable, run_python, propose_cell): see executor.py."""

from zeph_nb.tools.kernel.executor import KERNEL_TOOLS, CodeResult, Kernel, KernelExecutor, traceback_tail

__all__ = ["KERNEL_TOOLS", "CodeResult", "Kernel", "KernelExecutor", "traceback_tail"]
