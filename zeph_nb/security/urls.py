"""validate_url: the first two layers of SSRF defence, run on every hop before any socket opens.

1. The URL is read the way a browser reads it (leading/trailing blanks and control characters stripped, tabs and
   newlines removed, ``\\`` taken as ``/``, the host percent-decoded, IDNA, the last ``@`` ending the userinfo),
   then refused unless it is ``https`` with no credentials and a host that is not an internal name
   (``localhost``, ``*.localhost``) nor an address in a blocked range — IPv4 in every notation a browser accepts
   (``127.1``, ``0x7f.1``, ``2130706433``, ``0177.0.0.1``), IPv6 including forms that embed an IPv4 address
   (mapped, compatible, NAT64, 6to4, Teredo).
2. A host name is resolved and **every** address returned is checked; the caller connects to the validated
   address only (``ValidatedURL.address``), with the original name as Host header and TLS server name, so a
   second lookup cannot swap in an internal address.

Operators may allow named hosts or networks (``[tools.scrape] allow_private``); nothing else gets through.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

from zeph_nb.errors import ToolError, ToolErrorCategory

__all__ = [
    "Resolver",
    "ValidatedURL",
    "is_blocked_address",
    "normalize_url",
    "parse_host",
    "system_resolver",
    "validate_url",
]

Resolver = Callable[[str], Sequence[str]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Not covered (or not fully) by ipaddress's is_global: carrier-grade NAT, benchmarking, the old 6bone, and
# documentation ranges are all non-global already; these are listed to say so explicitly.
_BLOCKED_V4 = [
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",  # "this network", unspecified
        "10.0.0.0/8",
        "100.64.0.0/10",  # carrier-grade NAT
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, including cloud metadata 169.254.169.254
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and 255.255.255.255 broadcast
    )
]
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_CONTROL = re.compile(r"[\x00-\x20\x7f]")


@dataclass(frozen=True)
class ValidatedURL:
    """A URL that passed validation, with the address to connect to."""

    url: str  # normalized, as the browser would request it
    host: str  # the name (or literal) for the Host header and TLS server name
    port: int
    address: str  # validated IP to connect to (pinned)
    addresses: tuple[str, ...]  # every address the lookup returned, all validated

    @property
    def host_header(self) -> str:
        """The Host header: the name (an IPv6 literal in brackets), with the port unless it is 443."""
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == 443 else f"{name}:{self.port}"

    @property
    def pinned_url(self) -> str:
        """The URL with the validated address in place of the host name."""
        parts = urlsplit(self.url)
        literal = f"[{self.address}]" if ":" in self.address else self.address
        return urlunsplit((parts.scheme, f"{literal}:{self.port}", parts.path or "/", parts.query, ""))


def _refuse(url: str, why: str) -> ToolError:
    return ToolError(ToolErrorCategory.POLICY_BLOCKED, f"refused to fetch {url[:200]!r}: {why}")


def _ipv4_number(part: str) -> int | None:
    """One part of a WHATWG IPv4 address: decimal, octal (leading 0) or hex (0x); None if not a number."""
    if part == "":
        return None
    base = 10
    if part[:2].lower() == "0x":
        part, base = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, base = part[1:], 8
    if part == "":
        return 0
    digits = {10: "0123456789", 8: "01234567", 16: "0123456789abcdefABCDEF"}[base]
    if any(c not in digits for c in part):
        return None
    return int(part, base)


def _parse_ipv4(host: str) -> ipaddress.IPv4Address | bool | None:
    """A host a browser would read as IPv4: its address; False when it ends in a number but is invalid; None when
    it is a name."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts = parts[:-1]
    last = parts[-1]
    hex_digits = "0123456789abcdefABCDEF"
    ends_in_number = bool(last) and (
        all(c.isdigit() for c in last) or (last[:2].lower() == "0x" and all(c in hex_digits for c in last[2:]))
    )
    if not ends_in_number:
        return None
    if len(parts) > 4:
        return False
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return False
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return False
    address = values[-1]
    for i, n in enumerate(values[:-1]):
        address += n * 256 ** (3 - i)
    return ipaddress.IPv4Address(address)


def parse_host(raw_host: str) -> tuple[str, IPAddress | None]:
    """The host as a browser reads it: (normalized name or literal, the IP if it is an address literal)."""
    if raw_host.startswith("["):
        if not raw_host.endswith("]"):
            raise ValueError("unterminated IPv6 literal")
        inner = raw_host[1:-1]
        if "%" in inner:
            raise ValueError("IPv6 zone identifiers are not allowed")
        return inner.lower(), ipaddress.IPv6Address(inner)
    host = unquote(raw_host)
    if _CONTROL.search(host) or any(c in host for c in "#%/:<>?@[\\]^|"):
        raise ValueError("the host contains characters a browser rejects")
    try:
        host = host.encode("idna").decode("ascii").lower() if not host.isascii() else host.lower()
    except UnicodeError as e:
        raise ValueError(f"not a valid international host name ({e})") from None
    ipv4 = _parse_ipv4(host)
    if ipv4 is False:
        raise ValueError("the host looks like an IPv4 address but is not a valid one")
    if isinstance(ipv4, ipaddress.IPv4Address):
        return str(ipv4), ipv4
    return host.rstrip("."), None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address carries: mapped, compatible, NAT64, 6to4, Teredo (server and client)."""
    found: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    packed = int(address)
    if packed >> 32 == 0 and packed > 1:  # IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks)
        found.append(ipaddress.IPv4Address(packed & 0xFFFFFFFF))
    if address in _NAT64 or address in _NAT64_LOCAL:
        found.append(ipaddress.IPv4Address(packed & 0xFFFFFFFF))
    return found


def is_blocked_address(address: IPAddress) -> str | None:
    """Why ``address`` may not be fetched, or None when it is a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address):
        for inner in _embedded_ipv4(address):
            why = is_blocked_address(inner)
            if why is not None:
                return f"an IPv6 form of {inner} ({why})"
        if address.is_loopback:
            return "loopback"
        if address.is_unspecified:
            return "unspecified"
        if address.is_link_local:
            return "link-local"
        if address.is_multicast:
            return "multicast"
        if address in ipaddress.ip_network("fc00::/7"):
            return "unique-local"
        if address.is_site_local:
            return "site-local"
        if not address.is_global and not _embedded_ipv4(address):
            return "not a public address"
        return None
    for network in _BLOCKED_V4:
        if address in network:
            names = {
                "127.0.0.0/8": "loopback",
                "169.254.0.0/16": "link-local (cloud metadata lives here)",
                "100.64.0.0/10": "carrier-grade NAT",
                "0.0.0.0/8": "unspecified",
                "224.0.0.0/4": "multicast",
                "240.0.0.0/4": "reserved or broadcast",
            }
            return names.get(str(network), f"private ({network})")
    if not address.is_global:
        return "not a public address"
    return None


