"""Shell analysis: a command line's text in, a ``ShellAnalysis`` out. Pure; knows nothing of the settings (the
callers pass ``[tools.shell]``'s values to ``ShellClassifier``) and imports nothing of zeph_nb outside itself.

The data flow, one module each:

1. ``classifier`` parses the line with bashlex the way bash would (``words`` reads quoting, ANSI-C strings,
   wrappers and inline scripts), within the time and size limits of ``budget``;
2. and finds every ``SimpleCommand`` (``rules``): in pipelines, lists, substitutions, ``bash -c`` scripts, and the
   payloads of other commands (``payloads``: what ``env``, ``find -exec``, ``parallel``, interpreters' code and
   functions run, each read again by the classifier);
3. each command meets the rules: ``rules`` (blocked, destructive, read-only), ``options`` and ``scripts`` (the
   options, environment and sed/awk scripts no allow rule covers by itself: *riders*), ``args`` (which words are
   paths, read or written);
4. ``analysis`` gathers the verdict (allow, confirm, block: worst wins), its reasons, the commands, riders and
   paths; ``escalations`` reads off the commands what they need beyond the sandbox (network hosts, an environment).

The gates turn the analysis into a decision, and the shell tool into a sandbox.
"""

from __future__ import annotations

from zeph_nb.shell.analysis import ShellAnalysis, Verdict
from zeph_nb.shell.args import PathUse
from zeph_nb.shell.classifier import ShellClassifier
from zeph_nb.shell.escalations import Escalation, escalation_of
from zeph_nb.shell.options import Rider
from zeph_nb.shell.rules import CONFIRM_PATTERNS, SimpleCommand

__all__ = [
    "CONFIRM_PATTERNS",
    "Escalation",
    "PathUse",
    "Rider",
    "ShellAnalysis",
    "ShellClassifier",
    "SimpleCommand",
    "Verdict",
    "escalation_of",
]
