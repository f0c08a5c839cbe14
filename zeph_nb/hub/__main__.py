"""``python -m zeph_nb.hub``: the command a JupyterHub managed service runs."""

from zeph_nb.hub.app import main

main()
