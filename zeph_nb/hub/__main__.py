"""``python -m zeph_nb.hub``: the command a JupyterHub managed service runs."""

try:
    from zeph_nb.hub.app import main
except ImportError as e:  # the hub's own environment has JupyterHub; a user's usually does not
    raise SystemExit(f"zeph_nb.hub needs JupyterHub ({e}): pip install 'zeph-nb[hub]' where the hub runs") from None

main()
