"""SafeClient: GET a URL the way the web tools may, with all three SSRF layers on every hop.

Each hop is validated and resolved (``ssrf.validate_url``), then the connection goes to the validated address
with the original name as Host header and TLS server name (httpcore's ``sni_hostname``), so the certificate is
still checked against the name and a second lookup cannot swap the address. Redirects are followed by hand, at
most ``max_redirects``, each one validated and pinned like the first. One deadline covers the whole request,
redirects and body included (a server trickling bytes is cut there, not per read); the body is counted as it
arrives and cut at ``max_body_bytes``, whatever Content-Length claimed.

Compressed bodies are decoded here, not by httpx, so the cap holds on the decoded text as it is produced: one
layer of gzip or deflate at most (``gzip, gzip`` is refused), each wire chunk inflated at most up to what is left
of the cap, and a ratio of decoded to received bytes past ``MAX_RATIO`` refused as a decompression bomb. A 3 KB
response cannot make the kernel allocate gigabytes before the cap applies.
"""

from __future__ import annotations

import asyncio
import ssl
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from zeph_nb.aio import PerLoop
from zeph_nb.config import ScrapeSettings
from zeph_nb.errors import ToolError, ToolErrorCategory, classify_http_status
from zeph_nb.security.netproxy import host_allowed
from zeph_nb.security.urls import Resolver, ValidatedURL, system_resolver, validate_url

if TYPE_CHECKING:
    import httpx

__all__ = ["Fetched", "SafeClient"]

REDIRECTS = frozenset({301, 302, 303, 307, 308})
# gzip/deflate of ordinary text reaches 5-20x, of a column of zeros ~1000x; a bomb 1000x and more. The ratio is
# judged once this much has been decoded, so a short repetitive page is not refused for its shape.
MAX_RATIO = 200
RATIO_AFTER_BYTES = 256 * 1024
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
_IDENTITY = frozenset({"", "identity"})


@dataclass(frozen=True)
class Fetched:
    url: str  # the final URL, after redirects
    status: int
    content_type: str  # media type, lowercase, without parameters
    charset: str | None
    body: bytes
    truncated: bool  # the body was cut at max_body_bytes
    redirects: tuple[str, ...]

    @property
    def text(self) -> str:
        return self.body.decode(self.charset or "utf-8", errors="replace")


