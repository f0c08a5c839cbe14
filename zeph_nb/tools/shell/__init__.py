"""The shell tool: ``bash`` in the OS sandbox.

``executor.py`` runs a command (sandbox, network proxy, timeouts, output capture); ``path_scope.py`` finds the
paths a command names outside the working directory; ``host_guard.py`` what a command may not leave behind on the
host; ``transaction.py`` snapshots and rollback for transactional runs.
"""
