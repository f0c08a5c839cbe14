"""Which environment variables a child process may see.

A model that can run ``env`` or ``printenv`` can read every variable the kernel has, and the kernel usually has
the user's API keys. Variables whose *names* look like credentials are removed before any child starts; a
keep-list spares well-known harmless names that happen to match (``TOKENIZERS_PARALLELISM``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

from wcmatch import fnmatch

__all__ = ["DEFAULT_KEEP", "DEFAULT_SCRUB", "scrub_env"]

DEFAULT_SCRUB: tuple[str, ...] = (
    "*API_KEY*",
    "*APIKEY*",
    "*_KEY_ID",
    "*SECRET",
    "*_SECRET_*",
    "*SECRET_KEY*",
    "*_TOKEN",
    "*_TOKEN_*",
    "*TOKEN",
    "*PASSWORD*",
    "*PASSWD*",
    "*_PASS",
    "*_PRIVATE_KEY*",
    "*_CREDENTIAL*",
    "*_CREDS",
    "*_AUTH",
    "*_AUTH_*",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "*_DSN",
    "DATABASE_URL",
    "*_DATABASE_URL",
    "REDIS_URL",
    "SSH_AUTH_SOCK",  # the agent's socket signs with the user's SSH keys
    "GPG_AGENT_INFO",
    "NETRC",
    "KUBECONFIG",
    "DOCKER_AUTH_CONFIG",
    "NPM_TOKEN",
    "PYPI_TOKEN",
    "TWINE_PASSWORD",
    # libpq's: where the team audit database's password file, service file and client key are.
    "PGPASSFILE",
    "PGSERVICEFILE",
    "PGSSLKEY",
)
DEFAULT_KEEP: tuple[str, ...] = (
    "TOKENIZERS_PARALLELISM",
    "PASSWORD_STORE_DIR",
    "PASSWORD_STORE_*",
    "*_TOKEN_LIMIT",
    "*_MAX_TOKENS",
    "XDG_*",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
)
_FLAGS = fnmatch.IGNORECASE


def scrub_env(env: Mapping[str, str], *, scrub: Iterable[str] = (), keep: Iterable[str] = ()) -> dict[str, str]:
    """A copy of ``env`` without credential-looking variables.

    ``scrub`` adds name globs to remove and ``keep`` name globs to spare (``keep`` wins), on top of the defaults.
    """
    remove, spare = _matchers((*DEFAULT_SCRUB, *scrub), (*DEFAULT_KEEP, *keep))
    return {name: value for name, value in env.items() if spare.match(name) or not remove.match(name)}


@functools.lru_cache(maxsize=16)
def _matchers(scrub: tuple[str, ...], keep: tuple[str, ...]) -> tuple[fnmatch.WcMatcher[str], fnmatch.WcMatcher[str]]:
    """The globs compiled, once per process for each list, not once per variable: fnmatch.fnmatch(name, patterns)
    expands every pattern again on each call (~0.1 ms for these lists, so ~20 ms a kernel's environment), and
    compiling them takes ~3 ms, which each new Agent paid twice (its bash and diagnostics tools scrub alike)."""
    return fnmatch.compile(scrub, flags=_FLAGS), fnmatch.compile(keep, flags=_FLAGS)
