"""The file tools: read, write, edit, list_directory, find_path, grep, create/delete/move/copy — every path walked
one directory descriptor at a time under the file sandbox.

``executor.py`` is the executor and its sandbox; ``args.py`` the tools' argument schemas; ``ops.py`` the writes
(atomic, by ``dir_fd``); ``tree.py`` listing, finding and grep over the tree; ``grep.py`` the engines (ripgrep, a
Python fallback); ``fsutil.py`` small filesystem helpers.
"""