def _allowed(host: str, address: IPAddress | None, allow: Iterable[str]) -> bool:
    for entry in allow:
        entry = entry.strip().lower()
        if not entry:
            continue
        try:
            network = ipaddress.ip_network(entry, strict=False)
        except ValueError:
            if host == entry.rstrip("."):
                return True
            continue
        if address is not None and address.version == network.version and address in network:
            return True
    return False


def system_resolver(host: str) -> list[str]:
    """Every address the system resolver returns for ``host`` (blocking; run it off the event loop)."""
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class _ReadURL:
    url: str  # normalized
    host: str
    port: int
    literal: IPAddress | None


def _read(url: str) -> _ReadURL:
    """The URL as a browser reads it, checked for everything that needs no DNS (scheme, credentials, port, host)."""
    if not isinstance(url, str):
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"the URL must be a string, got {type(url).__name__}")
    # What a browser does before parsing: strip C0 controls and spaces at both ends, drop tabs and newlines.
    cleaned = re.sub(r"[\t\n\r]", "", url.strip("".join(chr(c) for c in range(0x21))))
    if not cleaned:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, "the URL is empty")
    scheme_end = cleaned.find(":")
    scheme = cleaned[:scheme_end].lower() if scheme_end > 0 else ""
    if scheme in ("http", "https", "ws", "wss", "ftp"):
        cleaned = cleaned.replace("\\", "/")  # special schemes: a backslash is a slash
    if scheme != "https":
        raise _refuse(url, f"only https URLs may be fetched (got {scheme or 'no scheme'!r})")
    parts = urlsplit(cleaned)
    netloc = parts.netloc
    if "@" in netloc:
        raise _refuse(url, "URLs with credentials (user:password@) are not fetched")
    port = 443
    if netloc.startswith("["):
        end = netloc.find("]")
        raw_host, rest = netloc[: end + 1], netloc[end + 1 :]
    else:
        raw_host, _, rest = netloc.partition(":")
        rest = ":" + rest if rest else ""
    if rest:
        if not rest.startswith(":") or not rest[1:].isdigit() or not 0 < int(rest[1:]) < 65536:
            raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{url!r}: invalid port {rest[1:]!r}")
        port = int(rest[1:])
    if not raw_host:
        raise ToolError(ToolErrorCategory.INVALID_PARAMETERS, f"{url!r} has no host")
    try:
        host, literal = parse_host(raw_host)
    except ValueError as e:
        raise _refuse(url, str(e)) from None
    display_host = f"[{host}]" if literal is not None and literal.version == 6 else host
    normalized = urlunsplit(
        ("https", display_host + (f":{port}" if port != 443 else ""), parts.path or "/", parts.query, "")
    )
    return _ReadURL(normalized, host, port, literal)


def normalize_url(url: str) -> str:
    """``url`` as a browser would request it (lowercase host, default port dropped, backslashes as slashes …),
    or as given when it is not a URL the web tools could fetch. Permission rules match this form, so no
    spelling of a URL slips past a rule written for another."""
    try:
        return _read(url).url
    except ToolError:
        return url


def validate_url(url: str, resolve: Resolver | None = None, *, allow_private: Iterable[str] = ()) -> ValidatedURL:
    """Check ``url`` and resolve its host; raises ToolError (PolicyBlocked, or InvalidParameters for a URL that
    is not one) when it may not be fetched. ``resolve(host) -> [ip, ...]`` defaults to the system resolver."""
    read = _read(url)
    host, literal = read.host, read.literal
    allow = list(allow_private)
    local_name = literal is None and (host == "localhost" or host.endswith(".localhost"))
    if local_name and not _allowed(host, None, allow):
        raise _refuse(url, f"{host} is the local machine")
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    else:
        try:
            answers = (resolve or system_resolver)(host)
        except (OSError, UnicodeError) as e:
            raise ToolError(ToolErrorCategory.NETWORK_ERROR, f"cannot resolve {host}: {e}") from None
        if not answers:
            raise ToolError(ToolErrorCategory.NETWORK_ERROR, f"{host} has no addresses")
        try:
            addresses = [ipaddress.ip_address(a.split("%")[0]) for a in answers]
        except ValueError as e:
            raise _refuse(url, f"the resolver returned something that is not an address ({e})") from None
    for address in addresses:
        why = is_blocked_address(address)
        if why is not None and not _allowed(host, address, allow):
            shown = f"{host} resolves to {address}" if literal is None else str(address)
            raise _refuse(url, f"{shown}, which is {why}")
    return ValidatedURL(read.url, host, read.port, str(addresses[0]), tuple(str(a) for a in addresses))
