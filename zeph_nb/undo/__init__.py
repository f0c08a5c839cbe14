"""Undo: the one snapshot mechanism, and what uses it below the gates.

- ``states.py``: what is at a path (``PathState``), a ``Capture`` of trees into a ``Snapshot`` with file contents
  kept in a ``BlobSink``, and ``changed_paths`` between two snapshots.
- ``restore.py``: the plan to put changed paths back (``plan_undo``: refused when changed since, or when the
  content was not kept) and carrying it out (``apply_plan``), atomically and never through a link.
- ``runs.py``: ``%zeph undo``'s side — which run, its changes from the store (rows ``gates/undo.py`` recorded,
  contents in the store's blobs), its plan, applied with an audit row.
- ``transaction.py``: the shell's ``transactional`` side — a scope captured in memory before one command, what
  it changed put back when it fails.
- ``written.py``: what a call wrote, seen after it (inodes changed since it started, a file's change as a diff).

Only ``runs.py`` needs the store; nothing here imports the tools, so ``tools/shell`` can use a transaction.
"""
