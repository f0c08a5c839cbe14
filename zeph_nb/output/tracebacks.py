"""Python tracebacks wherever they appear: a script that failed, a log's ``logger.exception``, ``pytest --tb=native``.

What a person acts on in a traceback is the exception and the frames in their own code; the frames inside the
standard library and installed packages say where the error surfaced, not what to change, and a pandas or
requests traceback is mostly them. Each run of such frames becomes one line that says how many and whose
(``  [4 frames in pandas, the standard library]``). When every frame of a traceback is library code (pip itself
crashed), that code is the program: its innermost frame, where the exception was raised, stays.

Node's stacks (``    at fn (/app/src/x.js:3:9)``) are read the same way: each run of two or more frames in node's
own modules (``node:internal/…``) or in ``node_modules`` becomes ``    [6 frames in node's internals, express]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = [
    "JVM_CUE",
    "NODE_CUE",
    "PYTHON_CUE",
    "RUST_CUE",
    "fold_js_frames",
    "fold_jvm_frames",
    "fold_library_frames",
    "fold_rust_frames",
]

_FRAME = re.compile(r'^(\s*)File "([^"]+)", line \d+(?:, in .*)?$')
# Installed packages, the standard library (`/usr/lib/python3.11/json/…`, a venv's `lib/python3.11/…`) and
# frozen modules. A program's own files are everything else, relative paths included, and so are `<string>` and
# `<stdin>`: that is the person's own `python -c` or piped code.
_LIBRARY = re.compile(r"[/\\](?:site|dist)-packages[/\\]|[/\\]lib[/\\]python\d(?:\.\d+)?[/\\]|^<frozen ")
# IPython's header: `NameError                                 Traceback (most recent call last)`.
_IPYTHON_HEAD = re.compile(r"^\S+\s+Traceback \(most recent call last\)\s*$")
_IPYTHON_FRAME = re.compile(r"^(?:Cell In\[\d+\], line \d+|File (\S.*?):\d+(?:, in .*)?$)")
_PACKAGE = re.compile(r"[/\\](?:site|dist)-packages[/\\]([^/\\]+)")
MARK = "Traceback (most recent call last):"
# What an output holds when it holds a stack of each kind: each fold looks for its cue first, and the engine finds
# them all in one scan of the output (``engine.py``).
PYTHON_CUE = MARK[:-1]  # IPython's header has no colon
NODE_CUE = "    at "
# A JVM stack worth folding has the JDK's frames, and those are `.java` files, under a Kotlin or a Scala program too.
JVM_CUE = ".java:"
RUST_CUE = "stack backtrace:"
Frame = tuple[str, str, list[str]]  # (indent, path, the frame's lines)
_NAME_CHARS = 60
# What a package's folder is named: PEP 508's letters, digits, `.`, `_`, `-` (and `.py` for a module).
_NAME = re.compile(r"[A-Za-z0-9._-]+")


def _owner(path: str) -> str:
    found = _PACKAGE.search(path)
    if found is None:
        return "the standard library"
    name = found.group(1)
    # A path is the output's own text, and the note speaks in the filter's voice: a folder that is no package's
    # name (too long, spaces, an instruction) is not repeated in it. Never cut to a prefix either: a token's
    # first 60 characters are no longer recognised, so redaction would miss them (a whole token is redacted).
    if len(name) > _NAME_CHARS or _NAME.fullmatch(name) is None:
        return "an installed package"
    return name[:-3] if name.endswith(".py") else name


def fold_library_frames(text: str) -> str:
    """``text`` with each run of library frames of its tracebacks written as one line; ``text`` itself when it
    holds no traceback or no frame to fold."""
    if PYTHON_CUE not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    changed = False
    while index < len(lines):
        line = lines[index]
        if line.strip() == MARK:
            out.append(line)
            index, frames = _python_frames(lines, index + 1)
        elif line.rstrip().endswith(MARK[:-1]) and _IPYTHON_HEAD.match(line):
            out.append(line)
            index, frames = _ipython_frames(lines, index + 1)
        else:
            out.append(line)
            index += 1
            continue
        library = [_LIBRARY.search(path) is not None for _, path, _ in frames]
        if frames and all(library):
            library[-1] = False  # nothing of the program's own: the innermost frame is where it went wrong
        run: list[Frame] = []
        for frame, is_library in zip(frames, library, strict=True):
            if is_library:
                run.append(frame)
                continue
            changed |= _flush(run, out)
            out += frame[2]
        changed |= _flush(run, out)
    return "\n".join(out) if changed else text


def _python_frames(lines: list[str], index: int) -> tuple[int, list[Frame]]:
    """The frames of CPython's traceback starting at ``lines[index]``, and where they end."""
    frames: list[Frame] = []
    while index < len(lines):
        found = _FRAME.match(lines[index])
        if found is None:
            break
        indent = found.group(1)
        body = [lines[index]]
        index += 1
        # The frame's source line, its carets, `[Previous line repeated N more times]`: indented deeper.
        while index < len(lines) and lines[index].startswith(indent + " ") and not _FRAME.match(lines[index]):
            body.append(lines[index])
            index += 1
        frames.append((indent, found.group(2), body))
    return index, frames


