"""What permission rules are matched against, read off a validated call (the one place policy touches the disk).

A tool's ``ToolDef.subject`` names the parameters; ``subject_kind`` says how to read them: a bash command line
becomes its simple commands as the shell parser sees them (quotes removed, ``/usr/bin/rm`` read as ``rm``, the
commands inside ``$(…)`` and ``bash -c`` included), a path becomes canonical (every link expanded, relative to the
working directory), a URL is read the way the web client will request it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from zeph_nb.gates.policy import Subjects, arguments_json
from zeph_nb.security.paths import canonical_text, canonicalize
from zeph_nb.security.urls import normalize_url
from zeph_nb.shell import ShellAnalysis
from zeph_nb.tools.base import ToolDef

__all__ = ["subjects_of"]


def subjects_of(
    tool: ToolDef, params: Mapping[str, Any], *, workdir: Path, analysis: ShellAnalysis | None = None
) -> Subjects:
    """The subjects of one call whose ``params`` already passed validation."""
    arguments = arguments_json(params)
    given = [params.get(name) for name in tool.subject]
    if tool.subject_kind == "command":
        line = str(given[0]) if given else ""
        if analysis is not None and analysis.parsed and analysis.commands:
            commands = tuple(dict.fromkeys(command.text for command in analysis.commands))
            return Subjects("command", commands, arguments)
        return Subjects("command", (line,), arguments, parsed=analysis is None or analysis.parsed)
    if tool.subject_kind == "path":
        # A missing optional path (grep over everything) means the working directory.
        paths = tuple(canonical_text(str(value), workdir) if value is not None else str(workdir) for value in given)
        return Subjects("path", paths or (str(workdir),), arguments)
    if tool.subject_kind == "url":
        # The form the client will request, so HTTPS://Internal.Corp.:443/ meets the rule for https://internal.corp/
        urls = tuple(normalize_url(str(value)) for value in given if value is not None)
        return Subjects("url", urls or ("",), arguments)
    text = " ".join(str(value) for value in given if value is not None) if given else arguments
    return Subjects("code" if tool.subject_kind == "code" else "text", (text,), arguments)


def canonical_workdir(workdir: str | os.PathLike[str] | None) -> Path:
    # A relative working directory is relative to the process's, as the tools take it (not to "/").
    return canonicalize(os.path.abspath(workdir) if workdir is not None else os.getcwd(), "/")
