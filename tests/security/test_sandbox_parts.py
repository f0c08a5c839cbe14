"""The pieces of the OS sandbox on their own: what a command needs, the proxy's checks, protected paths, the layout."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from zeph_nb.errors import SandboxViolation
from zeph_nb.security.netproxy import NetworkProxy, host_allowed
from zeph_nb.security.os_sandbox import Limits, SandboxSpec, bwrap_argv
from zeph_nb.security.protected import ProtectedPaths
from zeph_nb.shell import ShellClassifier
from zeph_nb.shell.escalations import ANY_HOST, Escalation, escalation_of, merge

PYPI = ("pypi.org", "files.pythonhosted.org")


def needs(command: str) -> Escalation:
    return merge(escalation_of(c) for c in ShellClassifier().analyze(command).commands)


@pytest.mark.parametrize(
    ("command", "hosts", "environment"),
    [
        ("ls -la", (), None),
        ("python train.py", (), None),
        ("pip install requests", PYPI, "python"),
        ("/usr/bin/pip3 install -U numpy", PYPI, "python"),
        ("python -m pip install pandas", PYPI, "python"),
        ("python3.11 -m pip download x", PYPI, None),
        ("pip install --target vendor six", PYPI, None),
        ("pip install --user six", PYPI, None),
        ("pip install -i https://mirror.example.org/simple x", (*PYPI, "mirror.example.org"), "python"),
        ("pip list", (), None),
        ("uv pip install httpx", PYPI, "python"),
        ("uv sync", PYPI, None),
        ("conda install numpy", ("conda.anaconda.org", "repo.anaconda.com", "*.anaconda.org"), "conda"),
        ("npm install", ("registry.npmjs.org",), None),
        ("cargo test", (), None),
        ("cargo fetch", ("crates.io", "index.crates.io", "static.crates.io"), None),
        ("git status", (), None),
        ("git clone https://github.com/org/repo.git", ("github.com",), None),
        ("git clone git@gitlab.com:org/repo.git", ("gitlab.com",), None),
        ("git -C sub pull", (ANY_HOST,), None),
        ("git clone --bare ../src.git .git/modules/sub", (), None),
        ("curl -sO https://data.example.org/a.csv", ("data.example.org",), None),
        ("c''url https://x.example.com", ("x.example.com",), None),
        ("bash -c 'wget http://a.example.com/f'", ("a.example.com",), None),
        ("scp user@host.example.com:file .", ("host.example.com",), None),
        ("nc 10.0.0.1 80", (ANY_HOST,), None),
        ("curl https://a.example.com; curl https://b.example.com", ("a.example.com", "b.example.com"), None),
        ("curl https://a.example.com; ssh box", (ANY_HOST,), None),
    ],
)
def test_what_a_command_needs_beyond_the_sandbox(command: str, hosts: tuple[str, ...], environment: str | None) -> None:
    assert needs(command) == Escalation(hosts, environment)


@pytest.mark.parametrize(
    ("host", "allowed", "expected"),
    [
        ("pypi.org", ["pypi.org"], True),
        ("PyPI.org.", ["pypi.org"], True),
        ("evil-pypi.org", ["pypi.org"], False),
        ("pypi.org.evil.com", ["pypi.org"], False),
        ("a.anaconda.org", ["*.anaconda.org"], True),
        ("anaconda.org", ["*.anaconda.org"], False),
        ("anything.example", ["*"], True),
        ("x", [], False),
        ("example.com", ["*.com"], False),
        ("a.b", ["*.*"], False),
    ],
)
def test_host_allowed(host: str, allowed: list[str], expected: bool) -> None:
    assert host_allowed(host, allowed) is expected


def test_ports_are_80_and_443_unless_the_grant_names_one() -> None:
    assert host_allowed("pypi.org", ["pypi.org"], 443) and host_allowed("pypi.org", ["pypi.org"], 80)
    assert not host_allowed("pypi.org", ["pypi.org"], 22)
    assert host_allowed("mirror.corp", ["mirror.corp:8443"], 8443)
    assert not host_allowed("mirror.corp", ["mirror.corp:8443"], 443)


class Upstream:
    """A plain TCP server standing in for a web server: answers every request with its first line."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(0.3)
                data = b""
                with contextlib.suppress(OSError):  # whatever arrives until the client goes quiet
                    while chunk := conn.recv(65536):
                        data += chunk
                        if b"\r\n\r\n" in data and not data.startswith(b"POST"):
                            break
                self.received.append(data)
                first = data.split(b"\r\n", 1)[0]
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(first), first)
                )


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    yield server
    server.sock.close()


async def through(proxy: NetworkProxy, request: bytes) -> bytes:
    reader, writer = await asyncio.open_unix_connection(str(proxy.socket_path))
    writer.write(request)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return data


def resolver(host: str) -> list[str]:
    return {"pkg.example.org": ["127.0.0.1"], "public.example.org": ["93.184.215.14"]}.get(host, ["10.1.2.3"])