def _ipython_frames(lines: list[str], index: int) -> tuple[int, list[Frame]]:
    """The frames of IPython's traceback (a notebook's, nbconvert's, papermill's) starting at ``lines[index]``:
    ``Cell In[3], line 4`` or ``File /…/site-packages/pandas/core/frame.py:15427, in DataFrame.apply(…)``, then
    numbered source lines, then a blank line. Each frame keeps its blank line."""
    frames: list[Frame] = []
    while index < len(lines):
        found = _IPYTHON_FRAME.match(lines[index])
        if found is None:
            break
        body = [lines[index]]
        index += 1
        while index < len(lines) and lines[index].strip():
            body.append(lines[index])
            index += 1
        if index < len(lines):
            body.append(lines[index])  # the blank line after the frame
            index += 1
        frames.append(("", found.group(1) or "<cell>", body))
    return index, frames


def _flush(run: list[Frame], out: list[str]) -> bool:
    """Write a run of library frames as one line (a single one-line frame as itself); empty ``run``."""
    if not run:
        return False
    if len(run) == 1 and len(run[0][2]) == 1:
        out += run[0][2]
        run.clear()
        return False
    out.append(_note(run[0][0], len(run), [_owner(path) for _, path, _ in run]))
    if run[-1][2][-1] == "":  # IPython's frames end with a blank line: so does the line standing for them
        out.append("")
    run.clear()
    return True


def _note(indent: str, frames: int, owners: list[str]) -> str:
    """The line standing for a run of library frames: how many, and whose (the first three owners by name)."""
    named = list(dict.fromkeys(owners))
    said = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
    return f"{indent}[{frames} {'frame' if frames == 1 else 'frames'} in {said}]"


# `    at fn (where)`, `    at where`, `    at async fn (where)`: where is `node:…`, or a path with a line and column.
_JS_FRAME = re.compile(r"^(\s+)at (?:.*? \()?([^()\s]+?)(?::\d+:\d+)?\)?$")
_JS_PACKAGE = re.compile(r"[/\\]node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)")


def fold_js_frames(text: str) -> str:
    """``text`` with each run of two or more of a JavaScript stack's frames in node's internals or in
    ``node_modules`` written as one line; ``text`` itself when there is none."""
    if NODE_CUE not in text:
        return text
    return _fold_frames(text, _js_frame)


def fold_jvm_frames(text: str) -> str:
    """``text`` with each run of two or more of a Java (or Kotlin, Scala) stack's frames in the JDK or in a
    framework that runs the program (JUnit, Maven's surefire, Gradle, Spring…) written as one line; ``text``
    itself when there is none. The exception, ``Caused by:``, ``... 12 more`` and the program's frames stay."""
    if JVM_CUE not in text:
        return text
    return _fold_frames(text, _jvm_frame)


# A stack's frame is a name and a place: a longer line is something else, not read by the frame patterns (which,
# on a crafted 4 MB line, took 0.4-0.6 s to say so).
_FRAME_CHARS = 2_000


def _fold_frames(text: str, frame_of: Callable[[str], tuple[str, str] | None]) -> str:
    """``text`` with each run of two or more lines that ``frame_of`` reads as a library's frame (its indent, and
    whose) written as one line."""
    out: list[str] = []
    run: list[tuple[str, str, str]] = []  # (line, indent, whose) of the library frames in a row
    changed = False
    for line in text.split("\n"):
        found = frame_of(line) if len(line) <= _FRAME_CHARS and line.lstrip().startswith("at ") else None
        if found is not None:
            run.append((line, *found))
            continue
        changed |= _flush_frames(run, out)
        out.append(line)
    changed |= _flush_frames(run, out)
    return "\n".join(out) if changed else text


def _flush_frames(run: list[tuple[str, str, str]], out: list[str]) -> bool:
    """Write a run of library frames (line, indent, whose) as one line when there are two or more; empty ``run``."""
    folded = len(run) >= 2
    if folded:
        out.append(_note(run[0][1], len(run), [name for _, _, name in run]))
    else:
        out += [frame for frame, _, _ in run]
    run.clear()
    return folded


def _js_frame(line: str) -> tuple[str, str] | None:
    found = _JS_FRAME.match(line)
    whose = _js_owner(found.group(2)) if found is not None else None
    return (found.group(1), whose) if found is not None and whose is not None else None


