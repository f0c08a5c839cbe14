"""The import guard: installed code in the kernel never imports from a folder an agent's command can write.

A sandboxed command may write ``lxml.py`` (or ``ujson.py``, ``google/foo.py`` in a namespace package …) into the
notebook folder, which is on the kernel's ``sys.path``. The next library that imports that optional dependency
lazily — pandas reading HTML, a web tool parsing it — would run the file in the kernel, outside every sandbox, with
the kernel's keys. So ``%load_ext zeph_nb`` puts this finder first on ``sys.meta_path``; for every import that is
not in ``sys.modules`` yet it looks where the import system would, and when the module would come from an
*agent-writable* folder (the working directories and allowed paths of the shell, less the kernel's own environment,
which the sandbox keeps read-only):

* the import comes from **installed code** (a library, the standard library, zeph-nb, or an import made while the
  guard opens its journal): the folder is skipped, as if
  it were not on the path — the installed module is found if there is one, else ``ModuleNotFoundError``, as when the
  module is absent. The refusal is noted once (``refusals()``, ``%zeph status``).
* the import comes from **the person's own code** (a cell, or a module of theirs in that folder): it goes ahead,
  unless provenance (``security/provenance.py``) says an agent's call wrote the file and the person has not
  accepted it: then an ``ImportError`` says what to look at and how to accept it (``%zeph trust <path>``).
  Bytecode caches in such folders are never read (a command can write a ``__pycache__/*.pyc`` that matches the
  person's source by size and time): the source is compiled.

Who imports is the first frame on the stack outside the import machinery (``importlib``, this module).
What it changes for people: installed code that imports one of *their* modules by name — unpickling an object
whose class lives in a module of the notebook folder, a plugin found by name — finds it only once a cell has
imported it (then it is in ``sys.modules`` and no finder is asked).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import logging
import os
import re
import site
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from types import CodeType, FrameType, ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # not imported at a kernel's start: the journal is opened when a file needs judging
    from zeph_nb.security.provenance import Provenance

__all__ = ["ImportGuard", "Refusal", "current", "install"]

log = logging.getLogger("zeph_nb.security")

_IMPORT_MACHINERY = (os.path.dirname(importlib.__file__) + os.sep, "<frozen importlib", "<frozen zipimport")
# Cells: IPython's "<ipython-input-3-abc>" and ipykernel's "<tempdir>/ipykernel_<its pid>/<hash>.py" (this
# process's: a folder of that name an agent made in its working directory is no cell).
_CELL = re.compile(
    r"^<ipython-input-\d+-[0-9a-f]+>$|^"
    + re.escape(os.path.join(tempfile.gettempdir(), f"ipykernel_{os.getpid()}", ""))
    + r"\d+\.py$"
)
_INSTALLED = "installed code never imports from a folder an agent's command can write"


@dataclass(frozen=True)
class Refusal:
    """One module the guard kept out of the kernel, and why."""

    module: str
    path: str
    importer: str  # a file, or "a cell"
    reason: str
    agent_written: bool = False  # refused because an agent wrote it (not only because of who imported it)

    def describe(self) -> str:
        return f"{self.module} from {self.path} (imported by {self.importer}): {self.reason}"


class _SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Compiles the source every time: a ``__pycache__`` file in an agent-writable folder may be the agent's."""

    def get_code(self, fullname: str) -> CodeType:
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


