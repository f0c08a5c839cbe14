"""The kernel the kernel tools see (``zeph_nb.tools.kernel``): this IPython's namespace, code run like a cell in
it, and cells proposed below the ``%%zeph`` cell.

Code runs on the kernel's main thread, between the run's awaits, exactly where a cell's code runs: matplotlib,
``display()`` and ``%magics`` work as in a cell (top-level ``await`` does not: see ``run``). What it prints and
displays is captured (it must not land in whatever cell the person runs meanwhile): the text goes to the model,
the images to the call's card. Only images are shown: HTML or JavaScript the code displays would run in the
person's page. A timeout interrupts it (SIGALRM on the main thread, which also wakes a ``time.sleep``); the
kernel's own Interrupt button stops it as it stops a cell.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import contextvars
import inspect
import linecache
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from zeph_nb.tools.kernel import CodeResult

if TYPE_CHECKING:
    from zeph_nb.notebook.transcript import Transcript

__all__ = ["MODEL_CODE", "IPythonKernel", "model_code_running"]

# True while run_python's code runs: a %zeph line in it is the model's, not the person's (``%zeph jobs keep``,
# ``resume`` and ``forget`` refuse it).
MODEL_CODE: contextvars.ContextVar[bool] = contextvars.ContextVar("zeph_model_code", default=False)
# How many run_python codes are running now, whatever context a call of theirs runs in: the code can call the
# magic in a fresh context (``contextvars.Context().run``), where MODEL_CODE is at its default.
_RUNNING = [0]


def model_code_running() -> bool:
    """Whether the caller is run_python's code (or runs while it does): a %zeph line now is not the person's."""
    return MODEL_CODE.get() or _RUNNING[0] > 0


_IMAGES = ("image/png", "image/jpeg")
MAX_PROPOSALS = 10  # per run: an injected model must not fill the notebook with cells
PLACED_WITHIN = 5.0  # seconds the page has to say it inserted a proposed cell


class _CodeTimeout(BaseException):
    """Raised into the code when its time is up; a BaseException so the code's own ``except Exception`` does not
    swallow it."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise _CodeTimeout

    before = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@contextlib.contextmanager
def _no_stdin(shell: Any) -> Iterator[None]:
    """``input()`` raises instead of asking: the prompt would appear under whatever cell the person last ran, and
    the kernel would wait for an answer nobody knows is wanted."""
    kernel: Any = getattr(shell, "kernel", None)
    allowed = getattr(kernel, "_allow_stdin", None)
    if allowed is None:  # not ipykernel (a terminal IPython asks on its own console, where the person is)
        yield
        return
    kernel._allow_stdin = False
    try:
        yield
    finally:
        kernel._allow_stdin = allowed