# `\tat java.base/java.util.ArrayList.get(ArrayList.java:427)`, `        at com.example.App.main(App.kt:9)`,
# `at org.junit.jupiter.engine.execution.MethodInvocation.proceed(MethodInvocation.java:60)`: a module (`app//`,
# `java.base/`), the class's package and name, the method, and where (a file and line, `Native Method`,
# `Unknown Source`).
_JVM_FRAME = re.compile(r"^(\s+)at (?:[\w.$@-]*/+)?([a-z][\w$]*(?:\.[\w$]+)+)\.[\w$<>-]+\([^()]*\)$")
# Packages whose frames run the program rather than being it: the JDK, and the test and build tools and frameworks
# a stack passes through on its way to the program's own code. Anything else may be the person's own.
_JVM_OWNERS = (
    (("java.", "javax.", "jdk.", "sun.", "com.sun."), "the JDK"),
    (("org.junit.", "junit."), "JUnit"),
    (("org.testng.",), "TestNG"),
    (("org.apache.maven.",), "Maven"),
    (("org.gradle.", "worker.org.gradle."), "Gradle"),
    (("org.springframework.",), "Spring"),
    (("kotlin.", "kotlinx."), "Kotlin's runtime"),
    (("scala.",), "Scala's runtime"),
    (("org.codehaus.groovy.", "groovy."), "Groovy's runtime"),
    (("org.apache.catalina.", "org.apache.tomcat.", "org.apache.coyote."), "Tomcat"),
    (("io.netty.",), "Netty"),
)


def _jvm_frame(line: str) -> tuple[str, str] | None:
    found = _JVM_FRAME.match(line)
    if found is None:
        return None
    name = found.group(2) + "."
    whose = next((owner for prefixes, owner in _JVM_OWNERS if name.startswith(prefixes)), None)
    return (found.group(1), whose) if whose is not None else None


# Rust's backtrace (`RUST_BACKTRACE=1`): `   5: panicky::rate` and, under it, `             at ./src/main.rs:4:26`.
_RUST_FRAME = re.compile(r"^(\s*)\d+: (\S.*)$")
_RUST_AT = re.compile(r"^\s+at (\S.*?)(?::\d+(?::\d+)?)?$")
_RUST_STD = re.compile(r"[/\\]rustc[/\\][0-9a-f]+[/\\]|[/\\]library[/\\](std|core|alloc|proc_macro)[/\\]src[/\\]")
# `~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/…`, `~/.cargo/git/checkouts/hyper-0d3a…/…`.
_RUST_CRATE = re.compile(
    r"[/\\]\.cargo[/\\](?:registry[/\\]src[/\\][^/\\]+|git[/\\]checkouts)[/\\]([A-Za-z0-9_-]+?)-(?:\d+\.\d|[0-9a-f]{16})"
)
# A frame with no place is named by its symbol: the standard library's, or the C runtime's that starts a thread.
_RUST_STD_SYMBOL = re.compile(r"^<?(std|core|alloc|__rustc)::|^(rust_begin_unwind|__rust_\w+|__libc_start\w*|_start|"
                              r"start_thread|clone3?|__clone3?)$")  # fmt: skip


def fold_rust_frames(text: str) -> str:
    """``text`` with each run of two or more frames of a Rust backtrace in the standard library or in another
    crate (``~/.cargo/registry``) written as one line; ``text`` itself when there is none."""
    if RUST_CUE not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    run: list[tuple[str, str, str]] = []  # (the frame's lines, indent, whose) of the library frames in a row
    changed = False
    backtrace = False  # frames are read only after `stack backtrace:`, while they go on
    index = 0
    while index < len(lines):
        line = lines[index]
        frame = _RUST_FRAME.match(line) if backtrace and len(line) <= _FRAME_CHARS else None
        if frame is None:
            changed |= _flush_frames(run, out)
            backtrace = line.strip() == "stack backtrace:"
            out.append(line)
            index += 1
            continue
        body = [line]  # the frame's symbol, and its place when there is one
        after = lines[index + 1] if index + 1 < len(lines) else ""
        at = _RUST_AT.match(after) if len(after) <= _FRAME_CHARS else None
        if at is not None:
            body.append(after)
        index += len(body)
        whose = _rust_owner(frame.group(2), at.group(1) if at is not None else None)
        if whose is None:  # the program's own frame ends a run, and is written as it is
            changed |= _flush_frames(run, out)
            out += body
        else:  # a frame's two lines are one entry: a run too short to fold is written back as it was
            run.append(("\n".join(body), frame.group(1), whose))
    changed |= _flush_frames(run, out)
    return "\n".join(out) if changed else text


def _rust_owner(symbol: str, place: str | None) -> str | None:
    """Whose code a Rust frame is: the standard library's, a crate's from the registry, or None for the program's."""
    if place is not None:
        if _RUST_STD.search(place):
            return "the standard library"
        crate = _RUST_CRATE.search(place)
        if crate is None:
            return None
        name = crate.group(1)
        return name if len(name) <= _NAME_CHARS else "an installed crate"
    return "the standard library" if _RUST_STD_SYMBOL.search(symbol) else None


def _js_owner(where: str) -> str | None:
    """Whose code a frame's place is: node's, an installed package's (named as ``_owner`` names one), or None
    for the program's own."""
    if where.startswith("node:"):
        return "node's internals"
    found = _JS_PACKAGE.search(where)
    if found is None:
        return None
    name = found.group(1).replace("\\", "/")
    if len(name) > _NAME_CHARS or re.fullmatch(r"(@[A-Za-z0-9._-]+/)?[A-Za-z0-9._-]+", name) is None:
        return "an installed package"
    return name
