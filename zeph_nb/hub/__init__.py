"""zeph_nb_hub: the team's page on JupyterHub — every user's agent calls, and the requests waiting for a reviewer.

JupyterHub runs it as a managed service (``python -m zeph_nb.hub``; see ``deploy/jupyterhub_config.py``). It reads
the team's audit database (``[store] audit_url``, ``store/team.py``) and records reviewers' signed answers there,
which the waiting kernels pick up (``store/team_reviews.py``). ``desk.py`` is the database side, ``app.py`` the
pages and who may see and answer what. It needs the ``hub`` extra (``pip install 'zeph-nb[hub]'``), which the hub's
own environment has anyway.
"""
