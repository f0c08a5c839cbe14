"""validate_url over a table of hostile URLs, with an injected resolver: no DNS, no sockets."""

from __future__ import annotations

import pytest

from zeph_nb.errors import ToolError, ToolErrorCategory
from zeph_nb.safety import validate_url

PUBLIC = "93.184.216.34"


def answers(*ips: str) -> object:
    return lambda host: list(ips)


def never(host: str) -> list[str]:
    raise AssertionError(f"{host} must be refused before any lookup")


BLOCKED_LITERALS = [
    # IPv4 in every notation a browser accepts
    "https://127.0.0.1/", "https://127.1/", "https://127.0.1/", "https://0x7f.1/", "https://0x7f000001/",
    "https://2130706433/", "https://0177.0.0.1/", "https://017700000001/", "https://0x7F.0.0.0x1/",
    "https://127.000.000.001/", "https://%31%32%37%2e%30%2e%30%2e%31/", "https://127.0.0.1./",
    "https://0/", "https://0.0.0.0/", "https://10.0.0.1/", "https://10.255.255.255/", "https://172.16.0.1/",
    "https://172.31.255.254/", "https://192.168.1.1/", "https://169.254.169.254/latest/meta-data/",
    "https://0xa9.0xfe.0xa9.0xfe/", "https://2852039166/", "https://100.64.0.1/", "https://100.127.255.255/",
    "https://224.0.0.1/", "https://239.255.255.250/", "https://255.255.255.255/", "https://240.0.0.1/",
    "https://198.18.0.1/", "https://192.0.0.8/",
    # IPv6, and IPv6 forms that carry an IPv4 address
    "https://[::1]/", "https://[::]/", "https://[0:0:0:0:0:0:0:1]/", "https://[fe80::1]/", "https://[fc00::1]/",
    "https://[fd12:3456::1]/", "https://[ff02::1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/",
    "https://[::ffff:a9fe:a9fe]/", "https://[::127.0.0.1]/", "https://[::a00:1]/", "https://[64:ff9b::7f00:1]/",
    "https://[64:ff9b::a9fe:a9fe]/", "https://[64:ff9b:1::a00:1]/", "https://[2002:7f00:1::1]/",
    "https://[2002:a9fe:a9fe::]/", "https://[2001:0:7f00:1:0:0:0:0]/", "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    "https://[fec0::1]/",
    # names that are the local machine
    "https://localhost/", "https://LOCALHOST/", "https://localhost./", "https://api.localhost/",
    "https://a.b.localhost:8443/x",
]  # fmt: skip


@pytest.mark.parametrize("url", BLOCKED_LITERALS)
def test_internal_addresses_are_refused_before_any_lookup(url: str) -> None:
    with pytest.raises(ToolError) as info:
        validate_url(url, never)  # type: ignore[arg-type]
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://example.com/", "only https"),
        ("HTTP://example.com/", "only https"),
        ("file:///etc/passwd", "only https"),
        ("gopher://example.com/", "only https"),
        ("ftp://example.com/", "only https"),
        ("javascript:alert(1)", "only https"),
        ("//example.com/", "only https"),
        ("example.com", "only https"),
        ("https://user:pw@example.com/", "credentials"),
        ("https://example.com@127.0.0.1/", "credentials"),  # a browser reads the host after the last @
        ("https://example.com%40127.0.0.1/", "rejects"),
        ("https://1.2.3.4.5/", "not a valid one"),
        ("https://256.0.0.1/", "not a valid one"),
        ("https://0x100000000/", "not a valid one"),
        ("https://[fe80::1%25eth0]/", "zone"),
        ("https://exa mple.com/", "rejects"),
    ],
)
def test_urls_a_browser_would_not_fetch_safely_are_refused(url: str, why: str) -> None:
    with pytest.raises(ToolError, match=why):
        validate_url(url, answers(PUBLIC))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/a?b=1", "https://example.com/a?b=1"),
        ("  https://example.com/  ", "https://example.com/"),
        ("\x00\x1fhttps://example.com/\x1f ", "https://example.com/"),  # C0 controls and blanks at the ends go
        ("https://exa\tmple.com/pa\nth", "https://example.com/path"),  # tabs and newlines anywhere go
        ("https:\\\\example.com\\docs", "https://example.com/docs"),  # backslashes are slashes
        ("HTTPS://EXAMPLE.COM:443/", "https://example.com/"),
        ("https://example.com:8443/", "https://example.com:8443/"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://example.com/#fragment", "https://example.com/"),
    ],
)
def test_urls_are_read_the_way_a_browser_reads_them(url: str, expected: str) -> None:
    assert validate_url(url, answers(PUBLIC)).url == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "ips",
    [
        ["127.0.0.1"],
        ["10.0.0.5"],
        ["169.254.169.254"],
        [PUBLIC, "127.0.0.1"],  # one bad answer among good ones is enough to refuse
        ["::1"],
        [PUBLIC, "::ffff:10.0.0.1"],
        ["fd00::5"],
        ["100.64.3.3"],
        ["0.0.0.0"],  # noqa: S104 - an answer to refuse, not an address to bind
        ["not-an-ip"],
    ],
)
def test_every_resolved_address_is_checked(ips: list[str]) -> None:
    with pytest.raises(ToolError) as info:
        validate_url("https://innocent.example/", answers(*ips))  # type: ignore[arg-type]
    assert info.value.category is ToolErrorCategory.POLICY_BLOCKED