class IPythonKernel:
    """The ``Kernel`` of ``zeph_nb.tools.kernel`` over one IPython shell. ``transcript`` is the running cell's (set
    for each run by the magics); without one, proposals go through ``set_next_input``."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.transcript: Transcript | None = None
        self.proposed: list[str] = []  # this run's proposals
        self.runs = 0  # run_python calls so far, naming each one's code in tracebacks

    def new_run(self, transcript: Transcript | None) -> None:
        self.transcript = transcript
        self.proposed = []

    def namespace(self) -> Mapping[str, Any]:
        hidden = self.shell.user_ns_hidden  # what IPython put there itself (In, Out, exit…), unless rebound since
        return {name: value for name, value in self.shell.user_ns.items()
                if name not in hidden or hidden[name] is not value}  # fmt: skip

    # -- run_python ------------------------------------------------------------------------------------------

    async def run(self, code: str, timeout: float, call_id: str) -> CodeResult:
        from IPython.utils.capture import capture_output

        result = CodeResult()
        self.runs += 1
        filename = f"<run_python #{self.runs}>"  # linecache keeps each run's lines for its tracebacks
        try:
            source = self.shell.transform_cell(code)  # %magics and !commands, as a cell has them
            body, last = _compile(source, filename)
        except SyntaxError as e:
            result.error = e
            return result
        if any(c is not None and c.co_flags & inspect.CO_COROUTINE for c in (body, last)):
            # While it awaited, the kernel would take other requests with output still captured here (ipykernel
            # cannot route a cell's output through the capture): the person's cells would hang. Refused instead.
            result.error = SyntaxError("top-level await is not supported in run_python; write code that does not "
                                       "await (it runs as the body of a cell, synchronously)")  # fmt: skip
            return result
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        namespace = self.shell.user_ns
        shown: list[dict[str, Any]] = []
        marked = MODEL_CODE.set(True)
        _RUNNING[0] += 1
        with capture_output(display=True) as captured, _no_stdin(self.shell):
            try:
                with _alarm(timeout):  # the value's repr too: a slow __repr__ is the code's time
                    value = _cell(body, last, namespace)
                    # `_` is left alone: IPython stops updating it once it holds what IPython did not put there.
                    data = self.shell.display_formatter.format(value)[0] if value is not None else None
            except _CodeTimeout:
                result.error = TimeoutError(f"interrupted after {timeout:g} s")
            except KeyboardInterrupt as e:
                result.error = e
            except Exception as e:  # the code's own failure, for the model to read
                result.error = _from_the_code(e, filename)
            else:
                if data is not None:
                    result.value = str(data.get("text/plain", ""))
                    shown += [data] if _image(data) else []
            finally:
                MODEL_CODE.reset(marked)
                _RUNNING[0] -= 1
        result.stdout, result.stderr = captured.stdout, captured.stderr
        for output in captured.outputs:
            bundle = dict(output.data)
            if _image(bundle):
                shown.append(bundle)
            else:
                result.displayed.append(str(bundle.get("text/plain", "")))
        result.images = len(shown)
        self._show(call_id, shown)
        return result

    def _show(self, call_id: str, bundles: list[dict[str, Any]]) -> None:
        """The images the code showed, on its card (nothing else it displayed: see the module's docstring)."""
        card = self.transcript.cards.get(call_id) if self.transcript is not None else None
        if card is None or not bundles:
            return
        import ipywidgets as w

        images = []
        for data in bundles:
            mime = _image(data)
            assert mime is not None  # only image bundles come here
            png = base64.b64decode(data[mime])
            images.append(w.Image(value=png, format=mime.split("/")[1], layout=w.Layout(max_width="100%")))
        card.attach(w.VBox(images))

    # -- propose_cell ----------------------------------------------------------------------------------------

    async def propose(self, code: str, call_id: str) -> str:
        if len(self.proposed) >= MAX_PROPOSALS:
            return f"not proposed: {MAX_PROPOSALS} cells were proposed in this run already; that is the limit"
        self.proposed.append(code)
        transcript = self.transcript
        if transcript is None:  # the cell still runs (plain transcript): its execute reply carries the cell
            # A front end inserts one set_next_input per reply: this run's proposals go in one cell, in order.
            self.shell.set_next_input("\n\n".join(self.proposed), replace=False)
            return "the cell will appear below the %%zeph cell when the run ends; the person reviews and runs it"
        from zeph_nb.notebook.proposal import CellProposal

        proposal = CellProposal(code, anchor=transcript.widget.model_id, offset=len(self.proposed) - 1)
        card = transcript.cards.get(call_id)
        if card is not None:
            card.attach(proposal)
        said = await proposal.placed(PLACED_WITHIN)
        if not said:
            return ("shown to the person in the transcript; no page confirmed inserting it as a cell (the notebook "
                    "may not be open in a browser)")  # fmt: skip
        return said


def _from_the_code(error: Exception, filename: str) -> Exception:
    """``error`` with its traceback starting at the code's own first frame: the frames of this module above it say
    nothing about the code."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return error.with_traceback(tb) if tb is not None else error


def _compile(source: str, filename: str) -> tuple[Any, Any]:
    """The code of ``source`` as a cell runs it: all statements, then the last one's value if it is an
    expression (IPython's ``last_expr``). Compiled allowing top-level ``await`` only so ``run`` can say why it
    refuses it."""
    tree = ast.parse(source, filename)
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    last = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        last = compile(ast.Expression(final.value), filename, "eval", flags=flags)
        tree.body.pop()
    body = compile(tree, filename, "exec", flags=flags)
    return body, last


def _cell(body: Any, last: Any, namespace: dict[str, Any]) -> Any:
    exec(body, namespace)  # noqa: S102 - the person approved this code; it runs as their cell would
    value = eval(last, namespace) if last is not None else None  # noqa: S307 - the same code's last expression
    _flush_figures()
    return value


def _image(data: dict[str, Any]) -> str | None:
    """The image type of a display bundle whose image is base64 text (as IPython makes them), else None: any other
    payload (a number, bytes of unknown size) is not decoded."""
    return next((m for m in _IMAGES if isinstance(data.get(m), str)), None)


def _flush_figures() -> None:
    """Figures the code drew with the inline backend, displayed now (into the capture) rather than at the end of
    the person's next cell."""
    inline = sys.modules.get("matplotlib_inline.backend_inline")
    pyplot = sys.modules.get("matplotlib.pyplot")
    if inline is None or pyplot is None or "inline" not in str(pyplot.get_backend()).lower():
        return
    inline.flush_figures()