class SafeClient:
    def __init__(
        self,
        settings: ScrapeSettings,
        *,
        resolve: Resolver | None = None,
        hosts: Sequence[str] | None = None,
        hosts_set_by: str = "[tools] network_hosts",
    ) -> None:
        self.settings = settings
        self.resolve = resolve
        # [tools] network_hosts: the only hosts any hop may reach (None: no ceiling), and who set it, for the refusal.
        self.hosts = None if hosts is None else tuple(hosts)
        self.hosts_set_by = hosts_set_by
        self._client: PerLoop[httpx.AsyncClient] = PerLoop(self._new_client)

    def _ssl_context(self) -> ssl.SSLContext:
        import certifi

        context = ssl.create_default_context(cafile=certifi.where())
        if self.settings.extra_ca_bundle:
            try:
                context.load_verify_locations(cafile=self.settings.extra_ca_bundle)
            except (OSError, ssl.SSLError) as e:
                raise ToolError(
                    ToolErrorCategory.PERMANENT_FAILURE,
                    f"[tools.scrape] extra_ca_bundle {self.settings.extra_ca_bundle!r} cannot be used: {e}",
                ) from None
        return context

    def _new_client(self) -> httpx.AsyncClient:
        import httpx

        # trust_env=False: proxies from the environment would connect by name, undoing the pinning.
        # timeout=None: one asyncio deadline covers the whole request (httpx's are per read, which a trickling
        # server never trips).
        return httpx.AsyncClient(
            verify=self._ssl_context(),
            follow_redirects=False,
            trust_env=False,
            timeout=None,  # noqa: S113 - the deadline is asyncio.timeout in get()
        )

    def client(self) -> httpx.AsyncClient:
        return self._client.get()

    async def _validate(self, url: str) -> ValidatedURL:
        resolve = self.resolve or system_resolver
        allow = self.settings.allow_private
        # The system resolver blocks: run it in a thread so the kernel's loop (and its buttons) stay responsive.
        return await asyncio.to_thread(validate_url, url, resolve, allow_private=allow)

    async def get(self, url: str, *, accept: str = "*/*") -> Fetched:
        """GET ``url``; ToolError with a category for every way it can fail."""
        try:
            async with asyncio.timeout(self.settings.timeout):
                return await self._get(url, accept)
        except TimeoutError:
            raise ToolError(
                ToolErrorCategory.TIMEOUT,
                f"{url}: no complete answer within {self.settings.timeout}s ([tools.scrape] timeout)",
            ) from None

    async def _get(self, url: str, accept: str) -> Fetched:
        import httpx

        redirects: list[str] = []
        current = url
        while True:
            target = await self._validate(current)
            if self.hosts is not None and not host_allowed(target.host, self.hosts, target.port):
                hop = f" (redirected from {url})" if redirects else ""
                raise ToolError(ToolErrorCategory.POLICY_BLOCKED,
                                f"{target.url}{hop}: {target.host} is beyond {self.hosts_set_by}")  # fmt: skip
            # Only the encodings _read can inflate within the cap (httpx would offer br and zstd when installed).
            headers = {"Host": target.host_header, "User-Agent": self.settings.user_agent, "Accept": accept,
                       "Accept-Encoding": "gzip, deflate"}  # fmt: skip
            request = self.client().build_request(
                "GET", target.pinned_url, headers=headers, extensions={"sni_hostname": target.host}
            )
            try:
                response = await self.client().send(request, stream=True)
            except httpx.HTTPError as e:
                raise ToolError(ToolErrorCategory.NETWORK_ERROR, f"{target.url}: {type(e).__name__}: {e}") from None
            try:
                if response.status_code in REDIRECTS:
                    location = response.headers.get("location")
                    if not location:
                        raise ToolError(
                            ToolErrorCategory.PERMANENT_FAILURE, f"{target.url}: redirect without a Location"
                        )
                    if len(redirects) >= self.settings.max_redirects:
                        raise ToolError(
                            ToolErrorCategory.POLICY_BLOCKED,
                            f"{url}: more than {self.settings.max_redirects} redirects ([tools.scrape] max_redirects)",
                        )
                    current = urljoin(target.url, location)
                    redirects.append(current)
                    continue
                if response.status_code >= 400:
                    category = classify_http_status(response.status_code)
                    details: dict[str, object] = {"status": response.status_code}
                    retry_after = response.headers.get("retry-after", "")
                    if retry_after.isdigit():
                        details["retry_after"] = int(retry_after)
                    raise ToolError(
                        category, f"{target.url}: HTTP {response.status_code} {response.reason_phrase}", details=details
                    )
                body, truncated = await self._read(response)
            finally:
                await response.aclose()
            media = response.headers.get("content-type", "")
            content_type = media.split(";")[0].strip().lower()
            return Fetched(target.url, response.status_code, content_type, response.charset_encoding, body, truncated,
                           tuple(redirects))  # fmt: skip

    async def _read(self, response: httpx.Response) -> tuple[bytes, bool]:
        """The body, decoded, at most ``max_body_bytes`` of it; (body, whether it was cut)."""
        limit = self.settings.max_body_bytes
        inflater = _inflater(str(response.url), response.headers.get("content-encoding", ""))
        chunks: list[bytes] = []
        size = received = 0
        async for raw in response.aiter_raw():  # the bytes on the wire, still encoded
            received += len(raw)
            # At most one byte past the cap: input left over (unconsumed_tail) only ever means the cap was reached.
            data = raw if inflater is None else _inflate(inflater, raw, limit - size + 1, str(response.url))
            chunks.append(data)
            size += len(data)
            if inflater is not None and size >= RATIO_AFTER_BYTES:
                consumed = received - len(inflater.unconsumed_tail)  # the compressed bytes that made `size`
                if size > MAX_RATIO * max(consumed, 1):
                    raise ToolError(
                        ToolErrorCategory.POLICY_BLOCKED,
                        f"{response.url}: {consumed} compressed bytes inflate to more than {size} "
                        f"(over {MAX_RATIO}x): refused as a decompression bomb",
                    )
            if size > limit:
                return b"".join(chunks)[:limit], True
            if received > limit and inflater is not None:
                return b"".join(chunks), True  # the compressed body itself is past the cap
        if inflater is not None:
            chunks.append(inflater.flush()[: limit - size])
        return b"".join(chunks), False

    async def aclose(self) -> None:
        if self._client.current is not None:
            await self._client.current.aclose()


def _inflate(inflater: zlib._Decompress, raw: bytes, most: int, url: str) -> bytes:
    try:
        return inflater.decompress(raw, most)
    except zlib.error as e:
        raise ToolError(
            ToolErrorCategory.PERMANENT_FAILURE, f"{url}: the body is not valid for its Content-Encoding ({e})"
        ) from None


def _inflater(url: str, header: str) -> zlib._Decompress | None:
    """A decoder for the response's Content-Encoding: None for none; one layer of gzip or deflate; refused else."""
    layers = [part.strip().lower() for part in header.split(",") if part.strip().lower() not in _IDENTITY]
    if not layers:
        return None
    if len(layers) > 1:
        raise ToolError(
            ToolErrorCategory.POLICY_BLOCKED,
            f"{url}: the response is encoded {len(layers)} times ({header}); at most one layer is decoded",
        )
    if layers[0] not in _WBITS:
        raise ToolError(
            ToolErrorCategory.PERMANENT_FAILURE,
            f"{url}: the response uses the {layers[0]!r} content encoding, which is not supported (gzip, deflate)",
        )
    return zlib.decompressobj(_WBITS[layers[0]])