def test_the_validated_address_is_what_gets_connected_to() -> None:
    calls: list[str] = []

    def rebinding(host: str) -> list[str]:
        calls.append(host)
        return [PUBLIC] if len(calls) == 1 else ["127.0.0.1"]

    target = validate_url("https://rebind.example/x?y=1", rebinding)
    assert calls == ["rebind.example"]
    assert (target.address, target.host) == (PUBLIC, "rebind.example")
    assert target.pinned_url == f"https://{PUBLIC}:443/x?y=1"
    v6 = validate_url("https://v6.example/", answers("2606:2800:220:1:248:1893:25c8:1946"))  # type: ignore[arg-type]
    assert v6.pinned_url == "https://[2606:2800:220:1:248:1893:25c8:1946]:443/"


def test_resolver_failures_are_network_errors() -> None:
    def broken(host: str) -> list[str]:
        raise OSError("Name or service not known")

    with pytest.raises(ToolError) as info:
        validate_url("https://nowhere.example/", broken)
    assert info.value.category is ToolErrorCategory.NETWORK_ERROR
    with pytest.raises(ToolError) as info:
        validate_url("https://empty.example/", answers())  # type: ignore[arg-type]
    assert info.value.category is ToolErrorCategory.NETWORK_ERROR


@pytest.mark.parametrize(
    ("allow", "url", "ips", "ok"),
    [
        (["127.0.0.1/32"], "https://dev.test/", ["127.0.0.1"], True),
        (["127.0.0.1/32"], "https://dev.test/", ["127.0.0.2"], False),
        (["10.0.0.0/8"], "https://10.1.2.3/", [], True),
        (["intranet.corp"], "https://intranet.corp/", ["10.9.9.9"], True),
        (["intranet.corp"], "https://other.corp/", ["10.9.9.9"], False),
        (["localhost"], "https://localhost/", ["127.0.0.1"], True),
        (["fd00::/8"], "https://[fd00::7]/", [], True),
    ],
)
def test_operators_may_allow_named_private_hosts_or_networks(
    allow: list[str], url: str, ips: list[str], ok: bool
) -> None:
    if ok:
        validate_url(url, answers(*ips), allow_private=allow)  # type: ignore[arg-type]
    else:
        with pytest.raises(ToolError):
            validate_url(url, answers(*ips), allow_private=allow)  # type: ignore[arg-type]


def test_bad_input_says_what_is_wrong() -> None:
    with pytest.raises(ToolError, match="must be a string"):
        validate_url(42)  # type: ignore[arg-type]
    with pytest.raises(ToolError, match="empty"):
        validate_url("   ")
    with pytest.raises(ToolError, match="invalid port"):
        validate_url("https://example.com:99999/", answers(PUBLIC))  # type: ignore[arg-type]
    with pytest.raises(ToolError, match="no host"):
        validate_url("https:///path", answers(PUBLIC))  # type: ignore[arg-type]


def test_the_host_header_names_the_host_as_the_url_does() -> None:
    v6 = validate_url("https://[2606:2800:220:1:248:1893:25c8:1946]:8443/", answers())  # type: ignore[arg-type]
    assert v6.host_header == "[2606:2800:220:1:248:1893:25c8:1946]:8443"
    assert validate_url("https://Example.com:443/", answers(PUBLIC)).host_header == "example.com"  # type: ignore[arg-type]
