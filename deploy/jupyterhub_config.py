"""zeph-nb on a JupyterHub: every user's agent under one managed policy, one audit log in PostgreSQL, and the
zeph_nb_hub service where reviewers see every call and answer any user's waiting request.

Copy this file next to your own jupyterhub_config.py and load it from there (``load_subconfig("zeph_hub.py")``),
or copy the parts you need. It reads four environment variables of the hub's own process:

- ``ZEPH_HUB_DB_URL``: the team's database as the service's login role, a libpq string without a password
  (``host=db.internal dbname=zeph user=zeph_hub_service``; the password goes in the hub's ~/.pgpass or a service
  file). The role is made a member of ``zeph_hub`` with ``zeph-nb team-db grant zeph_hub_service --hub``.
- ``ZEPH_HUB_SIGNING_KEY``: the private key reviewers' answers are signed with (``zeph-nb hub-key PATH`` makes it
  and prints the ``review_key`` line for the managed file). Only the hub's user reads it.
- ``ZEPH_MANAGED_SETTINGS``: where the managed settings file is (default /etc/zeph-nb/managed.toml). Every user's
  server is started with it; see deploy/managed.toml.
- ``ZEPH_REVIEWERS``: hub users who review, comma-separated (or manage the ``zeph-reviewers`` group in the hub's
  admin page and leave it empty).

The end-to-end test (tests/hub/test_hub_e2e.py) loads this very file into a real JupyterHub.
"""

# ruff: noqa: F821  (get_config is given by JupyterHub when it loads the file)
import os
import sys

c = get_config()  # type: ignore[name-defined]

_MISSING = [name for name in ("ZEPH_HUB_DB_URL", "ZEPH_HUB_SIGNING_KEY") if not os.environ.get(name)]
if _MISSING:  # one line saying what to set, not a KeyError traceback from the middle of the hub's config
    raise SystemExit(
        f"zeph-nb (deploy/jupyterhub_config.py): set {' and '.join(_MISSING)} in the hub's environment: the team "
        "database as the service's role (host=… dbname=zeph user=zeph_hub_service) and the key `zeph-nb hub-key "
        "PATH` made; see deploy/README.md"
    )

SERVICE = "zeph_nb_hub"
REVIEW_SCOPE = "custom:zeph-nb:review"
MANAGED = os.environ.get("ZEPH_MANAGED_SETTINGS", "/etc/zeph-nb/managed.toml")

# -- every user's server ------------------------------------------------------------------------------------------
# The managed file holds the policy users cannot loosen ([gates], [tools], [store] audit_url, who decides asks).
# PGUSER: each kernel ships its audit rows as the user's own database role, named as their hub user, so PostgreSQL
# (row-level security) keeps one user from writing or reading another's rows. Give each role a way to log in
# without a password in the environment: a client certificate, `peer`/`trust` on a Unix socket inside the
# cluster's network, or a ~/.pgpass in the user's home.
c.Spawner.environment.update(
    {
        "ZEPH_MANAGED_SETTINGS": MANAGED,
        "PGUSER": lambda spawner: spawner.user.name,
    }
)

# -- the service --------------------------------------------------------------------------------------------------
c.JupyterHub.services.append(
    {
        "name": SERVICE,
        "display": True,  # listed under Services in the hub's menu
        "command": [sys.executable, "-m", "zeph_nb.hub"],
        "url": os.environ.get("ZEPH_HUB_SERVICE_URL", "http://127.0.0.1:10101"),
        # Users reach it from the hub's page they are already logged into; no "authorize this service?" page.
        "oauth_no_confirm": True,
        # The service learns whether a person holds the review scope from their OAuth token, so the token may
        # carry it.
        "oauth_client_allowed_scopes": [REVIEW_SCOPE],
        "environment": {
            "ZEPH_HUB_DB_URL": os.environ["ZEPH_HUB_DB_URL"],
            "ZEPH_HUB_SIGNING_KEY": os.environ["ZEPH_HUB_SIGNING_KEY"],
            # libpq finds the service role's password here (or in the hub user's ~/.pgpass); never in the URL.
            **{
                name: os.environ[name]
                for name in ("PGPASSFILE", "PGSERVICEFILE", "PGSSLROOTCERT")
                if name in os.environ
            },
        },
    }
)

# -- who may do what ----------------------------------------------------------------------------------------------
# Added to what the rest of your config sets (update/extend), not replacing it.
c.JupyterHub.custom_scopes.update(
    {
        REVIEW_SCOPE: {
            "description": "See every user's zeph-nb agent calls and answer any user's waiting request on zeph_nb_hub.",
        },
    }
)
reviewers = [name.strip() for name in os.environ.get("ZEPH_REVIEWERS", "").split(",") if name.strip()]
c.JupyterHub.load_groups.update({"zeph-reviewers": {"users": reviewers}})
c.JupyterHub.load_roles.extend(
    [
        # Every user may open the service, which shows them their own calls and requests (read-only).
        {"name": "user", "scopes": ["self", f"access:services!service={SERVICE}"]},
        # Reviewers see everyone's and answer; a reviewer's own requests go to another reviewer.
        {
            "name": "zeph-reviewer",
            "groups": ["zeph-reviewers"],
            "scopes": [REVIEW_SCOPE, f"access:services!service={SERVICE}"],
        },
    ]
)