async def test_the_proxy_lets_through_granted_hosts_only(upstream: Upstream) -> None:
    # pkg.example.org resolves to loopback here, so it is also named in allow_private (as a test server would be).
    hosts = [f"pkg.example.org:{upstream.port}"]
    async with NetworkProxy(hosts, allow_private=["pkg.example.org"], resolve=resolver) as proxy:
        host = f"pkg.example.org:{upstream.port}"
        plain = await through(proxy, f"GET http://{host}/simple/ HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert plain.endswith(b"GET /simple/ HTTP/1.1")
        # Asking the granted host's server for another site (a shared CDN would serve it): refused.
        fronted = await through(proxy, f"GET http://{host}/ HTTP/1.1\r\nHost: evil.example\r\n\r\n".encode())
        assert fronted.startswith(b"HTTP/1.1 403") and b"Host header" in fronted
        other_port = await through(proxy, b"CONNECT pkg.example.org:22 HTTP/1.1\r\n\r\n")
        assert other_port.startswith(b"HTTP/1.1 403")
        for trick in [
            f"Host: evil.example\r\nhost: {host}",  # two Host headers: servers read the first
            f"Host: evil@{host}",
            f"Host: {host}\r\nConnection : keep-alive",  # not a header name a server reads one way only
        ]:
            answer = await through(proxy, f"GET http://{host}/ HTTP/1.1\r\n{trick}\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 403"), trick
        # A second request pipelined behind the first (naming another site) never reaches the server.
        upstream.received.clear()
        pipelined = (
            f"POST http://{host}/a HTTP/1.1\r\nHost: {host}\r\nContent-Length: 3\r\n\r\nabc"
            "GET /b HTTP/1.1\r\nHost: evil.example\r\n\r\n"
        )
        await through(proxy, pipelined.encode())
        assert b"evil.example" not in b"".join(upstream.received) and b"abc" in b"".join(upstream.received)
        tunnel = await through(
            proxy,
            f"CONNECT pkg.example.org:{upstream.port} HTTP/1.1\r\n\r\nGET /inside HTTP/1.1\r\n\r\n".encode(),
        )
        assert tunnel.startswith(b"HTTP/1.1 200 Connection Established") and tunnel.endswith(b"GET /inside HTTP/1.1")
        refused = await through(proxy, b"CONNECT evil.example.com:443 HTTP/1.1\r\n\r\n")
        assert refused.startswith(b"HTTP/1.1 403") and b"not a host and port granted" in refused
        nonsense = await through(proxy, b"GET /relative HTTP/1.1\r\n\r\n")
        assert nonsense.startswith(b"HTTP/1.1 400")
    assert proxy.log.reached == [f"pkg.example.org:{upstream.port}"]
    assert list(proxy.log.refused)[:2] == [host, "pkg.example.org:22"]
    assert "evil.example.com:443" in proxy.log.refused
    assert not proxy.socket_path.exists()


async def test_the_proxy_refuses_the_machine_itself_and_private_ranges_even_for_any_host(upstream: Upstream) -> None:
    async with NetworkProxy([ANY_HOST], resolve=resolver) as proxy:
        for target in [f"127.0.0.1:{upstream.port}", f"localhost:{upstream.port}", "[::1]:443", "10.1.2.3:443",
                       "internal.corp:443", "169.254.169.254:80", f"pkg.example.org:{upstream.port}"]:  # fmt: skip
            answer = await through(proxy, f"CONNECT {target} HTTP/1.1\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 403"), (target, answer)
    assert proxy.log.reached == []


def test_protected_paths(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    link = tmp_path / "elsewhere"
    link.symlink_to(home / ".ssh")
    protected = ProtectedPaths.build(
        home=home,
        hidden=[(home / ".ssh", "it holds credentials"), (link, "it holds credentials")],
        readonly=[(tmp_path / "proj" / "zeph.toml", "the config file")],
    )
    assert protected.hidden_by(home / ".ssh" / "id_rsa") == home / ".ssh"
    assert protected.hidden_by(home / ".sshx") is None
    assert protected.readonly_by(home / ".bashrc") == home / ".bashrc"
    assert protected.readonly_by(home / ".config" / "autostart" / "x") == home / ".config"
    assert protected.readonly_by(home / "notes.txt") is None
    assert protected.readonly_by(tmp_path / "proj" / ".git" / "hooks" / "pre-commit") == tmp_path / "proj" / ".git"
    assert protected.readonly_by(tmp_path / "proj" / ".gitignore") is None
    with pytest.raises(SandboxViolation, match="which no tool may read"):
        protected.check_read(home / ".ssh" / "id_rsa", "~/.ssh/id_rsa")
    with pytest.raises(SandboxViolation, match="the config file"):
        protected.check_write(tmp_path / "proj" / "zeph.toml", "zeph.toml")


def _pairs(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, word in enumerate(argv) if word == flag]


def test_the_layout(tmp_path: Path) -> None:
    home = tmp_path / "home"
    work = home / "project"
    for folder in (home / ".ssh", home / ".config", home / "data", work / ".git" / "hooks", work / "sub" / ".git"):
        folder.mkdir(parents=True)
    (home / ".bashrc").write_text("")
    (work / ".git" / "config").write_text("")
    (work / "zeph.toml").write_text("")
    protected = ProtectedPaths.build(
        home=home, hidden=[(home / ".ssh", "credentials")], readonly=[(work / "zeph.toml", "config")]
    )
    argv = bwrap_argv(SandboxSpec(work, (work,), protected, None, Limits()))
    # .git is a mount point of its own (it cannot be renamed away), writable, with hooks and config read-only.
    assert _pairs(argv, "--bind") == [str(work), str(work / ".git"), str(work / "sub" / ".git")]
    ro = _pairs(argv, "--ro-bind")
    assert ro[0] == "/"
    assert set(ro[1:]) == {str(work / "zeph.toml"), str(work / ".git" / "hooks"), str(work / ".git" / "config")}
    assert str(home / ".ssh") in _pairs(argv, "--tmpfs")
    for flag in ("--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"

    # The home itself as the working directory: read-only, its non-dot entries writable again.
    argv = bwrap_argv(SandboxSpec(home, (home,), protected, None, Limits()))
    binds = _pairs(argv, "--bind")
    # Not bound read-write first: the read-only bind over it would only cover that (a mount for nothing).
    assert binds[:2] == [str(home / "data"), str(home / "project")] and str(home) not in binds
    assert str(work / ".git") in binds and str(work / "sub" / ".git") in binds  # found two levels down
    assert str(home) in _pairs(argv, "--ro-bind")


def test_only_what_the_user_could_read_is_hidden_by_a_mount() -> None:
    # Run as root and again as an ordinary user (test_as_an_ordinary_user.py). A file of the user's own with every
    # right taken away is hidden all the same: its owner can give them back. What the user cannot read and does
    # not own (/etc/shadow, as an ordinary user) needs no mount: the sandbox reads no more than its user.
    # Outside /tmp: the sandbox has a /tmp of its own, and hides nothing in the host's.
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        _only_readable_hidden(Path(folder))


def _only_readable_hidden(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    own = tmp_path / "own-key"
    own.write_text("secret")
    own.chmod(0)
    shut = tmp_path / "shut"
    shut.mkdir(mode=0)
    hidden = [(own, "credentials"), (shut, "credentials"), (Path("/etc/shadow"), "system")]
    argv = bwrap_argv(SandboxSpec(work, (work,), ProtectedPaths.build(home=None, hidden=hidden), None, Limits()))
    files = [argv[i + 2] for i, flag in enumerate(argv) if flag == "--ro-bind" and argv[i + 1] == "/dev/null"]
    assert str(own) in files and str(shut) in _pairs(argv, "--tmpfs")
    if os.path.exists("/etc/shadow"):
        readable = os.geteuid() == 0 or os.access("/etc/shadow", os.R_OK)
        assert ("/etc/shadow" in files) == readable, (os.geteuid(), files)


def test_limits() -> None:
    assert Limits(10, 1024, 0).prlimit_args() == ["--nproc=10", "--fsize=1024"]
    assert Limits(0, 0, 0).prlimit_args() == []


def test_a_hidden_path_holding_the_working_directory_is_left_visible(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    work = outer / "work"
    work.mkdir(parents=True)
    protected = ProtectedPaths.build(home=None, hidden=[(outer, "state")])
    argv = bwrap_argv(SandboxSpec(work, (work,), protected, None, Limits()))
    assert str(outer) not in _pairs(argv, "--tmpfs")
    assert os.fspath(work) in _pairs(argv, "--bind")


def test_a_port_in_a_url_is_part_of_the_host_it_needs() -> None:
    assert needs("curl https://mirror.corp:8443/simple/").hosts == ("mirror.corp:8443",)
    assert needs("curl https://mirror.corp:443/x http://plain.example:80/y").hosts == ("mirror.corp", "plain.example")


@pytest.mark.parametrize("hosts", [["https://pypi.org/simple"], ["pypi.org/x"], ["a b"], ["*.*"], [""]])
def test_hosts_that_are_not_hosts_are_a_clear_error(hosts: list[str]) -> None:
    from zeph_nb.errors import ToolError
    from zeph_nb.tools.base import validate_params
    from zeph_nb.tools.shell.executor import BASH

    with pytest.raises(ToolError) as info:
        validate_params(BASH, {"command": "python fetch.py", "hosts": hosts})
    assert info.value.category.label == "invalid_parameters" and "hosts" in info.value.message


def test_hosts_the_proxy_can_match_are_accepted() -> None:
    from zeph_nb.tools.base import validate_params
    from zeph_nb.tools.shell.executor import BASH

    args = validate_params(BASH, {"command": "x", "hosts": ["pypi.org", "mirror.corp:8443", "*.example.org", "*"]})
    assert args.hosts == ["pypi.org", "mirror.corp:8443", "*.example.org", "*"]  # type: ignore[attr-defined]