class ImportGuard(importlib.abc.MetaPathFinder):
    """The finder; one per kernel (``install``)."""

    def __init__(
        self, roots: Iterable[str | os.PathLike[str]], provenance: Provenance | Callable[[], Provenance] | None,
        *, strict: bool = True,
    ) -> None:  # fmt: skip
        self.roots: list[str] = []
        self._provenance = provenance
        # strict: installed code never imports from the roots; otherwise only agent-written files are refused (a
        # kernel that has not loaded zeph-nb, guarded from its start by the .pth file the package installs)
        self.strict = strict
        self._refused: dict[str, Refusal] = {}
        self._unseen: list[Refusal] = []
        self._writable: dict[str, bool] = {}
        self._installed_folders: dict[str, bool] = {}
        self._local = threading.local()
        self._lock = threading.Lock()
        # Never agent-writable, even inside a root: the interpreter's own environments (the sandbox keeps them
        # read-only) and the user's site-packages.
        fixed = {sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages()}
        user_site = site.getusersitepackages() if hasattr(site, "getusersitepackages") else None
        if isinstance(user_site, str):
            fixed.add(user_site)
        self._installed = tuple(os.path.join(os.path.realpath(p), "") for p in fixed if p)
        self.add_roots(roots)

    # -- configuration --------------------------------------------------------------------------------------

    def add_roots(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        """Folders an agent's command can write (the shell's working directory and allowed paths)."""
        with self._lock:
            for root in roots:
                real = os.path.join(os.path.realpath(root), "")
                if real not in self.roots:
                    self.roots.append(real)
            self._writable.clear()

    @property
    def provenance(self) -> Provenance | None:
        """The journal, opened on first need (a kernel's start must not pay for it)."""
        if callable(self._provenance):
            self._provenance = self._provenance()
        return self._provenance

    @provenance.setter
    def provenance(self, value: Provenance | Callable[[], Provenance] | None) -> None:
        self._provenance = value

    def refusals(self) -> list[Refusal]:
        """Every module refused in this kernel, once each."""
        return list(self._refused.values())

    def take_new_refusals(self) -> list[Refusal]:
        """The refusals not yet told (a run's transcript tells each once)."""
        with self._lock:
            new, self._unseen = self._unseen, []
        return new

    # -- the finder -----------------------------------------------------------------------------------------

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        __tracebackhide__ = True  # IPython leaves the guard's frames out of a refused import's traceback
        if getattr(self._local, "busy", False):
            # An import made while the guard itself is deciding (opening the journal imports modules): installed
            # code by definition, judged without asking the journal — never let through unguarded.
            spec = _others(self, fullname, path, target)
            if spec is None or not any(self.agent_writable(place) for place in _places(spec)):
                return spec
            return self._elsewhere(fullname, path, target, spec, "zeph-nb's import guard", _INSTALLED)
        self._local.busy = True
        try:
            return self._find(fullname, path, target)
        finally:
            self._local.busy = False

    def _find(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None) -> ModuleSpec | None:
        __tracebackhide__ = True
        spec = _others(self, fullname, path, target)
        if spec is None:
            return None
        places = _places(spec)
        if not any(self.agent_writable(place) for place in places):
            return self._outside_roots(fullname, spec)
        importer = _importer(sys._getframe(1))
        person = self._person(importer)
        if not person and self.strict:
            return self._elsewhere(fullname, path, target, spec, importer, _INSTALLED)
        origin = spec.origin if spec.has_location else None
        provenance = self.provenance if origin is not None else None
        written = provenance.agent_written(origin) if provenance is not None and origin is not None else None
        if written is not None and origin is not None:
            if not person:
                return self._elsewhere(fullname, path, target, spec, importer, written.describe(), agent=True)
            # Without %load_ext the magic is not there yet: say so, or the advice fails as a UsageError.
            load = "" if self.strict else "%load_ext zeph_nb, then "
            reason = (f"{written.describe()}, and you have not accepted it; read it, then run {load}"
                      f"%zeph trust {origin} to import it")  # fmt: skip
            # Said by the ImportError alone: the cell shows it, and a log line too would say it twice.
            self._note(Refusal(fullname, origin, _shown(importer), reason, agent_written=True), say=False)
            raise ImportError(f"zeph-nb refused to import {fullname} from {origin}: {reason}", name=fullname,
                              path=origin)  # fmt: skip
        if isinstance(spec.loader, importlib.machinery.SourceFileLoader) and origin is not None:
            spec.loader = _SourceOnlyLoader(fullname, origin)
        return spec

    def _outside_roots(self, fullname: str, spec: ModuleSpec) -> ModuleSpec:
        """A module from outside the roots (a folder on ``PYTHONPATH``, an editable project, the working directory
        of an agent of another kernel) is refused too when provenance says an agent wrote it; installed code's
        own folders are never looked up."""
        __tracebackhide__ = True
        origin = spec.origin if spec.has_location else None
        if origin is None or self._installed_place(origin) or self.provenance is None:
            return spec
        written = self.provenance.agent_written(origin)
        if written is None:
            return spec
        importer = _shown(_importer(sys._getframe(1)))
        load = "" if self.strict else "%load_ext zeph_nb, then "
        reason = (f"{written.describe()}, and you have not accepted it; read it, then run {load}%zeph trust {origin} "
                  "to import it")  # fmt: skip
        self._note(Refusal(fullname, origin, importer, reason, agent_written=True), say=importer != "a cell")
        raise ImportError(f"zeph-nb refused to import {fullname} from {origin}: {reason}", name=fullname, path=origin)

    def _installed_place(self, origin: str) -> bool:
        folder = os.path.dirname(origin)
        known = self._installed_folders.get(folder)
        if known is None:
            known = os.path.join(os.path.realpath(folder), "").startswith(self._installed)
            if len(self._installed_folders) > 4096:
                self._installed_folders.clear()
            self._installed_folders[folder] = known
        return known

    def _elsewhere(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None, found: ModuleSpec,
        importer: str | None, reason: str, *, agent: bool = False,
    ) -> ModuleSpec:  # fmt: skip
        """The module as if the agent-writable folders were not on the path; ModuleNotFoundError when it is nowhere
        else."""
        __tracebackhide__ = True
        search = list(sys.path if path is None else path)
        kept = [entry for entry in search if not self.agent_writable(entry or os.getcwd())]
        spec = importlib.machinery.PathFinder.find_spec(fullname, kept, target)
        origin = found.origin if found.has_location else None
        shown = origin or ", ".join(_places(found))
        top = fullname.partition(".")[0]
        advice = (f"; the library asked for {fullname}, which is not installed: install {top} if you need it, or "
                  f"delete {shown} if you did not want it there") if spec is None else ""  # fmt: skip
        self._note(Refusal(fullname, shown, _shown(importer), reason + advice, agent_written=agent))
        if spec is None:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return spec

    # -- judgements -----------------------------------------------------------------------------------------

    def agent_writable(self, place: str) -> bool:
        """Whether ``place`` (a file or folder) lies in a root and outside the environments kept read-only."""
        folder = place if os.path.isdir(place) else os.path.dirname(place)
        known = self._writable.get(folder)
        if known is None:
            known = self._judge(folder)
            if len(self._writable) > 4096:
                self._writable.clear()
            self._writable[folder] = known
        return known

    def _judge(self, folder: str) -> bool:
        real = os.path.join(os.path.realpath(folder), "")
        if real.startswith(self._installed):
            return False
        # No exception for a virtualenv found inside a root: a command can write a pyvenv.cfg anywhere, and only the
        # kernel's own environment (above) is on its path anyway.
        return any(real.startswith(root) for root in self.roots)

    def _person(self, importer: str | None) -> bool:
        """Whether the importing code is the person's: a cell, or a file of theirs in an agent-writable folder."""
        if importer is None:
            return False
        if _CELL.search(importer):
            return True
        if importer.startswith("<") or not os.path.isabs(importer):
            return False
        if not self.agent_writable(importer):
            return False
        return self.provenance is None or self.provenance.agent_written(importer) is None

    def _note(self, refusal: Refusal, *, say: bool = True) -> None:
        key = f"{refusal.module}\0{refusal.path}"
        with self._lock:
            if key in self._refused:
                return
            self._refused[key] = refusal
            self._unseen.append(refusal)
        if say:
            log.warning("zeph-nb refused an import: %s", refusal.describe())


def _others(
    guard: ImportGuard, fullname: str, path: Sequence[str] | None, target: ModuleType | None
) -> ModuleSpec | None:
    """What the finders after the guard would return."""
    for finder in list(sys.meta_path):
        if finder is guard or isinstance(finder, ImportGuard):
            continue
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        spec = find(fullname, path, target)
        if spec is not None:
            return spec  # type: ignore[no-any-return]  # finders are untyped: find_spec returns ModuleSpec | None
    return None


def _shown(importer: str | None) -> str:
    """Who imported, as a person reads it: a cell, or the importing file."""
    if importer is None:
        return "?"
    return "a cell" if _CELL.search(importer) else importer


def _places(spec: ModuleSpec) -> list[str]:
    """Where a spec's code comes from: its file, or a namespace package's folders."""
    if spec.has_location and spec.origin:
        return [spec.origin]
    locations = spec.submodule_search_locations
    return [str(p) for p in locations] if locations is not None else []


def _importer(frame: FrameType | None) -> str | None:
    """The file of the first frame outside the import machinery and this module."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name != __file__ and not name.startswith(_IMPORT_MACHINERY):
            return name
        frame = frame.f_back
    return None


_CURRENT: ImportGuard | None = None


def install(
    roots: Iterable[str | os.PathLike[str]], provenance: Provenance | Callable[[], Provenance] | None,
    *, strict: bool = True,
) -> ImportGuard:  # fmt: skip
    """Put the guard first on ``sys.meta_path`` (once per process; later calls add roots, and ``strict`` is never
    turned off again)."""
    global _CURRENT
    with _INSTALL_LOCK:
        if _CURRENT is None or _CURRENT not in sys.meta_path:
            _CURRENT = ImportGuard(roots, provenance, strict=strict)
            sys.meta_path.insert(0, _CURRENT)
        else:
            _CURRENT.add_roots(roots)
            _CURRENT.strict = _CURRENT.strict or strict
            if provenance is not None:
                _CURRENT.provenance = provenance
            if sys.meta_path[0] is not _CURRENT:  # something put itself first since: the guard asks before it
                sys.meta_path.remove(_CURRENT)
                sys.meta_path.insert(0, _CURRENT)
        return _CURRENT


_INSTALL_LOCK = threading.Lock()


def current() -> ImportGuard | None:
    """The guard of this process, when one is installed."""
    return _CURRENT
