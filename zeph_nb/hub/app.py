"""The hub service's web app: JupyterHub's OAuth says who is asking, their hub scopes say what they may do.

Routes, under the service prefix (``/services/zeph_nb_hub/``):

- ``GET /`` — the team page: the requests waiting for a reviewer and the tool calls, with filters by user, tool,
  decision and sandbox, and one for the calls that were refused, denied or asked.
- ``GET /requests/<owner>/<id>`` — one request in full, with Approve / Deny for a reviewer.
- ``POST /requests/<owner>/<id>`` — a reviewer's answer (a form post with the XSRF field, or JSON with a token).
- ``GET /api/requests`` and ``GET|POST /api/requests/<owner>/<id>`` — the same as JSON, for scripts (a hub API
  token with the service's access scope in ``Authorization: token …``).
- ``GET /oauth_callback`` — JupyterHub's OAuth callback.

Who may do what:

- every hub user the service's role admits (``access:services!service=zeph_nb_hub``) sees their own calls and
  requests, read-only;
- holders of the custom scope ``custom:zeph-nb:review`` (give it to a group through a role) see every user's, and
  answer any request but their own;
- anyone else gets 403, and so does a user opening another user's request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import web

from zeph_nb.hub.desk import CALL_COLUMNS, CallFilter, NotWaiting, Request, ReviewDesk
from zeph_nb.output.sanitize import visible
from zeph_nb.security.review_signature import ReviewSigner

__all__ = ["REVIEW_SCOPE", "ServiceConfig", "make_app"]

log = logging.getLogger("zeph_nb.hub")

REVIEW_SCOPE = "custom:zeph-nb:review"
MAX_NOTE = 2000
HERE = Path(__file__).parent
T = TypeVar("T")


class DatabaseDown(Exception):
    """The team database could not be reached; the page says so instead of failing."""


@dataclass(frozen=True)
class ServiceConfig:
    """What the service is started with: JupyterHub's variables for a managed service, and zeph-nb's own two."""

    prefix: str  # JUPYTERHUB_SERVICE_PREFIX
    bind_url: str  # JUPYTERHUB_SERVICE_URL: where the hub's proxy sends the service's requests
    db_url: str  # ZEPH_HUB_DB_URL: the team database, as the service's own role (password from ~/.pgpass …)
    signing_key: Path  # ZEPH_HUB_SIGNING_KEY: the private key reviewers' answers are signed with

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ServiceConfig:
        missing = [name for name in ("JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_API_TOKEN",
                                     "ZEPH_HUB_DB_URL", "ZEPH_HUB_SIGNING_KEY") if not env.get(name)]  # fmt: skip
        if missing:
            raise SystemExit(
                f"zeph_nb.hub: {', '.join(missing)} not set. Run it as a JupyterHub managed service (see "
                "deploy/jupyterhub_config.py): the hub sets the JUPYTERHUB_* variables, and the service's "
                "'environment' sets ZEPH_HUB_DB_URL and ZEPH_HUB_SIGNING_KEY."
            )
        return cls(prefix=env["JUPYTERHUB_SERVICE_PREFIX"], bind_url=env["JUPYTERHUB_SERVICE_URL"],
                   db_url=env["ZEPH_HUB_DB_URL"], signing_key=Path(env["ZEPH_HUB_SIGNING_KEY"]))  # fmt: skip


class Base(HubOAuthenticated, web.RequestHandler):
    """Every page: the hub's OAuth (a cookie after the first visit, or a token header), then our own checks."""

    desk: ReviewDesk

    def initialize(self, desk: ReviewDesk) -> None:
        self.desk = desk

    def set_default_headers(self) -> None:
        # Everything shown came from kernels and models: no inline script runs, no other origin is loaded.
        # No framing at all: on a hub without subdomain_host, users' own servers share this origin, and a page one
        # of them serves could frame the request page and click Approve as a logged-in reviewer.
        self.set_header("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; "
                        "frame-ancestors 'none'; form-action 'self'")  # fmt: skip
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "same-origin")

    def check_xsrf_cookie(self) -> None:
        # Tornado checks XSRF before the user is known. A token in the Authorization header is no ambient
        # credential (a page cannot make a browser send it), so resolve it first: HubAuth then skips the check for
        # token requests and keeps it for cookie ones (the forms carry the _xsrf field).
        if self.request.headers.get("Authorization"):
            self.get_current_user()
        super().check_xsrf_cookie()

    @property
    def who(self) -> str:
        return str(self.current_user["name"])

    @property
    def reviewer(self) -> bool:
        return bool(self.hub_auth.check_scopes({REVIEW_SCOPE}, self.current_user))

    async def db(self, work: Callable[[], T]) -> T:
        """Run a database call off the event loop; an unreachable database becomes DatabaseDown."""
        import psycopg

        try:
            return await asyncio.to_thread(work)
        except psycopg.errors.UndefinedTable as e:  # a database set up by a zeph-nb from before the hub
            raise DatabaseDown(f"{str(e).strip().splitlines()[0]}: its administrator runs `zeph-nb team-db setup`, "
                               "then this page works") from None  # fmt: skip
        except psycopg.OperationalError as e:
            log.warning("zeph_nb.hub: the team database: %s", str(e).strip().splitlines()[:1])
            raise DatabaseDown(str(e).strip().splitlines()[0] if str(e).strip() else "unreachable") from None

    async def visible_request(self, owner: str, inbox_id: str) -> Request:
        """The request, if this person may see it: a reviewer any, a user their own; 403 otherwise (before the
        database is asked, so a 403 says nothing about whether the request exists)."""
        if not self.reviewer and owner != self.who:
            raise web.HTTPError(403, "only the team's reviewers see other users' requests")
        found = await self.db(lambda: self.desk.request(owner, inbox_id))
        if found is None:
            raise web.HTTPError(404, f"no request {inbox_id} of {owner}")
        return found

    def may_answer(self, request: Request) -> str | None:
        """Why this person may not answer ``request`` (None: they may)."""
        if not self.reviewer:
            return ("only the team's reviewers answer requests: ask one of them (members of the hub's zeph-reviewers "
                    "group, or whoever holds the custom:zeph-nb:review scope)")  # fmt: skip
        if self.who in (request.owner, request.hub_user):
            return "a reviewer does not answer their own request; another reviewer must"
        if request.state != "pending":
            return f"it is {request.state}" + (f" by {request.answered_by}" if request.answered_by else "")
        return None

    async def record(self, request: Request, answer: str, note: str | None) -> Request:
        why_not = self.may_answer(request)
        if why_not is not None:
            raise web.HTTPError(409 if self.reviewer and request.state != "pending" else 403, why_not)
        if answer not in ("approve", "deny"):
            raise web.HTTPError(400, 'answer must be "approve" or "deny"')
        if note is not None and len(note) > MAX_NOTE:
            raise web.HTTPError(400, f"a note is at most {MAX_NOTE} characters")
        try:
            await self.db(lambda: self.desk.answer(request, answer, reviewer=self.who, note=note or None))
        except NotWaiting as e:
            raise web.HTTPError(409, str(e)) from None
        log.info("zeph_nb.hub: %s answered %s of %s (%s): %s", self.who, request.id, request.owner, request.summary,
                 answer)  # fmt: skip
        updated = await self.db(lambda: self.desk.request(request.owner, request.id))
        return updated or request

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = self._reason
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, web.HTTPError) and error.log_message:
            reason = error.log_message % error.args if error.args else error.log_message
        if self.request.path.startswith(url_path_join(self.settings["zeph_prefix"], "api/")):
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": reason, "status": status_code}))
            return
        self.render("error.html", status=status_code, reason=reason, prefix=self.settings["zeph_prefix"])

    def get_template_namespace(self) -> dict[str, Any]:
        namespace: dict[str, Any] = super().get_template_namespace()
        namespace.update(short=_short, when=_when, pretty=_pretty, shown=visible)
        return namespace

    def page(self, template: str, **values: Any) -> None:
        self.render(template, who=self.who, reviewer=self.reviewer, prefix=self.settings["zeph_prefix"], **values)


def _short(text: Any, limit: int) -> str:
    # One line (a newline in a command must not break the table), and invisible or right-to-left characters
    # written out: a model can make "rm -rf ~/…" read as something harmless.
    line = " ".join(visible(str(text)).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _when(value: Any) -> str:
    return "" if value is None else str(value.isoformat(sep=" ", timespec="seconds"))


def _pretty(value: Any) -> str:
    return visible(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _down(handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Pages say the database is down (503, with what to do) instead of a traceback."""

    async def wrapped(self: Base, *args: Any) -> None:
        try:
            await handler(self, *args)
        except DatabaseDown as e:
            raise web.HTTPError(503, f"the team audit database is unreachable ({e}); kernels keep their rows and "
                                "ship them when it is back — reload in a moment") from None  # fmt: skip

    return wrapped


class TeamPage(Base):
    @web.authenticated
    @_down
    async def get(self) -> None:
        filters = CallFilter(user=self.get_argument("user", ""), tool=self.get_argument("tool", ""),
                             decision=self.get_argument("decision", ""), sandbox=self.get_argument("sandbox", ""),
                             attention=self.get_argument("attention", "") == "1")  # fmt: skip
        only = None if self.reviewer else self.who
        if self.get_argument("fragment", "") == "waiting":  # the page's script refreshes this part alone
            waiting = await self.db(lambda: self.desk.requests(owner=only))
            self.render("waiting.html", waiting=waiting, prefix=self.settings["zeph_prefix"], who=self.who,
                        reviewer=self.reviewer)  # fmt: skip
            return
        page = await self.db(lambda: self.desk.page(filters, only_owner=only))
        self.page("team.html", waiting=page.waiting, recent=page.recent, calls=page.calls, columns=CALL_COLUMNS,
                  filters=filters, choices=page.choices)  # fmt: skip


class RequestPage(Base):
    @web.authenticated
    @_down
    async def get(self, owner: str, inbox_id: str) -> None:
        request = await self.visible_request(owner, inbox_id)
        self.page("request.html", request=request, why_not=self.may_answer(request), done=self.get_argument("done", ""))

    @web.authenticated
    @_down
    async def post(self, owner: str, inbox_id: str) -> None:
        request = await self.visible_request(owner, inbox_id)
        answer = self.get_body_argument("answer", "")
        await self.record(request, answer, self.get_body_argument("note", "") or None)
        self.redirect(url_path_join(self.settings["zeph_prefix"], "requests", owner, inbox_id) + f"?done={answer}")


class RequestsApi(Base):
    @web.authenticated
    @_down
    async def get(self) -> None:
        waiting = self.get_argument("state", "pending") == "pending"
        only = None if self.reviewer else self.who
        found = await self.db(lambda: self.desk.requests(owner=only, waiting=waiting))
        self.finish({"items": [request.to_json() for request in found]})


class RequestApi(Base):
    @web.authenticated
    @_down
    async def get(self, owner: str, inbox_id: str) -> None:
        request = await self.visible_request(owner, inbox_id)
        self.finish({**request.to_json(), "may_answer": self.may_answer(request) is None})

    @web.authenticated
    @_down
    async def post(self, owner: str, inbox_id: str) -> None:
        request = await self.visible_request(owner, inbox_id)
        try:
            body = json.loads(self.request.body or b"null")
        except ValueError:
            body = None
        if not isinstance(body, dict) or set(body) - {"answer", "note"} or not isinstance(body.get("note", ""), str):
            raise web.HTTPError(400, 'send {"answer": "approve" | "deny"} (optionally with "note": "…")')
        updated = await self.record(request, str(body.get("answer")), body.get("note"))
        self.finish(updated.to_json())


def make_app(config: ServiceConfig, *, desk: ReviewDesk | None = None) -> web.Application:
    prefix = config.prefix if config.prefix.endswith("/") else config.prefix + "/"
    desk = desk or ReviewDesk(config.db_url, ReviewSigner(config.signing_key))
    name = r"([^/]+)"
    routes: list[Any] = [
        (prefix, TeamPage, {"desk": desk}),
        (url_path_join(prefix, f"requests/{name}/{name}"), RequestPage, {"desk": desk}),
        (url_path_join(prefix, "api/requests"), RequestsApi, {"desk": desk}),
        (url_path_join(prefix, f"api/requests/{name}/{name}"), RequestApi, {"desk": desk}),
        (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
    ]
    return web.Application(
        routes,
        hub_auth=HubOAuth(cache_max_age=60),
        zeph_prefix=prefix,
        cookie_secret=os.urandom(32),  # the OAuth state cookie lives for one login; a restart asks the hub again
        xsrf_cookies=True,
        template_path=str(HERE / "templates"),
        static_path=str(HERE / "static"),
        static_url_prefix=url_path_join(prefix, "static/"),
        autoescape="xhtml_escape",
    )


def main() -> None:
    from urllib.parse import urlparse

    from tornado.ioloop import IOLoop

    logging.basicConfig(level=logging.INFO, format="[%(levelname)s %(asctime)s %(name)s] %(message)s")
    config = ServiceConfig.from_env(os.environ)
    try:
        app = make_app(config)
    except ValueError as e:  # the signing key: missing, unreadable, or not one hub-key made
        raise SystemExit(f"zeph_nb.hub: {e}") from None
    bind = urlparse(config.bind_url)
    app.listen(bind.port or 80, bind.hostname or "127.0.0.1", xheaders=True)
    log.info("zeph_nb.hub: serving %s on %s", config.prefix, config.bind_url)
    IOLoop.current().start()
